# Hand-written stubs for the Rust extension; checked by `mypy.stubtest` in `make lint`.
import builtins
import os
import sys
from typing import Any, ClassVar, Dict, Iterator, List, Literal, Optional, SupportsFloat, SupportsIndex, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt

__version__: str

__all__ = [
    "AlignmentError",
    "ClikaError",
    "DType",
    "DTypeError",
    "Device",
    "DeviceError",
    "Generator",
    "IndexOutOfRangeError",
    "InternalError",
    "InvalidArgumentError",
    "LayoutError",
    "MemoryStats",
    "NullPointerError",
    "OutOfMemoryError",
    "ReadOnlyError",
    "DivisionByZeroError",
    "ShapeError",
    "Tensor",
    "ValuesIndices",
    "_dlpack_live_exports",
    "_rebuild_tensor",
    "_op_call",
    "_op_link_native",
    "_op_register",
    "_op_registered",
    "_op_unregister",
    "_testing_call_on_rust_thread",
    "_testing_register_rust_ops",
    "_testing_rust_iota_released",
    "abs",
    "acos",
    "add",
    "all",
    "any",
    "arange",
    "argmax",
    "argmin",
    "asin",
    "atan",
    "atan2",
    "argsort",
    "bernoulli",
    "bfloat16",
    "bitwise_and",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "bool",
    "cat",
    "ceil",
    "clamp",
    "cos",
    "cosh",
    "cumprod",
    "cumsum",
    "div",
    "empty",
    "empty_like",
    "eq",
    "erf",
    "exp",
    "exp2",
    "expm1",
    "eye",
    "float16",
    "float32",
    "float64",
    "floor",
    "floor_divide",
    "fmod",
    "from_buffer",
    "from_dlpack",
    "from_fd",
    "from_file",
    "from_numpy",
    "full",
    "full_like",
    "ge",
    "gelu",
    "gt",
    "hypot",
    "int16",
    "int32",
    "int64",
    "int8",
    "isfinite",
    "isinf",
    "isnan",
    "kthvalue",
    "le",
    "linspace",
    "load_safetensors",
    "log",
    "log10",
    "log1p",
    "log2",
    "log_softmax",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "logspace",
    "logsumexp",
    "lt",
    "manual_seed",
    "set_printoptions",
    "get_printoptions",
    "matmul",
    "max",
    "maximum",
    "mean",
    "median",
    "memory_stats",
    "min",
    "minimum",
    "mul",
    "ne",
    "neg",
    "norm",
    "normal",
    "ones",
    "ones_like",
    "pow",
    "prod",
    "rand",
    "randint",
    "randn",
    "release_cached_memory",
    "release_cached_pinned_memory",
    "pinned_memory_stats",
    "relu",
    "remainder",
    "reset_peak_stats",
    "round",
    "roll",
    "rsqrt",
    "set_memory_limit",
    "sigmoid",
    "sign",
    "silu",
    "sin",
    "sinh",
    "softmax",
    "sort",
    "sqrt",
    "stack",
    "std",
    "sub",
    "sum",
    "tan",
    "tanh",
    "tensor",
    "tril",
    "triu",
    "trunc",
    "topk",
    "uint16",
    "uint32",
    "uint64",
    "uint8",
    "uniform",
    "unique",
    "var",
    "where",
    "zeros",
    "zeros_like",
    "__version__",
    "adaptive_avg_pool2d",
    "avg_pool2d",
    "conv1d",
    "conv2d",
    "conv_transpose1d",
    "conv_transpose2d",
    "batch_norm",
    "cvt_color",
    "group_norm",
    "interpolate",
    "layer_norm",
    "linear",
    "max_pool2d",
    "normalize_image",
    "pad",
    "gather",
    "scatter",
    "scatter_add",
    "scatter_reduce",
    "index_add",
    "bincount",
    "histc",
    "index_select",
    "masked_select",
    "masked_fill",
    "nonzero",
    "amax",
    "amin",
]

_DTypeLike = Union["DType", npt.DTypeLike]
_DeviceLike = Union["Device", str]
_Shape = Union[SupportsIndex, Sequence[SupportsIndex]]
# What an elementwise operand may be: a tensor, a Python number (a weak scalar), or a numpy
# array or scalar (copied into a tensor).
_Operand = Union["Tensor", builtins.bool, int, float, np.ndarray[Any, Any], np.generic[Any]]
_Dims = Union[None, int, Sequence[int]]
_Scalar = Union[builtins.bool, int, float]

class ClikaError(Exception): ...
class NullPointerError(ClikaError, ValueError): ...
class ShapeError(ClikaError, ValueError): ...
class AlignmentError(ClikaError, ValueError): ...
class DTypeError(ClikaError, TypeError): ...
class LayoutError(ClikaError, TypeError): ...
class IndexOutOfRangeError(ClikaError, IndexError): ...
class OutOfMemoryError(ClikaError, MemoryError): ...
class DeviceError(ClikaError, RuntimeError): ...
class ReadOnlyError(ClikaError, ValueError): ...
class DivisionByZeroError(ClikaError, ZeroDivisionError): ...
class InvalidArgumentError(ClikaError, ValueError): ...
class InternalError(ClikaError, RuntimeError): ...

@final
class DType:
    """An element type: `crt.float32`, `crt.int64`, `crt.bool`... (the module's dtype objects).

    The dtypes are bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
    bfloat16, float32 and float64. A dtype compares equal to the numpy dtype and the string of
    the same name, and every `dtype=` argument takes any of those (or a Python type, or a
    `torch.dtype`). `np.dtype(crt.float32)` works through its `dtype` property (numpy has no
    bfloat16).

    Examples
    --------
    >>> crt.float32 == np.float32, crt.float32 == "float32"
    (True, True)
    >>> crt.int16.itemsize, crt.float16.is_floating_point
    (2, True)
    >>> np.dtype(crt.uint8)
    dtype('uint8')
    """
    @property
    def name(self) -> str:
        """The lower-case name (`"float32"`)."""
    @property
    def itemsize(self) -> int:
        """Bytes per element."""
    @property
    def is_floating_point(self) -> builtins.bool:
        """Whether this is a floating-point type."""
    @property
    def dtype(self) -> np.dtype[Any]:
        """The matching `numpy.dtype` (so `np.dtype(crt.float32)` works); numpy has no bfloat16."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> builtins.bool: ...
    def __ne__(self, other: object, /) -> builtins.bool: ...

float32: DType
float64: DType
float16: DType
bfloat16: DType
int8: DType
int16: DType
int32: DType
int64: DType
uint8: DType
bool: DType
uint16: DType
uint32: DType
uint64: DType

@final
class Device:
    """A device: where a tensor's memory lives and its operations run.

    `Device(name)` parses a name: `"cpu"`, `"gpu"` / `"gpu:N"` (wgpu on Vulkan, Metal or DX12),
    `"cuda:N"` (where the CUDA backend is built) or `"auto"` (`"cuda:0"` when it works, else
    `"gpu:0"`, else the CPU, with one warning). A device compares equal to its name (`t.device == "cpu"`) and
    prints as it (`str(d)`). Every `device=` argument takes a `Device` or a name.

    Parameters
    ----------
    name : str
        The device's name.

    Raises
    ------
    InvalidArgumentError
        The name is not a device name.

    Examples
    --------
    >>> d = crt.Device("cpu")
    >>> d == "cpu", d.type, d.index
    (True, 'cpu', 0)
    >>> crt.zeros(1).device == d
    True
    """
    def __new__(cls, name: str) -> Device: ...
    @property
    def type(self) -> str:
        """`"cpu"`, `"gpu"`, `"cuda"` or `"auto"`."""
    @property
    def index(self) -> int:
        """The ordinal among devices of its kind."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> builtins.bool: ...
    def __ne__(self, other: object, /) -> builtins.bool: ...

@final
class MemoryStats:
    """A snapshot of a device pool's statistics, in bytes and counts. `str()` gives a
    human-readable summary.
    """
    @property
    def active_bytes(self) -> int:
        """Bytes in blocks handed out and not yet returned."""
    @property
    def cached_bytes(self) -> int:
        """Bytes reserved from the system but idle in the pool."""
    @property
    def reserved_bytes(self) -> int:
        """Bytes reserved from the system."""
    @property
    def peak_active_bytes(self) -> int:
        """Highest `active_bytes` since start or the last `reset_peak_stats`."""
    @property
    def requested_bytes(self) -> int:
        """Bytes requested by callers (before rounding) and not yet returned."""
    @property
    def deferred_bytes(self) -> int:
        """Bytes whose free waits for device work to complete."""
    @property
    def allocation_count(self) -> int:
        """Allocations served."""
    @property
    def cache_hit_count(self) -> int:
        """Allocations served from the cache."""
    @property
    def os_reserve_count(self) -> int:
        """Segments reserved from the system."""
    @property
    def os_release_count(self) -> int:
        """Segments released to the system."""
    @property
    def oom_count(self) -> int:
        """Requests that failed with out-of-memory."""
    @property
    def largest_free_block(self) -> int:
        """Largest free block in the pool."""
    @property
    def limit_bytes(self) -> Optional[int]:
        """The memory limit, or `None`."""
    @property
    def imported_bytes(self) -> int:
        """Host memory the device uses in place (moves to a unified-memory GPU), not pool memory."""

_Index = Union[SupportsIndex, slice, None, "builtins.ellipsis", "Tensor", npt.NDArray[Any], Sequence[Any]]

@final
class ValuesIndices:
    """Values and the indices they came from along a dim (PyTorch's `torch.return_types.*`):
    `r.values`, `r.indices`, `r[0]`, `r[1]`, and `values, indices = r`.
    """
    @property
    def values(self) -> Tensor:
        """The values (a tensor), as `r[0]`."""
    @property
    def indices(self) -> Tensor:
        """Where each value came from along the dim (an int64 tensor), as `r[1]`."""
    def __len__(self) -> int: ...
    def __getitem__(self, key: int, /) -> Tensor: ...
    def __iter__(self) -> Iterator[Tensor]: ...

@final
class Generator:
    """A seedable random generator (Philox4x32-10, counter-based).

    The values of a call depend only on the seed, the number of calls since seeding and each
    element's index, never on the thread count. `crt.manual_seed(s)` seeds the default one;
    pass your own as `generator=` to the random functions. `Generator(device=None)` starts
    from PyTorch's default seed (`device` is accepted for PyTorch's signature: values are
    generated on the host and moved).

    Parameters
    ----------
    device : Device or str, optional
        Accepted and checked, as in PyTorch.

    Raises
    ------
    InvalidArgumentError
        `device` is not a device name.

    Examples
    --------
    >>> g = crt.Generator().manual_seed(7)
    >>> g.initial_seed(), g.offset
    (7, 0)
    >>> _ = crt.rand(2, generator=g)
    >>> g.offset
    1
    """
    def __new__(cls, device: Optional[_DeviceLike] = None) -> Generator: ...
    def manual_seed(self, seed: int) -> Generator:
        """Reseed the generator; returns the generator itself (for chaining).

        Parameters
        ----------
        seed : int
            The seed, from 0 to `2**64 - 1`.

        Returns
        -------
        Generator
            `self`, with its offset back at 0.

        Raises
        ------
        OverflowError
            `seed` is negative or does not fit 64 bits.

        Examples
        --------
        >>> g = crt.Generator()
        >>> g.manual_seed(3) is g
        True
        """
    def initial_seed(self) -> int:
        """The seed last set (PyTorch's default seed for a new generator).

        Returns
        -------
        int
            The seed.

        Examples
        --------
        >>> crt.Generator().manual_seed(42).initial_seed()
        42
        """
    @property
    def offset(self) -> int:
        """Calls made since seeding (each random call advances it by one)."""

@final
class Tensor:
    """An n-dimensional strided view of typed memory, on the CPU or a GPU.

    A tensor is a shape, strides (in elements), a dtype and a device over a storage: memory
    the runtime owns (from `crt.zeros`, `crt.tensor`, operations) or memory it borrows
    without a copy (`crt.from_numpy`, `crt.from_dlpack`, `crt.from_buffer`, `crt.from_file`),
    kept alive for as long as any tensor over it lives. Views (indexing, `reshape` when
    possible, `permute`, `transpose`, `T`) share memory; `numpy()` and `np.asarray(t)` do too.

    Tensors are made by the module's functions, not by calling `Tensor` directly. They support
    Python's operators (`+ - * / // % ** @`, comparisons, `& | ^ ~ << >>`, in-place forms),
    indexing (`t[0, 1:3]`, boolean and integer-tensor masks), `len()`, iteration, `float()`,
    `int()`, `bool()` of one element, pickling, DLPack (`__dlpack__`), numpy's
    `__array__` / `__array_interface__`, and the buffer protocol (`memoryview(t)`, `bytes(t)`:
    host tensors are exported in place with their strides, read-only where the tensor is).

    Examples
    --------
    >>> t = crt.arange(6).reshape(2, 3)
    >>> t.shape, t.dtype, str(t.device)
    ((2, 3), clika_runtime.int64, 'cpu')
    >>> (t * 2 + 1)[1].tolist()
    [7, 9, 11]
    >>> t.T.shape
    (3, 2)
    """
    @property
    def shape(self) -> Tuple[int, ...]:
        """Sizes of each dimension."""
    @property
    def strides(self) -> Tuple[int, ...]:
        """Strides of each dimension, in elements (numpy's `strides` are in bytes)."""
    @property
    def dtype(self) -> DType:
        """Element type."""
    @property
    def device(self) -> Device:
        """Where the memory lives."""
    @property
    def ndim(self) -> int:
        """Number of dimensions."""
    @property
    def T(self) -> Tensor:
        """All dimensions reversed (a view)."""
    @property
    def nbytes(self) -> int:
        """Bytes the elements take: numel() times the element size (numpy's and PyTorch's nbytes)."""
    @property
    def itemsize(self) -> int:
        """Bytes of one element (numpy's and PyTorch's itemsize)."""
    def element_size(self) -> int:
        """Bytes of one element: the dtype's size (PyTorch's `element_size()`; the same as the
        `itemsize` property, numpy's name). `nbytes` is `numel() * element_size()`.

        Returns
        -------
        int
            1 for `uint8`/`int8`/`bool`, 2 for `float16`/`bfloat16`/`int16`/`uint16`, 4 or 8 for the
            wider types.

        Examples
        --------
        >>> crt.zeros(2, 3, dtype=crt.float64).element_size()
        8
        >>> crt.zeros(2, 3, dtype=crt.float64).nbytes
        48
        """
    def numel(self) -> int:
        """The number of elements (the product of the shape; 1 for a 0-d tensor).

        Returns
        -------
        int
            The element count.

        Examples
        --------
        >>> crt.zeros(2, 3).numel()
        6
        >>> crt.tensor(1.0).numel()
        1
        """
    def item(self) -> Union[float, int, builtins.bool]:
        """The single element as a Python number.

        Returns
        -------
        float, int or bool
            `float` for floating dtypes, `bool` for bool, `int` otherwise.

        Raises
        ------
        InvalidArgumentError
            The tensor does not have exactly one element.

        Examples
        --------
        >>> crt.tensor([[2.5]]).item()
        2.5
        >>> crt.arange(5).sum().item()
        10
        """
    def tolist(self) -> Any:
        """The elements as nested Python lists (a copy).

        Returns
        -------
        list or number
            Lists nested as the shape, of `float`, `int` or `bool`; a 0-d tensor gives a number.

        Raises
        ------
        DeviceError
            The tensor's device fails to copy its memory back.

        Examples
        --------
        >>> crt.eye(2).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
        >>> crt.tensor(3).tolist()
        3
        """
    def sum(
        self,
        dim: _Dims = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        dtype: Optional[_DTypeLike] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor:
        """Sum of the elements, over all of them or over `dim`.

        PyTorch's keywords (`dim`, `keepdim`) and numpy's (`axis`, `keepdims`, `dtype`, `out`)
        both work, so `np.sum(t)` calls this method.

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce (negative values count from the end); all by default.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        dtype : DType, numpy dtype, str or Python type, optional
            The dtype to compute and return in.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor
            The reduction (`out` itself when given; a 0-d tensor when every dimension is reduced
            without `keepdim`).

        Raises
        ------
        InvalidArgumentError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`).
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.
        DTypeError
            `dtype` is not a supported dtype.

        Examples
        --------
        >>> t = crt.tensor([[1, 2], [3, 4]])
        >>> t.sum().item(), t.sum(dim=0).tolist(), t.sum(1, keepdim=True).tolist()
        (10, [4, 6], [[3], [7]])
        >>> np.sum(t, axis=1).tolist()
        [3, 7]
        """
    def mean(
        self,
        dim: _Dims = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        dtype: Optional[_DTypeLike] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor:
        """Mean of the elements, over all of them or over `dim`.

        PyTorch's keywords (`dim`, `keepdim`) and numpy's (`axis`, `keepdims`, `dtype`, `out`)
        both work, so `np.mean(t)` calls this method.

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce (negative values count from the end); all by default.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        dtype : DType, numpy dtype, str or Python type, optional
            The dtype to compute and return in.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor
            The reduction (`out` itself when given; a 0-d tensor when every dimension is reduced
            without `keepdim`).

        Raises
        ------
        InvalidArgumentError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`).
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.
        DTypeError
            `dtype` is not a supported dtype.

        Examples
        --------
        >>> t = crt.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> t.mean().item(), t.mean(dim=1).tolist()
        (2.5, [1.5, 3.5])
        >>> np.mean(t, axis=0).tolist()
        [2.0, 3.0]
        """
    def prod(
        self,
        dim: _Dims = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        dtype: Optional[_DTypeLike] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor:
        """Product of the elements, over all of them or over `dim`.

        PyTorch's keywords (`dim`, `keepdim`) and numpy's (`axis`, `keepdims`, `dtype`, `out`)
        both work, so `np.prod(t)` calls this method.

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce (negative values count from the end); all by default.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        dtype : DType, numpy dtype, str or Python type, optional
            The dtype to compute and return in.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor
            The reduction (`out` itself when given; a 0-d tensor when every dimension is reduced
            without `keepdim`).

        Raises
        ------
        InvalidArgumentError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`).
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.
        DTypeError
            `dtype` is not a supported dtype.

        Examples
        --------
        >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
        >>> t.prod().item(), t.prod(dim=1).tolist()
        (24.0, [3.0, 8.0])
        >>> np.prod(t, axis=0).tolist()
        [2.0, 12.0]
        """
    @overload
    def max(self, dim: int, keepdim: Optional[builtins.bool] = None) -> ValuesIndices:
        """The largest element, over all elements, over several dimensions, or along one `dim`.

        PyTorch's keywords (`dim`, `keepdim`) and numpy's (`axis`, `keepdims`, `dtype`, `out`)
        both work, so `np.max(t)` calls this method.

        With one int `dim` (PyTorch's form), the result is the pair `(values, indices)` (a
        `ValuesIndices`); otherwise the reduced values only..

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce (negative values count from the end); all by default.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        dtype : DType, numpy dtype, str or Python type, optional
            The dtype to compute and return in.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor or ValuesIndices
            The reduced values (`out` itself when given), or with one int `dim` the pair
            `(values, indices)`.

        Raises
        ------
        InvalidArgumentError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`), or the
            tensor (or a reduced dimension) is empty.
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.
        DTypeError
            `dtype` is not a supported dtype.

        Examples
        --------
        >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
        >>> t.max().item()
        4.0
        >>> values, indices = t.max(dim=0)
        >>> values.tolist(), indices.tolist()
        ([2.0, 4.0], [1, 1])
        >>> np.max(t, axis=0).tolist()
        [2.0, 4.0]
        """
    @overload
    def max(
        self,
        dim: Union[None, Sequence[int]] = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        dtype: Optional[_DTypeLike] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor: ...
    @overload
    def min(self, dim: int, keepdim: Optional[builtins.bool] = None) -> ValuesIndices:
        """The smallest element, over all elements, over several dimensions, or along one `dim`.

        PyTorch's keywords (`dim`, `keepdim`) and numpy's (`axis`, `keepdims`, `dtype`, `out`)
        both work, so `np.min(t)` calls this method.

        With one int `dim` (PyTorch's form), the result is the pair `(values, indices)` (a
        `ValuesIndices`); otherwise the reduced values only..

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce (negative values count from the end); all by default.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        dtype : DType, numpy dtype, str or Python type, optional
            The dtype to compute and return in.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor or ValuesIndices
            The reduced values (`out` itself when given), or with one int `dim` the pair
            `(values, indices)`.

        Raises
        ------
        InvalidArgumentError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`), or the
            tensor (or a reduced dimension) is empty.
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.
        DTypeError
            `dtype` is not a supported dtype.

        Examples
        --------
        >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
        >>> t.min().item()
        1.0
        >>> values, indices = t.min(dim=0)
        >>> values.tolist(), indices.tolist()
        ([1.0, 3.0], [0, 0])
        >>> np.min(t, axis=0).tolist()
        [1.0, 3.0]
        """
    @overload
    def min(
        self,
        dim: Union[None, Sequence[int]] = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        dtype: Optional[_DTypeLike] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor: ...
    def sort(self, dim: int = -1, descending: builtins.bool = False, stable: builtins.bool = False) -> ValuesIndices:
        """Sorts the elements along a dimension: the sorted values and where they came from.

        Every sort is stable (equal elements keep their order); ascending order puts NaN last.
        The same as `crt.sort(self, ...)`.

        Parameters
        ----------
        dim : int, optional
            The dimension to sort along (the last by default).
        descending : bool, optional
            Largest first (False by default).
        stable : bool, optional
            Accepted for PyTorch's signature; the sort is always stable.

        Returns
        -------
        ValuesIndices
            `(values, indices)`: the sorted tensor and the int64 positions along `dim` its
            elements came from.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> values, indices = crt.tensor([3.0, 1.0, 2.0]).sort()
        >>> values.tolist(), indices.tolist()
        ([1.0, 2.0, 3.0], [1, 2, 0])
        >>> crt.tensor([3.0, 1.0, 2.0]).sort(descending=True).values.tolist()
        [3.0, 2.0, 1.0]
        """
    def argsort(self, dim: int = -1, descending: builtins.bool = False, stable: builtins.bool = False) -> Tensor:
        """The indices that sort the elements along a dimension (the `indices` of `sort`).

        The same as `crt.argsort(self, ...)`.

        Parameters
        ----------
        dim : int, optional
            The dimension to sort along (the last by default).
        descending : bool, optional
            Largest first (False by default).
        stable : bool, optional
            Accepted for PyTorch's signature; the sort is always stable.

        Returns
        -------
        Tensor
            int64 positions along `dim`, of the tensor's shape.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> crt.tensor([3.0, 1.0, 2.0]).argsort().tolist()
        [1, 2, 0]
        """
    def topk(self, k: int, dim: int = -1, largest: builtins.bool = True, sorted: builtins.bool = True) -> ValuesIndices:
        """The `k` largest (or smallest) elements along a dimension, and where they came from.

        The same as `crt.topk(self, ...)`.

        Parameters
        ----------
        k : int
            How many elements to keep.
        dim : int, optional
            The dimension to search along (the last by default).
        largest : bool, optional
            The largest elements (True, the default) or the smallest.
        sorted : bool, optional
            Return them in order, largest (smallest) first (True by default).

        Returns
        -------
        ValuesIndices
            `(values, indices)`: `dim` has size `k`; the indices are int64 positions along `dim`.

        Raises
        ------
        InvalidArgumentError
            `k` is larger than the size of `dim`.
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> values, indices = crt.tensor([3.0, 1.0, 5.0, 2.0]).topk(2)
        >>> values.tolist(), indices.tolist()
        ([5.0, 3.0], [2, 0])
        """
    def kthvalue(self, k: int, dim: int = -1, keepdim: builtins.bool = False) -> ValuesIndices:
        """The `k`-th smallest element along a dimension (1-based), and where it came from.

        The same as `crt.kthvalue(self, ...)`.

        Parameters
        ----------
        k : int
            Which element: 1 is the smallest.
        dim : int, optional
            The dimension to search along (the last by default).
        keepdim : bool, optional
            Keep `dim` with size 1 (False by default).

        Returns
        -------
        ValuesIndices
            `(values, indices)`, `dim` removed (or of size 1); int64 indices.

        Raises
        ------
        InvalidArgumentError
            `k` is outside `1..=size` of `dim`.
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> values, indices = crt.tensor([3.0, 1.0, 2.0]).kthvalue(2)
        >>> values.item(), indices.item()
        (2.0, 2)
        """
    @overload
    def median(self, dim: None = None, keepdim: builtins.bool = False) -> Tensor:
        """The median: of all elements, or along a dimension with where it came from.

        For an even count this is the lower of the two middle values (PyTorch's rule). The same
        as `crt.median(self, ...)`.

        Parameters
        ----------
        dim : int, optional
            The dimension to reduce; by default all elements.
        keepdim : bool, optional
            Keep `dim` with size 1 (False by default; only with `dim`).

        Returns
        -------
        Tensor or ValuesIndices
            Without `dim`, a 0-d tensor; with `dim`, `(values, indices)` (int64 indices).

        Raises
        ------
        InvalidArgumentError
            The tensor (or the reduced dimension) is empty.
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> t = crt.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
        >>> t.median().item()
        2.0
        >>> t.median(1).values.tolist()
        [2.0, 4.0]
        """
    @overload
    def median(self, dim: int, keepdim: builtins.bool = False) -> ValuesIndices: ...
    def any(
        self,
        dim: _Dims = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor:
        """Whether any element is non-zero (true): over all elements or over `dim`.

        PyTorch's keywords (`dim`, `keepdim`) and numpy's (`axis`, `keepdims`, `out`) both
        work, so `np.any(t)` calls this method.

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce; all by default.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor
            A bool tensor (0-d without `dim`; `out` itself when given).

        Raises
        ------
        ValueError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`).
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.

        Examples
        --------
        >>> t = crt.tensor([[0, 1], [0, 0]])
        >>> t.any().item(), t.any(dim=1).tolist()
        (True, [True, False])
        >>> np.any(t, axis=0).tolist()
        [False, True]
        """
    def all(
        self,
        dim: _Dims = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor:
        """Whether every element is non-zero (true): over all elements or over `dim`.

        PyTorch's keywords (`dim`, `keepdim`) and numpy's (`axis`, `keepdims`, `out`) both
        work, so `np.all(t)` calls this method.

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce; all by default.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor
            A bool tensor (0-d without `dim`; `out` itself when given).

        Raises
        ------
        ValueError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`).
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.

        Examples
        --------
        >>> t = crt.tensor([[1, 1], [0, 1]])
        >>> t.all().item(), t.all(dim=1).tolist()
        (False, [True, False])
        >>> np.all(t, axis=0).tolist()
        [False, True]
        """
    def cumsum(self, dim: int, *, dtype: Optional[_DTypeLike] = None) -> Tensor:
        """The running sum along a dimension (the same as `crt.cumsum(self, ...)`).

        Parameters
        ----------
        dim : int
            The dimension to run along.
        dtype : DType or str, optional
            Keyword only. The dtype to compute in and return; by default the tensor's, except
            that integers and bools give int64 (as PyTorch).

        Returns
        -------
        Tensor
            The tensor's shape; element `i` along `dim` is the sum of elements `0..=i`.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.
        DTypeError
            `dtype` names no dtype.

        Examples
        --------
        >>> crt.tensor([1, 2, 3]).cumsum(0).tolist()
        [1, 3, 6]
        """
    def cumprod(self, dim: int, *, dtype: Optional[_DTypeLike] = None) -> Tensor:
        """The running product along a dimension (the same as `crt.cumprod(self, ...)`).

        Parameters
        ----------
        dim : int
            The dimension to run along.
        dtype : DType or str, optional
            Keyword only. The dtype to compute in and return; by default the tensor's, except
            that integers and bools give int64 (as PyTorch).

        Returns
        -------
        Tensor
            The tensor's shape; element `i` along `dim` is the product of elements `0..=i`.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.
        DTypeError
            `dtype` names no dtype.

        Examples
        --------
        >>> crt.tensor([1, 2, 3]).cumprod(0).tolist()
        [1, 2, 6]
        """
    def logsumexp(self, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
        """`log(sum(exp(self)))` over `dim`, computed stably (the same as `crt.logsumexp(self, ...)`).

        Parameters
        ----------
        dim : int or tuple of int, optional
            The dimensions to reduce; by default all.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).

        Returns
        -------
        Tensor
            The reduced tensor (0-d without `dim`), in a float dtype.

        Raises
        ------
        IndexOutOfRangeError
            A dimension is out of range.

        Examples
        --------
        >>> crt.tensor([0.0, 0.0]).logsumexp().item()
        0.6931471805599453
        """
    def norm(self, p: Union[float, str, None] = None, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
        """The vector `p`-norm: of all elements, or over `dim` (the same as `crt.norm(self, ...)`).

        Parameters
        ----------
        p : float or str, optional
            The order: a number, `float('inf')`, `float('-inf')` or `'fro'`; None (the default)
            and `'fro'` mean 2.
        dim : int or tuple of int, optional
            The dimensions to reduce; by default all.
        keepdim : bool, optional
            Keep the reduced dimensions with size 1 (False by default).

        Returns
        -------
        Tensor
            The norm (0-d without `dim`), in a float dtype.

        Raises
        ------
        ValueError
            `p` is a string other than `'fro'`, `'inf'` or `'-inf'`.
        IndexOutOfRangeError
            A dimension is out of range.

        Examples
        --------
        >>> crt.tensor([3.0, 4.0]).norm().item()
        5.0
        >>> crt.tensor([[3.0, -4.0], [1.0, 1.0]]).norm(p=1, dim=1).tolist()
        [7.0, 2.0]
        """
    def unique(
        self,
        sorted: builtins.bool = True,
        return_inverse: builtins.bool = False,
        return_counts: builtins.bool = False,
        dim: Optional[int] = None,
    ) -> Any:
        """The sorted distinct elements, or with `dim` the distinct slices along `dim`.

        The same as `crt.unique(self, ...)`: with `dim`, whole slices are compared and kept in
        lexicographic order.

        Parameters
        ----------
        sorted : bool, optional
            Accepted for PyTorch's signature; the result is always sorted.
        return_inverse : bool, optional
            Also return, for each element (slice), the index of its value in the result.
        return_counts : bool, optional
            Also return how often each value (slice) occurs.
        dim : int, optional
            Find distinct slices along this dimension; by default distinct elements.

        Returns
        -------
        Tensor or tuple of Tensor
            The distinct values; with `return_inverse` or `return_counts` a tuple
            `(values, inverse, counts)` of those asked for (int64; `inverse` has the tensor's
            shape without `dim`, `[self.shape[dim]]` with it).

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> crt.tensor([3, 1, 3, 2]).unique().tolist()
        [1, 2, 3]
        >>> values, counts = crt.tensor([3, 1, 3]).unique(return_counts=True)
        >>> values.tolist(), counts.tolist()
        ([1, 3], [1, 2])
        >>> crt.tensor([[1, 2], [1, 2], [0, 3]]).unique(dim=0).tolist()
        [[0, 3], [1, 2]]
        """
    def roll(self, shifts: Union[int, Sequence[int]], dims: _Dims = None) -> Tensor:
        """Shifts the elements along dimensions, wrapping around (the same as `crt.roll(self, ...)`).

        Parameters
        ----------
        shifts : int or sequence of int
            How far to shift, one per dimension of `dims` (negative: towards the start).
        dims : int or sequence of int, optional
            The dimensions to shift; None (the default) shifts the flattened tensor.

        Returns
        -------
        Tensor
            A new tensor of the same shape.

        Raises
        ------
        InvalidArgumentError
            `shifts` and `dims` differ in length.
        IndexOutOfRangeError
            A dimension is out of range.

        Examples
        --------
        >>> crt.tensor([1, 2, 3, 4]).roll(1).tolist()
        [4, 1, 2, 3]
        >>> crt.tensor([[1, 2], [3, 4]]).roll(-1, dims=1).tolist()
        [[2, 1], [4, 3]]
        """
    def argmax(
        self,
        dim: Optional[int] = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: Optional[int] = None,
        keepdims: Optional[builtins.bool] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor:
        """The index of the largest element: in the flattened tensor, or along `dim`.

        Ties give the first index. numpy's `axis`, `keepdims` and `out` work too, so
        `np.argmax(t)` calls this method.

        Parameters
        ----------
        dim : int, optional
            The dimension to search along; by default the flattened tensor.
        keepdim : bool, optional
            Keep the searched dimension with size 1 (False by default).
        axis : int, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        out : Tensor, optional
            An int64 tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor
            int64 indices (a 0-d tensor without `dim`; `out` itself when given).

        Raises
        ------
        InvalidArgumentError
            The tensor (or the searched dimension) is empty, or a PyTorch keyword and its numpy
            twin are both given.
        IndexOutOfRangeError
            `dim` is out of range.
        ShapeError
            `out` has another shape than the result.

        Examples
        --------
        >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
        >>> t.argmax().item()
        3
        >>> t.argmax(dim=0).tolist()
        [1, 1]
        """
    def argmin(
        self,
        dim: Optional[int] = None,
        keepdim: Optional[builtins.bool] = None,
        *,
        axis: Optional[int] = None,
        keepdims: Optional[builtins.bool] = None,
        out: Optional[Tensor] = None,
    ) -> Tensor:
        """The index of the smallest element: in the flattened tensor, or along `dim`.

        Ties give the first index. numpy's `axis`, `keepdims` and `out` work too, so
        `np.argmin(t)` calls this method.

        Parameters
        ----------
        dim : int, optional
            The dimension to search along; by default the flattened tensor.
        keepdim : bool, optional
            Keep the searched dimension with size 1 (False by default).
        axis : int, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        out : Tensor, optional
            An int64 tensor of the result's shape to write the result into.

        Returns
        -------
        Tensor
            int64 indices (a 0-d tensor without `dim`; `out` itself when given).

        Raises
        ------
        InvalidArgumentError
            The tensor (or the searched dimension) is empty, or a PyTorch keyword and its numpy
            twin are both given.
        IndexOutOfRangeError
            `dim` is out of range.
        ShapeError
            `out` has another shape than the result.

        Examples
        --------
        >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
        >>> t.argmin().item()
        0
        >>> t.argmin(dim=0).tolist()
        [0, 0]
        """
    def var(
        self,
        dim: _Dims = None,
        *,
        correction: Optional[int] = None,
        keepdim: Optional[builtins.bool] = None,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        dtype: Optional[_DTypeLike] = None,
        out: Optional[Tensor] = None,
        ddof: Optional[int] = None,
    ) -> Tensor:
        """The variance: of all elements, or over `dim`.

        `correction` is subtracted from the count in the divisor: 1 (the default, PyTorch's) is
        the unbiased estimate. numpy's keywords work too (`axis`, `keepdims`, `dtype`, `out`,
        and `ddof`, the same as `correction`), so `np.var(t)` calls this method with numpy's
        default `ddof=0`.

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce; all by default.
        correction : int, optional
            Keyword only. Subtracted from the count (1 by default).
        keepdim : bool, optional
            Keyword only. Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        dtype : DType, numpy dtype, str or Python type, optional
            The dtype to compute and return in.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.
        ddof : int, optional
            numpy's name for `correction`.

        Returns
        -------
        Tensor
            The reduction in a float dtype (`out` itself when given; 0-d without `dim`).

        Raises
        ------
        InvalidArgumentError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`).
        ValueError
            Both `correction` and `ddof` are given.
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.
        DTypeError
            `dtype` is not a supported dtype.

        Examples
        --------
        >>> t = crt.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
        >>> t.var().item(), t.var(dim=1).tolist()
        (3.5, [1.0, 7.0])
        >>> np.var(t, axis=1).tolist()
        [0.6666666666666666, 4.666666666666667]
        """
    def std(
        self,
        dim: _Dims = None,
        *,
        correction: Optional[int] = None,
        keepdim: Optional[builtins.bool] = None,
        axis: _Dims = None,
        keepdims: Optional[builtins.bool] = None,
        dtype: Optional[_DTypeLike] = None,
        out: Optional[Tensor] = None,
        ddof: Optional[int] = None,
    ) -> Tensor:
        """The standard deviation: of all elements, or over `dim`.

        `correction` is subtracted from the count in the divisor: 1 (the default, PyTorch's) is
        the unbiased estimate. numpy's keywords work too (`axis`, `keepdims`, `dtype`, `out`,
        and `ddof`, the same as `correction`), so `np.std(t)` calls this method with numpy's
        default `ddof=0`.

        Parameters
        ----------
        dim : int or tuple of ints, optional
            The dimensions to reduce; all by default.
        correction : int, optional
            Keyword only. Subtracted from the count (1 by default).
        keepdim : bool, optional
            Keyword only. Keep the reduced dimensions with size 1 (False by default).
        axis : int or tuple of ints, optional
            numpy's name for `dim`.
        keepdims : bool, optional
            numpy's name for `keepdim`.
        dtype : DType, numpy dtype, str or Python type, optional
            The dtype to compute and return in.
        out : Tensor, optional
            A tensor of the result's shape to write the result into.
        ddof : int, optional
            numpy's name for `correction`.

        Returns
        -------
        Tensor
            The reduction in a float dtype (`out` itself when given; 0-d without `dim`).

        Raises
        ------
        InvalidArgumentError
            A PyTorch keyword and its numpy twin are both given (`dim` and `axis`).
        ValueError
            Both `correction` and `ddof` are given.
        IndexOutOfRangeError
            A dimension is out of range.
        ShapeError
            `out` has another shape than the result.
        DTypeError
            `dtype` is not a supported dtype.

        Examples
        --------
        >>> t = crt.tensor([[1.0, 3.0], [2.0, 2.0]])
        >>> t.std(dim=1).tolist()
        [1.4142135623730951, 0.0]
        >>> np.std(t, axis=1).tolist()
        [1.0, 0.0]
        """
    def softmax(self, dim: int) -> Tensor:
        """`t.softmax(dim)`: softmax along `dim` (see `crt.softmax`).

        Parameters
        ----------
        dim : int
            The dimension to normalise; negative values count from the end.

        Returns
        -------
        Tensor
            A tensor of `t`'s shape; float32 for an integer or bool input, else `t`'s
            dtype.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> crt.tensor([1.0, 1.0]).softmax(0).tolist()
        [0.5, 0.5]
        """
    def log_softmax(self, dim: int) -> Tensor:
        """`t.log_softmax(dim)`: log-softmax along `dim` (see `crt.log_softmax`).

        Parameters
        ----------
        dim : int
            The dimension to normalise; negative values count from the end.

        Returns
        -------
        Tensor
            A tensor of `t`'s shape; float32 for an integer or bool input, else `t`'s
            dtype.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> crt.tensor([0.0, 0.0]).log_softmax(0).exp().tolist()
        [0.5, 0.5]
        """
    def add(self, other: _Operand) -> Tensor:
        """`t.add(other)`: the method form of `crt.add(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).add(4.0).tolist()
        [5.0, 8.0]
        """
    def sub(self, other: _Operand) -> Tensor:
        """`t.sub(other)`: the method form of `crt.sub(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).sub(4.0).tolist()
        [-3.0, 0.0]
        """
    def mul(self, other: _Operand) -> Tensor:
        """`t.mul(other)`: the method form of `crt.mul(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).mul(4.0).tolist()
        [4.0, 16.0]
        """
    def div(self, other: _Operand) -> Tensor:
        """`t.div(other)`: the method form of `crt.div(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).div(4.0).tolist()
        [0.25, 1.0]
        """
    def pow(self, other: _Operand) -> Tensor:
        """`t.pow(other)`: the method form of `crt.pow(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).pow(4.0).tolist()
        [1.0, 256.0]
        """
    def maximum(self, other: _Operand) -> Tensor:
        """`t.maximum(other)`: the method form of `crt.maximum(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).maximum(4.0).tolist()
        [4.0, 4.0]
        """
    def minimum(self, other: _Operand) -> Tensor:
        """`t.minimum(other)`: the method form of `crt.minimum(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).minimum(4.0).tolist()
        [1.0, 4.0]
        """
    def eq(self, other: _Operand) -> Tensor:
        """`t.eq(other)`: the method form of `crt.eq(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).eq(4.0).tolist()
        [False, True]
        """
    def ne(self, other: _Operand) -> Tensor:
        """`t.ne(other)`: the method form of `crt.ne(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).ne(4.0).tolist()
        [True, False]
        """
    def lt(self, other: _Operand) -> Tensor:
        """`t.lt(other)`: the method form of `crt.lt(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).lt(4.0).tolist()
        [True, False]
        """
    def le(self, other: _Operand) -> Tensor:
        """`t.le(other)`: the method form of `crt.le(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).le(4.0).tolist()
        [True, True]
        """
    def gt(self, other: _Operand) -> Tensor:
        """`t.gt(other)`: the method form of `crt.gt(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).gt(4.0).tolist()
        [False, False]
        """
    def ge(self, other: _Operand) -> Tensor:
        """`t.ge(other)`: the method form of `crt.ge(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0, 4.0]).ge(4.0).tolist()
        [False, True]
        """
    def neg(self) -> Tensor:
        """`t.neg()`: the method form of `crt.neg(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([1.0, -2.0]).neg().tolist()
        [-1.0, 2.0]
        """
    def abs(self) -> Tensor:
        """`t.abs()`: the method form of `crt.abs(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([-1.5, 2.0]).abs().tolist()
        [1.5, 2.0]
        """
    def exp(self) -> Tensor:
        """`t.exp()`: the method form of `crt.exp(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).exp().tolist()
        [1.0]
        """
    def log(self) -> Tensor:
        """`t.log()`: the method form of `crt.log(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([1.0]).log().tolist()
        [0.0]
        """
    def sqrt(self) -> Tensor:
        """`t.sqrt()`: the method form of `crt.sqrt(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([4.0, 9.0]).sqrt().tolist()
        [2.0, 3.0]
        """
    def rsqrt(self) -> Tensor:
        """`t.rsqrt()`: the method form of `crt.rsqrt(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([4.0]).rsqrt().tolist()
        [0.5]
        """
    def sin(self) -> Tensor:
        """`t.sin()`: the method form of `crt.sin(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).sin().tolist()
        [0.0]
        """
    def cos(self) -> Tensor:
        """`t.cos()`: the method form of `crt.cos(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).cos().tolist()
        [1.0]
        """
    def tanh(self) -> Tensor:
        """`t.tanh()`: the method form of `crt.tanh(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).tanh().tolist()
        [0.0]
        """
    def sigmoid(self) -> Tensor:
        """`t.sigmoid()`: the method form of `crt.sigmoid(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).sigmoid().tolist()
        [0.5]
        """
    def relu(self) -> Tensor:
        """`t.relu()`: the method form of `crt.relu(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([-1.0, 2.0]).relu().tolist()
        [0.0, 2.0]
        """
    def gelu(self) -> Tensor:
        """`t.gelu()`: the method form of `crt.gelu(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).gelu().tolist()
        [0.0]
        """
    def silu(self) -> Tensor:
        """`t.silu()`: the method form of `crt.silu(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).silu().tolist()
        [0.0]
        """
    def erf(self) -> Tensor:
        """`t.erf()`: the method form of `crt.erf(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).erf().tolist()
        [0.0]
        """
    def round(self, decimals: int = 0) -> Tensor:
        """Rounds to `decimals` decimal places, halves to even (as numpy and PyTorch).

        Parameters
        ----------
        decimals : int, optional
            The decimal places to keep (0 by default; negative rounds to tens, hundreds...).

        Returns
        -------
        Tensor
            A new tensor of the same dtype (integers come back unchanged).

        Examples
        --------
        >>> crt.tensor([0.5, 1.5, 2.5, -0.7]).round().tolist()
        [0.0, 2.0, 2.0, -1.0]
        >>> crt.tensor([1.25, 2.75]).round(1).tolist()
        [1.2, 2.8]
        """
    def __round__(self, ndigits: Optional[int] = None) -> Tensor: ...
    def floor(self) -> Tensor:
        """`t.floor()`: the method form of `crt.floor(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([-1.5, 1.5]).floor().tolist()
        [-2.0, 1.0]
        """
    def ceil(self) -> Tensor:
        """`t.ceil()`: the method form of `crt.ceil(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([-1.5, 1.5]).ceil().tolist()
        [-1.0, 2.0]
        """
    def trunc(self) -> Tensor:
        """`t.trunc()`: the method form of `crt.trunc(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([-1.5, 1.5]).trunc().tolist()
        [-1.0, 1.0]
        """
    def sign(self) -> Tensor:
        """`t.sign()`: the method form of `crt.sign(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([-3.0, 0.0, 2.0]).sign().tolist()
        [-1.0, 0.0, 1.0]
        """
    def isnan(self) -> Tensor:
        """`t.isnan()`: the method form of `crt.isnan(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([1.0, float('nan')]).isnan().tolist()
        [False, True]
        """
    def isinf(self) -> Tensor:
        """`t.isinf()`: the method form of `crt.isinf(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([1.0, float('inf')]).isinf().tolist()
        [False, True]
        """
    def isfinite(self) -> Tensor:
        """`t.isfinite()`: the method form of `crt.isfinite(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([1.0, float('inf')]).isfinite().tolist()
        [True, False]
        """
    def log1p(self) -> Tensor:
        """`t.log1p()`: the method form of `crt.log1p(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).log1p().tolist()
        [0.0]
        """
    def expm1(self) -> Tensor:
        """`t.expm1()`: the method form of `crt.expm1(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).expm1().tolist()
        [0.0]
        """
    def log2(self) -> Tensor:
        """`t.log2()`: the method form of `crt.log2(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([8.0]).log2().tolist()
        [3.0]
        """
    def log10(self) -> Tensor:
        """`t.log10()`: the method form of `crt.log10(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([100.0]).log10().tolist()
        [2.0]
        """
    def exp2(self) -> Tensor:
        """`t.exp2()`: the method form of `crt.exp2(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([3.0]).exp2().tolist()
        [8.0]
        """
    def tan(self) -> Tensor:
        """`t.tan()`: the method form of `crt.tan(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).tan().tolist()
        [0.0]
        """
    def atan(self) -> Tensor:
        """`t.atan()`: the method form of `crt.atan(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).atan().tolist()
        [0.0]
        """
    def asin(self) -> Tensor:
        """`t.asin()`: the method form of `crt.asin(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).asin().tolist()
        [0.0]
        """
    def acos(self) -> Tensor:
        """`t.acos()`: the method form of `crt.acos(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([1.0]).acos().tolist()
        [0.0]
        """
    def sinh(self) -> Tensor:
        """`t.sinh()`: the method form of `crt.sinh(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).sinh().tolist()
        [0.0]
        """
    def cosh(self) -> Tensor:
        """`t.cosh()`: the method form of `crt.cosh(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0.0]).cosh().tolist()
        [1.0]
        """
    def bitwise_not(self) -> Tensor:
        """`t.bitwise_not()`: the method form of `crt.bitwise_not(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0, 5]).bitwise_not().tolist()
        [-1, -6]
        """
    def logical_not(self) -> Tensor:
        """`t.logical_not()`: the method form of `crt.logical_not(t)`, elementwise.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        DTypeError
            The operation does not take the tensor's dtype (`bitwise_not` of a float).

        Examples
        --------
        >>> crt.tensor([0, 2]).logical_not().tolist()
        [True, False]
        """
    def atan2(self, other: _Operand) -> Tensor:
        """`t.atan2(other)`: the method form of `crt.atan2(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1.0]).atan2(crt.tensor([0.0])).tolist()
        [1.5707963...]
        """
    def hypot(self, other: _Operand) -> Tensor:
        """`t.hypot(other)`: the method form of `crt.hypot(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([3.0]).hypot(crt.tensor([4.0])).tolist()
        [5.0]
        """
    def fmod(self, other: _Operand) -> Tensor:
        """`t.fmod(other)`: the method form of `crt.fmod(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([-7, 7]).fmod(3).tolist()
        [-1, 1]
        """
    def remainder(self, other: _Operand) -> Tensor:
        """`t.remainder(other)`: the method form of `crt.remainder(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([-7, 7]).remainder(3).tolist()
        [2, 1]
        """
    def floor_divide(self, other: _Operand) -> Tensor:
        """`t.floor_divide(other)`: the method form of `crt.floor_divide(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([-7, 7]).floor_divide(2).tolist()
        [-4, 3]
        """
    def bitwise_and(self, other: _Operand) -> Tensor:
        """`t.bitwise_and(other)`: the method form of `crt.bitwise_and(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([12, 10]).bitwise_and(6).tolist()
        [4, 2]
        """
    def bitwise_or(self, other: _Operand) -> Tensor:
        """`t.bitwise_or(other)`: the method form of `crt.bitwise_or(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([12, 10]).bitwise_or(1).tolist()
        [13, 11]
        """
    def bitwise_xor(self, other: _Operand) -> Tensor:
        """`t.bitwise_xor(other)`: the method form of `crt.bitwise_xor(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([12, 10]).bitwise_xor(6).tolist()
        [10, 12]
        """
    def bitwise_left_shift(self, other: _Operand) -> Tensor:
        """`t.bitwise_left_shift(other)`: the method form of `crt.bitwise_left_shift(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([1, 3]).bitwise_left_shift(2).tolist()
        [4, 12]
        """
    def bitwise_right_shift(self, other: _Operand) -> Tensor:
        """`t.bitwise_right_shift(other)`: the method form of `crt.bitwise_right_shift(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([-8, 8]).bitwise_right_shift(1).tolist()
        [-4, 4]
        """
    def logical_and(self, other: _Operand) -> Tensor:
        """`t.logical_and(other)`: the method form of `crt.logical_and(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([0, 1, 2]).logical_and(crt.tensor([1, 1, 0])).tolist()
        [False, True, False]
        """
    def logical_or(self, other: _Operand) -> Tensor:
        """`t.logical_or(other)`: the method form of `crt.logical_or(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([0, 1, 2]).logical_or(crt.tensor([1, 1, 0])).tolist()
        [True, True, True]
        """
    def logical_xor(self, other: _Operand) -> Tensor:
        """`t.logical_xor(other)`: the method form of `crt.logical_xor(t, other)`.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; the shapes broadcast as in numpy, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            The shapes do not broadcast.
        DTypeError
            The operation does not take the operands' dtype (bitwise operations on floats), or
            `other` is read by numpy as a dtype the runtime does not support.
        DivisionByZeroError
            An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

        Examples
        --------
        >>> crt.tensor([0, 1, 2]).logical_xor(crt.tensor([1, 1, 0])).tolist()
        [True, False, True]
        """
    def gather(self, dim: int, index: Any) -> Tensor:
        """Picks elements along a dimension by index (PyTorch's `gather`, numpy's `take_along_axis`).

        `t.gather(dim, index)` is `crt.gather(t, dim, index)`; see `crt.gather` for the rules.

        Returns
        -------
        Tensor
            As `crt.gather`.

        Examples
        --------
        >>> crt.tensor([[1, 2], [3, 4]]).gather(1, crt.tensor([[1], [0]])).tolist()
        [[2], [3]]
        """
    def scatter(self, dim: int, index: Any, src: Optional[Any] = None, *, value: Optional[_Scalar] = None) -> Tensor:
        """A copy of `input` with `src`'s values written where `index` points along `dim`
        (PyTorch's `scatter`, numpy's `put_along_axis`).

        `t.scatter(dim, index, src)` is `crt.scatter(t, dim, index, src)`; see `crt.scatter` for the rules.

        Returns
        -------
        Tensor
            As `crt.scatter`.

        Examples
        --------
        >>> crt.zeros(3).scatter(0, crt.tensor([2]), crt.tensor([9.0])).tolist()
        [0.0, 0.0, 9.0]
        """
    def scatter_(self, dim: int, index: Any, src: Optional[Any] = None, *, value: Optional[_Scalar] = None) -> Tensor:
        """Writes `src`'s values where `index` points along `dim`, in place (PyTorch's `scatter_`).

        `t.scatter_(dim, index, src)` writes what `crt.scatter` would return into `t` itself
        (through shared memory, such as a numpy array `t` borrows); see `crt.scatter` for the rules. Memory lent read-only raises
        `ReadOnlyError` and is left as it was.

        Returns
        -------
        Tensor
            This tensor.

        Examples
        --------
        >>> t = crt.zeros(2, 2)
        >>> t.scatter_(1, crt.tensor([[1], [0]]), 5.0).tolist()
        [[0.0, 5.0], [5.0, 0.0]]
        """
    def scatter_add(self, dim: int, index: Any, src: Any) -> Tensor:
        """A copy of `input` with `src`'s values added where `index` points along `dim`
        (PyTorch's `scatter_add`, numpy's `np.add.at` along an axis).

        `t.scatter_add(dim, index, src)` is `crt.scatter_add(t, dim, index, src)`; see `crt.scatter_add` for the rules.

        Returns
        -------
        Tensor
            As `crt.scatter_add`.

        Examples
        --------
        >>> crt.zeros(3).scatter_add(0, crt.tensor([2, 2]), crt.tensor([1.0, 2.0])).tolist()
        [0.0, 0.0, 3.0]
        """
    def scatter_add_(self, dim: int, index: Any, src: Any) -> Tensor:
        """Adds `src`'s values where `index` points along `dim`, in place (PyTorch's `scatter_add_`).

        `t.scatter_add_(dim, index, src)` writes what `crt.scatter_add` would return into `t` itself
        (through shared memory, such as a numpy array `t` borrows); see `crt.scatter_add` for the rules. Memory lent read-only raises
        `ReadOnlyError` and is left as it was.

        Returns
        -------
        Tensor
            This tensor.

        Examples
        --------
        >>> t = crt.ones(3, dtype=crt.int64)
        >>> t.scatter_add_(0, crt.tensor([0, 0, 2]), crt.tensor([1, 1, 5])).tolist()
        [3, 1, 6]
        """
    def scatter_reduce(
        self, dim: int, index: Any, src: Any, reduce: str, *, include_self: builtins.bool = True
    ) -> Tensor:
        """A copy of this tensor with `src`'s values combined by `reduce` where `index` points along
        `dim` (PyTorch's `scatter_reduce`).

        `t.scatter_reduce(dim, index, src, reduce)` is `crt.scatter_reduce(t, dim, index, src,
        reduce)`; see `crt.scatter_reduce` for the rules.

        Returns
        -------
        Tensor
            As `crt.scatter_reduce`.

        Examples
        --------
        >>> crt.ones(3).scatter_reduce(0, crt.tensor([2, 2]), crt.tensor([4.0, 5.0]), "prod").tolist()
        [1.0, 1.0, 20.0]
        """
    def scatter_reduce_(
        self, dim: int, index: Any, src: Any, reduce: str, *, include_self: builtins.bool = True
    ) -> Tensor:
        """Combines `src`'s values by `reduce` where `index` points along `dim`, in place (PyTorch's
        `scatter_reduce_`).

        `t.scatter_reduce_(dim, index, src, reduce)` writes what `crt.scatter_reduce` would return
        into `t` itself (through shared memory, such as a numpy array `t` borrows); see
        `crt.scatter_reduce` for the rules. On any error, such as an index out of range, `t` is left
        as it was; memory lent read-only raises `ReadOnlyError`.

        Returns
        -------
        Tensor
            This tensor.

        Examples
        --------
        >>> t = crt.zeros(3, dtype=crt.int64)
        >>> t.scatter_reduce_(0, crt.tensor([1, 1, 2]), crt.tensor([4, 6, 3]), "amin", include_self=False).tolist()
        [0, 4, 3]
        """
    def bincount(self, weights: Any = None, minlength: int = 0) -> Tensor:
        """How often each value of this 1-D tensor of non-negative integers occurs, or the sum of its
        weights (PyTorch's `Tensor.bincount`).

        `t.bincount(weights, minlength)` is `crt.bincount(t, weights, minlength)`; see `crt.bincount` for the rules.

        Returns
        -------
        Tensor
            As `crt.bincount`.

        Examples
        --------
        >>> crt.tensor([4, 1, 4]).bincount().tolist()
        [0, 1, 0, 0, 2]
        """
    def histc(self, bins: int = 100, min: float = 0.0, max: float = 0.0) -> Tensor:
        """A histogram of this tensor's values in equal bins (PyTorch's `Tensor.histc`).

        `t.histc(bins, min, max)` is `crt.histc(t, bins, min, max)`; see `crt.histc` for the rules.

        Returns
        -------
        Tensor
            As `crt.histc`.

        Examples
        --------
        >>> crt.tensor([0.5, 0.5, 2.0]).histc(bins=2, min=0, max=2).tolist()
        [2.0, 1.0]
        """
    def index_add(
        self, dim: int, index: Any, source: Any, *, alpha: _Scalar = 1
    ) -> Tensor:
        """A copy of this tensor with `alpha * source` added along `dim` at the positions `index` lists
        (PyTorch's `index_add`).

        `t.index_add(dim, index, source, alpha=a)` is `crt.index_add(t, dim, index, source, alpha=a)`;
        see `crt.index_add` for the rules.

        Returns
        -------
        Tensor
            As `crt.index_add`.

        Examples
        --------
        >>> crt.zeros(3).index_add(0, [0, 0, 2], crt.tensor([1.0, 2.0, 5.0])).tolist()
        [3.0, 0.0, 5.0]
        """
    def index_add_(
        self, dim: int, index: Any, source: Any, *, alpha: _Scalar = 1
    ) -> Tensor:
        """Adds `alpha * source` along `dim` at the positions `index` lists, in place (PyTorch's
        `index_add_`).

        `t.index_add_(dim, index, source, alpha=a)` writes what `crt.index_add` would return into `t`
        itself (through shared memory, such as a numpy array `t` borrows); see `crt.index_add` for the
        rules. Memory lent read-only raises `ReadOnlyError`; on any error `t` is left as it was.

        Returns
        -------
        Tensor
            This tensor.

        Examples
        --------
        >>> t = crt.ones(2, 2, dtype=crt.int64)
        >>> t.index_add_(1, [1, 1], crt.tensor([[1, 2], [3, 4]]), alpha=10).tolist()
        [[1, 31], [1, 71]]
        """
    def index_select(self, dim: int, index: Any) -> Tensor:
        """The entries of `input` at `index` along `dim` (PyTorch's `index_select`, numpy's `take`
        along an axis).

        `t.index_select(dim, index)` is `crt.index_select(t, dim, index)`; see `crt.index_select` for the rules.

        Returns
        -------
        Tensor
            As `crt.index_select`.

        Examples
        --------
        >>> crt.tensor([10, 20, 30]).index_select(0, crt.tensor([2, 2])).tolist()
        [30, 30]
        """
    def masked_select(self, mask: Any) -> Tensor:
        """The elements of `input` where `mask` is true, as a 1-D tensor in row-major order
        (PyTorch's `masked_select`).

        `t.masked_select(mask)` is `crt.masked_select(t, mask)`; see `crt.masked_select` for the rules.

        Returns
        -------
        Tensor
            As `crt.masked_select`.

        Examples
        --------
        >>> t = crt.tensor([1, 2, 3])
        >>> t.masked_select(t != 2).tolist()
        [1, 3]
        """
    def masked_fill(self, mask: Any, value: Union[_Scalar, Tensor]) -> Tensor:
        """A copy of `input` with `value` where `mask` is true (PyTorch's `masked_fill`, numpy's
        `np.where(mask, value, a)` in `a`'s dtype).

        `t.masked_fill(mask, value)` is `crt.masked_fill(t, mask, value)`; see `crt.masked_fill` for the rules.

        Returns
        -------
        Tensor
            As `crt.masked_fill`.

        Examples
        --------
        >>> t = crt.tensor([1, 2, 3])
        >>> t.masked_fill(t == 2, 0).tolist()
        [1, 0, 3]
        """
    def masked_fill_(self, mask: Any, value: Union[_Scalar, Tensor]) -> Tensor:
        """Sets the elements where `mask` is true to `value`, in place (PyTorch's `masked_fill_`).

        `t.masked_fill_(mask, value)` writes what `crt.masked_fill` would return into `t` itself
        (through shared memory, such as a numpy array `t` borrows); see `crt.masked_fill` for the rules. Memory lent read-only raises
        `ReadOnlyError` and is left as it was.

        Returns
        -------
        Tensor
            This tensor.

        Examples
        --------
        >>> a = np.array([1.0, -1.0], dtype=np.float32)
        >>> t = crt.from_numpy(a)
        >>> _ = t.masked_fill_(t < 0, 0.0)
        >>> a.tolist()
        [1.0, 0.0]
        """
    @overload
    def nonzero(self, *, as_tuple: Literal[False] = False) -> Tensor:
        """The indices of the non-zero elements (PyTorch's `nonzero`; numpy's `argwhere`, or with
        `as_tuple=True` numpy's `nonzero`).

        `t.nonzero(as_tuple=False)` is `crt.nonzero(t, as_tuple=as_tuple)`; see `crt.nonzero` for the rules.

        Returns
        -------
        Tensor or tuple of Tensor
            As `crt.nonzero`.

        Examples
        --------
        >>> crt.tensor([0, 3, 0, 4]).nonzero().tolist()
        [[1], [3]]
        """
    @overload
    def nonzero(self, *, as_tuple: Literal[True]) -> Tuple[Tensor, ...]: ...
    def amax(self, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
        """The largest values over the given dims (PyTorch's `amax`, numpy's `max`): values only, no
        indices. NaN propagates.

        `t.amax(dim=None, keepdim=False)` is `crt.amax(t, dim, keepdim)`; see `crt.amax` for the rules.

        Returns
        -------
        Tensor
            As `crt.amax`.

        Examples
        --------
        >>> crt.tensor([[1, 5], [7, 2]]).amax(0).tolist()
        [7, 5]
        """
    def amin(self, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
        """The smallest values over the given dims (PyTorch's `amin`, numpy's `min`): values only, no
        indices. NaN propagates.

        `t.amin(dim=None, keepdim=False)` is `crt.amin(t, dim, keepdim)`; see `crt.amin` for the rules.

        Returns
        -------
        Tensor
            As `crt.amin`.

        Examples
        --------
        >>> crt.tensor([[1, 5], [7, 2]]).amin(0, keepdim=True).tolist()
        [[1, 2]]
        """
    def tril(self, diagonal: int = 0) -> Tensor:
        """The lower triangle of the last two dimensions, the rest zeroed (the same as
        `crt.tril(self, diagonal)`).

        Parameters
        ----------
        diagonal : int, optional
            Elements with `col - row <= diagonal` are kept: 0 (the default) the main diagonal,
            positive above it, negative below.

        Returns
        -------
        Tensor
            A new tensor of the same shape and dtype.

        Raises
        ------
        InvalidArgumentError
            The tensor has fewer than 2 dimensions.

        Examples
        --------
        >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
        >>> t.tril().tolist()
        [[1, 0, 0], [4, 5, 0]]
        >>> t.tril(-1).tolist()
        [[0, 0, 0], [4, 0, 0]]
        """
    def triu(self, diagonal: int = 0) -> Tensor:
        """The upper triangle of the last two dimensions, the rest zeroed (the same as
        `crt.triu(self, diagonal)`).

        Parameters
        ----------
        diagonal : int, optional
            Elements with `col - row >= diagonal` are kept: 0 (the default) the main diagonal,
            positive above it, negative below.

        Returns
        -------
        Tensor
            A new tensor of the same shape and dtype.

        Raises
        ------
        InvalidArgumentError
            The tensor has fewer than 2 dimensions.

        Examples
        --------
        >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
        >>> t.triu().tolist()
        [[1, 2, 3], [0, 5, 6]]
        >>> t.triu(1).tolist()
        [[0, 2, 3], [0, 0, 6]]
        """
    def sub_(self, other: _Operand) -> Tensor:
        """Subtract `other` in place (`t -= other`), writing `t`'s own memory; returns `t`.

        A tensor that borrows memory (`from_numpy`...) writes the producer's memory.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; it broadcasts to `t`'s shape, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            `t` itself.

        Raises
        ------
        ShapeError
            `other` does not broadcast to `t`'s shape.
        ReadOnlyError
            `t`'s memory is read-only (a mapped file, a read-only producer).
        DTypeError
            The result's dtype cannot be stored in `t`'s dtype (a float result in an integer
            tensor).

        Examples
        --------
        >>> t = crt.tensor([1.0, 4.0])
        >>> t.sub_(2.0) is t
        True
        >>> t.tolist()
        [-1.0, 2.0]
        """
    def mul_(self, other: _Operand) -> Tensor:
        """Multiply by `other` in place (`t *= other`), writing `t`'s own memory; returns `t`.

        A tensor that borrows memory (`from_numpy`...) writes the producer's memory.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; it broadcasts to `t`'s shape, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            `t` itself.

        Raises
        ------
        ShapeError
            `other` does not broadcast to `t`'s shape.
        ReadOnlyError
            `t`'s memory is read-only (a mapped file, a read-only producer).
        DTypeError
            The result's dtype cannot be stored in `t`'s dtype (a float result in an integer
            tensor).

        Examples
        --------
        >>> t = crt.tensor([1.0, 4.0])
        >>> t.mul_(2.0) is t
        True
        >>> t.tolist()
        [2.0, 8.0]
        """
    def div_(self, other: _Operand) -> Tensor:
        """Divide by `other` in place (`t /= other`), writing `t`'s own memory; returns `t`.

        A tensor that borrows memory (`from_numpy`...) writes the producer's memory.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; it broadcasts to `t`'s shape, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            `t` itself.

        Raises
        ------
        ShapeError
            `other` does not broadcast to `t`'s shape.
        ReadOnlyError
            `t`'s memory is read-only (a mapped file, a read-only producer).
        DTypeError
            The result's dtype cannot be stored in `t`'s dtype (a float result in an integer
            tensor).

        Examples
        --------
        >>> t = crt.tensor([1.0, 4.0])
        >>> t.div_(2.0) is t
        True
        >>> t.tolist()
        [0.5, 2.0]
        """
    def zero_(self) -> Tensor:
        """Set every element to zero, in place; returns `t`.

        Returns
        -------
        Tensor
            `t` itself.

        Raises
        ------
        ReadOnlyError
            `t`'s memory is read-only.

        Examples
        --------
        >>> a = np.ones(3, dtype=np.float32)
        >>> _ = crt.from_numpy(a).zero_()
        >>> a.tolist()
        [0.0, 0.0, 0.0]
        """
    def clamp_(self, min: Optional[_Operand] = None, max: Optional[_Operand] = None) -> Tensor:
        """Limits every element to `[min, max]` in place; returns `self`.

        Parameters
        ----------
        min, max : number or Tensor, optional
            The bounds (tensors broadcast to the tensor's shape); either may be None (no bound).

        Returns
        -------
        Tensor
            `self`, modified.

        Raises
        ------
        DTypeError
            A bound's dtype cannot be stored in the tensor's without losing values (a float
            bound on an integer tensor), as `int_tensor += 1.5` does.

        Examples
        --------
        >>> t = crt.tensor([-2.0, 0.5, 3.0])
        >>> t.clamp_(min=0.0, max=1.0) is t
        True
        >>> t.tolist()
        [0.0, 0.5, 1.0]
        >>> crt.tensor([5, 2]).clamp_(1, 3).tolist()
        [3, 2]
        """
    def __floordiv__(self, other: _Operand, /) -> Tensor: ...
    def __rfloordiv__(self, other: _Operand, /) -> Tensor: ...
    def __ifloordiv__(self, other: _Operand, /) -> Tensor: ...
    def __mod__(self, other: _Operand, /) -> Tensor: ...
    def __rmod__(self, other: _Operand, /) -> Tensor: ...
    def __imod__(self, other: _Operand, /) -> Tensor: ...
    def __and__(self, other: _Operand, /) -> Tensor: ...
    def __rand__(self, other: _Operand, /) -> Tensor: ...
    def __iand__(self, other: _Operand, /) -> Tensor: ...
    def __or__(self, other: _Operand, /) -> Tensor: ...
    def __ror__(self, other: _Operand, /) -> Tensor: ...
    def __ior__(self, other: _Operand, /) -> Tensor: ...
    def __xor__(self, other: _Operand, /) -> Tensor: ...
    def __rxor__(self, other: _Operand, /) -> Tensor: ...
    def __ixor__(self, other: _Operand, /) -> Tensor: ...
    def __lshift__(self, other: _Operand, /) -> Tensor: ...
    def __rlshift__(self, other: _Operand, /) -> Tensor: ...
    def __ilshift__(self, other: _Operand, /) -> Tensor: ...
    def __rshift__(self, other: _Operand, /) -> Tensor: ...
    def __rrshift__(self, other: _Operand, /) -> Tensor: ...
    def __irshift__(self, other: _Operand, /) -> Tensor: ...
    def __invert__(self) -> Tensor: ...
    def clamp(self, min: Optional[_Operand] = None, max: Optional[_Operand] = None) -> Tensor:
        """Limit every element to `[min, max]` (see `crt.clamp`).

        Parameters
        ----------
        min, max : Tensor, Python number or None, optional
            The bounds; either or both may be omitted. Tensors broadcast against `t`.

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            A tensor bound does not broadcast to `t`'s shape.

        Examples
        --------
        >>> crt.tensor([-2.0, 0.5, 3.0]).clamp(0.0, 1.0).tolist()
        [0.0, 0.5, 1.0]
        >>> crt.arange(5).clamp(max=2).tolist()
        [0, 1, 2, 2, 2]
        """
    def matmul(self, other: Any) -> Tensor:
        """Matrix product `t @ other`, with numpy's `matmul` semantics (see `crt.matmul`).

        Parameters
        ----------
        other : Tensor, numpy array or list
            The right operand (anything but a tensor is copied as `crt.tensor` would).

        Returns
        -------
        Tensor
            The product.

        Raises
        ------
        ShapeError
            The inner dimensions differ, the batch dimensions do not broadcast, or an operand
            is 0-d.

        Examples
        --------
        >>> a = crt.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> a.matmul(crt.tensor([1.0, 0.0])).tolist()
        [1.0, 3.0]
        >>> (a @ a).tolist()
        [[7.0, 10.0], [15.0, 22.0]]
        """
    def add_(self, other: _Operand) -> Tensor:
        """Add `other` in place (`t += other`), writing `t`'s own memory; returns `t`.

        A tensor that borrows memory (`from_numpy`...) writes the producer's memory.

        Parameters
        ----------
        other : Tensor, numpy array, list or Python number
            The other operand; it broadcasts to `t`'s shape, and a Python number is a weak
            scalar (it takes the tensor's dtype).

        Returns
        -------
        Tensor
            `t` itself.

        Raises
        ------
        ShapeError
            `other` does not broadcast to `t`'s shape.
        ReadOnlyError
            `t`'s memory is read-only (a mapped file, a read-only producer).
        DTypeError
            The result's dtype cannot be stored in `t`'s dtype (a float result in an integer
            tensor).

        Examples
        --------
        >>> t = crt.tensor([1.0, 4.0])
        >>> t.add_(2.0) is t
        True
        >>> t.tolist()
        [3.0, 6.0]
        """
    def fill_(self, value: Union[builtins.bool, int, float]) -> Tensor:
        """Set every element to `value`, in place; returns `t`.

        Parameters
        ----------
        value : bool, int or float
            The value, converted to `t`'s dtype.

        Returns
        -------
        Tensor
            `t` itself.

        Raises
        ------
        ReadOnlyError
            `t`'s memory is read-only.
        OverflowError
            An int `value` is out of range for `t`'s integer dtype.

        Examples
        --------
        >>> t = crt.empty(3, dtype=crt.int32)
        >>> t.fill_(7).tolist()
        [7, 7, 7]
        """
    def copy_(self, src: Any) -> Tensor:
        """Copy `src` into `t`'s memory, in place (broadcast to `t`'s shape, converted to its dtype).

        Parameters
        ----------
        src : Tensor, numpy array, list or Python number
            The values (anything but a tensor is copied as `crt.tensor` would); it may overlap
            `t`'s memory.

        Returns
        -------
        Tensor
            `t` itself.

        Raises
        ------
        ShapeError
            `src` does not broadcast to `t`'s shape.
        ReadOnlyError
            `t`'s memory is read-only.

        Examples
        --------
        >>> t = crt.zeros(2, 2, dtype=crt.int64)
        >>> t.copy_([1.9, 2.1]).tolist()
        [[1, 2], [1, 2]]
        """
    __array_priority__: ClassVar[float]
    def __add__(self, other: _Operand, /) -> Tensor: ...
    def __radd__(self, other: _Operand, /) -> Tensor: ...
    def __sub__(self, other: _Operand, /) -> Tensor: ...
    def __rsub__(self, other: _Operand, /) -> Tensor: ...
    def __mul__(self, other: _Operand, /) -> Tensor: ...
    def __rmul__(self, other: _Operand, /) -> Tensor: ...
    def __truediv__(self, other: _Operand, /) -> Tensor: ...
    def __rtruediv__(self, other: _Operand, /) -> Tensor: ...
    def __pow__(self, other: _Operand, modulo: None = None, /) -> Tensor: ...
    def __rpow__(self, other: _Operand, modulo: None = None, /) -> Tensor: ...
    def __matmul__(self, other: Union[Tensor, np.ndarray[Any, Any]], /) -> Tensor: ...
    def __rmatmul__(self, other: Union[Tensor, np.ndarray[Any, Any]], /) -> Tensor: ...
    def __iadd__(self, other: _Operand, /) -> Tensor: ...
    def __isub__(self, other: _Operand, /) -> Tensor: ...
    def __imul__(self, other: _Operand, /) -> Tensor: ...
    def __itruediv__(self, other: _Operand, /) -> Tensor: ...
    def __ipow__(self, other: _Operand, /) -> Tensor: ...  # type: ignore[misc]
    def __eq__(self, other: object, /) -> Tensor: ...  # type: ignore[override]
    def __ne__(self, other: object, /) -> Tensor: ...  # type: ignore[override]
    def __lt__(self, other: _Operand, /) -> Tensor: ...
    def __le__(self, other: _Operand, /) -> Tensor: ...
    def __gt__(self, other: _Operand, /) -> Tensor: ...
    def __ge__(self, other: _Operand, /) -> Tensor: ...
    def __hash__(self) -> int: ...
    def __neg__(self) -> Tensor: ...
    def __abs__(self) -> Tensor: ...
    def __bool__(self) -> builtins.bool: ...
    def contiguous(self) -> Tensor:
        """The tensor itself when it is contiguous, else a compact row-major copy.

        Returns
        -------
        Tensor
            A contiguous tensor with the same elements.

        Raises
        ------
        OutOfMemoryError
            The copy cannot be allocated.

        Examples
        --------
        >>> t = crt.arange(6).reshape(2, 3).T
        >>> t.is_contiguous()
        False
        >>> c = t.contiguous()
        >>> c.is_contiguous(), c.tolist()
        (True, [[0, 3], [1, 4], [2, 5]])
        """
    def is_contiguous(self) -> builtins.bool:
        """Whether the elements are laid out row-major without gaps (numpy's C-contiguous rule).

        Returns
        -------
        bool
            True when the strides are those of a compact row-major tensor (sizes of 1 ignored).

        Examples
        --------
        >>> t = crt.zeros(2, 3)
        >>> t.is_contiguous(), t.T.is_contiguous()
        (True, False)
        """
    def pin_memory(self, device: Optional[_DeviceLike] = None) -> Tensor:
        """This host tensor in page-locked ("pinned") memory for a CUDA device, as PyTorch's `pin_memory()`.

        The result is the same tensor when it already is pinned for `device` and contiguous, else a
        contiguous copy from the device's pinned host pool. `.to(device)` from a pinned tensor is an
        asynchronous DMA, the fast path for uploads (about 55 GB/s against 6–10 GB/s from pageable
        memory on an H200).

        Parameters
        ----------
        device : Device or str, optional
            The CUDA device the memory is pinned for; `"cuda:0"` by default.

        Returns
        -------
        Tensor
            A host tensor whose memory is page-locked for `device`.

        Raises
        ------
        DeviceError
            `device` has no pinned pool (only CUDA devices have one) or is not available.
        InvalidArgumentError
            The tensor is not on the CPU.

        Examples
        --------
        >>> t = crt.arange(4.0)
        >>> try:
        ...     p = t.pin_memory("cuda:0")  # needs an NVIDIA driver
        ... except crt.DeviceError:
        ...     p = t  # no CUDA here: keep the pageable tensor
        >>> p.tolist()
        [0.0, 1.0, 2.0, 3.0]
        """
    def is_pinned(self) -> builtins.bool:
        """Whether this tensor's memory is page-locked for a device.

        True for tensors from `pin_memory` and for memory wrapped with `pinned_for`.

        Returns
        -------
        bool
            Whether the memory is pinned.

        Examples
        --------
        >>> crt.zeros(3).is_pinned()
        False
        """
    def to(
        self,
        target: Union[_DeviceLike, _DTypeLike, None] = None,
        *,
        dtype: Optional[_DTypeLike] = None,
        device: Optional[_DeviceLike] = None,
        copy: builtins.bool = False,
    ) -> Tensor:
        """Move the tensor to a device and/or convert it to a dtype.

        Called as `t.to("gpu:0")`, `t.to(crt.float64)` or `t.to(device=..., dtype=...)`. When
        neither changes, the result shares `t`'s memory; otherwise it is a new tensor (the move
        first, then the conversion) — except a move between the host and a unified-memory GPU that
        uses host memory in place (an integrated GPU, Mesa's lavapipe): there the moved tensor is
        over the same memory (no bytes move; `memory_stats("gpu:0").imported_bytes` counts it), and
        moving it back gives the host tensor again. `copy=True` always gives new memory. `"auto"` picks `"cuda:0"` when it works, else `"gpu:0"`, and falls
        back to the CPU with one `RuntimeWarning` per process.

        A conversion keeps the layout of a dense permuted host tensor (a transpose, a channels-last
        image), as PyTorch's `to` and numpy's `astype` do; any other tensor converts row-major.

        Parameters
        ----------
        target : Device, str or dtype, optional
            A device (`"cpu"`, `"gpu"`, `"gpu:N"`, `"cuda:N"`, `"auto"`, a `Device`) or a dtype
            (`crt.float32`, `np.float32`, `"float32"`, `float`...).
        dtype : DType, numpy dtype, str or Python type, optional
            The dtype to convert to (keyword form).
        device : Device or str, optional
            The device to move to (keyword form).
        copy : bool, default False
            Always return a new tensor in memory the runtime owns, as PyTorch's `copy=True`:
            a real transfer even where the move would alias, a clone when nothing changes.

        Returns
        -------
        Tensor
            `t` itself (sharing memory) when nothing changes, else the moved/converted copy.

        Raises
        ------
        InvalidArgumentError
            `target` is neither a device nor a dtype (the message lists both forms), or
            `device` is not a device name.
        DTypeError
            `dtype` is not a supported dtype.
        DeviceError
            The device is not available (no GPU, no driver).

        Examples
        --------
        >>> t = crt.tensor([1.7, -2.2])
        >>> t.to(crt.int32).tolist()
        [1, -2]
        >>> t.to("cpu").data_ptr() == t.data_ptr()
        True
        >>> t.to("cpu", copy=True).data_ptr() == t.data_ptr()
        False
        >>> t.to(dtype="float64", device="cpu").dtype
        clika_runtime.float64
        """
    def reshape(self, *shape: Union[int, Sequence[int]]) -> Tensor:
        """The same elements in a new shape: a view when the strides allow, else a copy.

        Parameters
        ----------
        *shape : int, or one tuple or list of ints
            The new sizes; one of them may be -1 (inferred from the others).

        Returns
        -------
        Tensor
            A tensor of `shape` with the same elements in row-major order.

        Raises
        ------
        ShapeError
            The element counts differ, more than one size is -1, or a size is negative.

        Examples
        --------
        >>> t = crt.arange(6)
        >>> t.reshape(2, 3).tolist()
        [[0, 1, 2], [3, 4, 5]]
        >>> t.reshape((3, -1)).shape
        (3, 2)
        """
    def view(self, *shape: Union[int, Sequence[int]]) -> Tensor:
        """The same memory in a new shape, never a copy (like `reshape`, but refuses to copy).

        Parameters
        ----------
        *shape : int, or one tuple or list of ints
            The new sizes; one of them may be -1.

        Returns
        -------
        Tensor
            A view sharing `t`'s memory.

        Raises
        ------
        ShapeError
            The element counts differ, or more than one size is -1.
        LayoutError
            The strides cannot express the new shape without a copy (use `reshape`, or
            `contiguous()` first).

        Examples
        --------
        >>> t = crt.zeros(2, 3)
        >>> v = t.view(6)
        >>> v.data_ptr() == t.data_ptr()
        True
        >>> t.T.view(6)
        Traceback (most recent call last):
            ...
        clika_runtime.LayoutError: ...
        """
    def permute(self, *dims: Union[int, Sequence[int]]) -> Tensor:
        """Reorder the dimensions (a view: no copy).

        Parameters
        ----------
        *dims : int, or one tuple or list of ints
            A permutation of the dimensions; negative values count from the end.

        Returns
        -------
        Tensor
            A view whose dimension `i` is `t`'s dimension `dims[i]`.

        Raises
        ------
        ShapeError
            `dims` does not name as many dimensions as the tensor has.
        IndexOutOfRangeError
            A dimension is out of range, or appears twice.

        Examples
        --------
        >>> t = crt.zeros(2, 3, 4)
        >>> t.permute(2, 0, 1).shape
        (4, 2, 3)
        """
    def transpose(self, dim0: int, dim1: int) -> Tensor:
        """Swap two dimensions (a view: no copy).

        Parameters
        ----------
        dim0, dim1 : int
            The dimensions to swap; negative values count from the end.

        Returns
        -------
        Tensor
            A view with the two dimensions' sizes and strides swapped.

        Raises
        ------
        IndexOutOfRangeError
            A dimension is out of range.

        Examples
        --------
        >>> t = crt.arange(6).reshape(2, 3)
        >>> t.transpose(0, 1).tolist()
        [[0, 3], [1, 4], [2, 5]]
        """
    def squeeze(self, dim: Optional[int] = None) -> Tensor:
        """Remove dimensions of size 1: all of them, or only `dim` (a view).

        Parameters
        ----------
        dim : int, optional
            The dimension to remove (kept as it is when its size is not 1); all size-1
            dimensions by default.

        Returns
        -------
        Tensor
            A view sharing `t`'s memory.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> t = crt.zeros(1, 3, 1)
        >>> t.squeeze().shape, t.squeeze(0).shape
        ((3,), (3, 1))
        """
    def unsqueeze(self, dim: int) -> Tensor:
        """Insert a dimension of size 1 at `dim` (a view).

        Parameters
        ----------
        dim : int
            Where the new dimension goes, from `-(ndim + 1)` to `ndim`.

        Returns
        -------
        Tensor
            A view sharing `t`'s memory, with one more dimension.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> t = crt.zeros(3)
        >>> t.unsqueeze(0).shape, t.unsqueeze(-1).shape
        ((1, 3), (3, 1))
        """
    def expand(self, *sizes: int) -> Tensor:
        """Broadcasts the tensor to `sizes` (a view: no copy; PyTorch's `expand`).

        Dimensions of size 1 are repeated with stride 0 and new leading dimensions may be added;
        every element of the view along such a dimension is the same memory, so use it for
        reading (a write through it reaches the shared elements).

        Parameters
        ----------
        *sizes : int, or one sequence of int
            The new shape; `-1` keeps that dimension's size.

        Returns
        -------
        Tensor
            A view of shape `sizes`.

        Raises
        ------
        ShapeError
            The tensor's shape does not broadcast to `sizes`.

        Examples
        --------
        >>> crt.tensor([1, 2, 3]).expand(2, 3).tolist()
        [[1, 2, 3], [1, 2, 3]]
        >>> crt.tensor([[1], [2]]).expand(-1, 3).tolist()
        [[1, 1, 1], [2, 2, 2]]
        """
    def broadcast_to(self, shape: Union[int, Sequence[int]]) -> Tensor:
        """numpy's `broadcast_to`: the tensor broadcast to `shape` (a view, as `expand`).

        Parameters
        ----------
        shape : int or sequence of int
            The new shape (every size given; no `-1`).

        Returns
        -------
        Tensor
            A view of shape `shape`, with stride 0 along the broadcast dimensions.

        Raises
        ------
        ShapeError
            The tensor's shape does not broadcast to `shape`, or a size is negative.

        Examples
        --------
        >>> crt.tensor([1, 2, 3]).broadcast_to((2, 3)).tolist()
        [[1, 2, 3], [1, 2, 3]]
        """
    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """Merge the dimensions `start_dim` to `end_dim` (both included) into one.

        A view when the strides allow, else a copy.

        Parameters
        ----------
        start_dim : int, optional
            The first dimension to merge, 0 by default.
        end_dim : int, optional
            The last dimension to merge, -1 (the last) by default.

        Returns
        -------
        Tensor
            The tensor with those dimensions merged.

        Raises
        ------
        IndexOutOfRangeError
            A dimension is out of range, or `start_dim` comes after `end_dim`.

        Examples
        --------
        >>> t = crt.zeros(2, 3, 4)
        >>> t.flatten().shape, t.flatten(1).shape, t.flatten(0, 1).shape
        ((24,), (2, 12), (6, 4))
        """
    def unflatten(self, dim: int, sizes: Sequence[int]) -> Tensor:
        """Splits dimension `dim` into `sizes` (a view; the inverse of `flatten`).

        Parameters
        ----------
        dim : int
            The dimension to split; negative values count from the end.
        sizes : sequence of int
            The new dimensions, whose product is the size of `dim`; one may be `-1` (inferred).

        Returns
        -------
        Tensor
            A view with `dim` replaced by `sizes`.

        Raises
        ------
        ShapeError
            The product of `sizes` is not the size of `dim`.
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> crt.arange(6).unflatten(0, (2, 3)).tolist()
        [[0, 1, 2], [3, 4, 5]]
        >>> crt.arange(6).unflatten(0, (-1, 2)).shape
        (3, 2)
        """
    def narrow(self, dim: int, start: int, length: int) -> Tensor:
        """`length` entries of dimension `dim` from `start` (a view: no copy).

        Parameters
        ----------
        dim : int
            The dimension to narrow; negative values count from the end.
        start : int
            The first entry kept (negative values count from the end).
        length : int
            How many entries to keep.

        Returns
        -------
        Tensor
            A view with `dim` of size `length`.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range, or `start + length` passes the end of `dim`.

        Examples
        --------
        >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
        >>> t.narrow(1, 1, 2).tolist()
        [[2, 3], [5, 6]]
        """
    def select(self, dim: int, index: int) -> Tensor:
        """The slice at `index` of dimension `dim`, that dimension removed (a view; `t[:, i]` for
        `dim=1`).

        Parameters
        ----------
        dim : int
            The dimension to index; negative values count from the end.
        index : int
            The entry to keep (negative values count from the end).

        Returns
        -------
        Tensor
            A view with one dimension fewer.

        Raises
        ------
        IndexOutOfRangeError
            `dim` or `index` is out of range.

        Examples
        --------
        >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
        >>> t.select(0, 1).tolist()
        [4, 5, 6]
        >>> t.select(1, -1).tolist()
        [3, 6]
        """
    def flip(self, *dims: int) -> Tensor:
        """Reverses the order of the entries along `dims` (a view with negative strides, as numpy's
        `flip`; no copy).

        Parameters
        ----------
        *dims : int
            The dimensions to reverse (none given: the tensor unchanged).

        Returns
        -------
        Tensor
            A view of the same shape.

        Raises
        ------
        IndexOutOfRangeError
            A dimension is out of range.

        Examples
        --------
        >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
        >>> t.flip(0).tolist()
        [[4, 5, 6], [1, 2, 3]]
        >>> t.flip(0, 1).tolist()
        [[6, 5, 4], [3, 2, 1]]
        """
    def movedim(self, source: int, destination: int) -> Tensor:
        """Moves dimension `source` to position `destination`, the others keeping their order (a
        view).

        Parameters
        ----------
        source : int
            The dimension to move; negative values count from the end.
        destination : int
            Its position in the result.

        Returns
        -------
        Tensor
            A view with the dimensions reordered.

        Raises
        ------
        IndexOutOfRangeError
            `source` or `destination` is out of range.

        Examples
        --------
        >>> crt.zeros(2, 3, 4).movedim(0, -1).shape
        (3, 4, 2)
        """
    def swapaxes(self, axis0: int, axis1: int) -> Tensor:
        """numpy's `swapaxes`: swaps two dimensions, as `transpose(axis0, axis1)` (a view).

        Parameters
        ----------
        axis0, axis1 : int
            The dimensions to swap; negative values count from the end.

        Returns
        -------
        Tensor
            A view with the two dimensions swapped.

        Raises
        ------
        IndexOutOfRangeError
            A dimension is out of range.

        Examples
        --------
        >>> crt.tensor([[1, 2, 3], [4, 5, 6]]).swapaxes(0, 1).tolist()
        [[1, 4], [2, 5], [3, 6]]
        """
    def t(self) -> Tensor:
        """PyTorch's `t()`: a 2-D tensor with its two dimensions swapped (a view); a 0-D or 1-D
        tensor as it is (a view). `.T` reverses all dimensions of a tensor of any rank, `.mT` swaps
        the last two.

        Returns
        -------
        Tensor
            A view: `transpose(0, 1)` for 2-D, the tensor itself for fewer dimensions.

        Raises
        ------
        InvalidArgumentError
            The tensor has more than 2 dimensions (use `.mT`, `.T`, `transpose` or `permute`).

        Examples
        --------
        >>> crt.tensor([[1, 2, 3], [4, 5, 6]]).t().tolist()
        [[1, 4], [2, 5], [3, 6]]
        >>> crt.tensor([1, 2, 3]).t().tolist()
        [1, 2, 3]
        """
    @property
    def mT(self) -> Tensor:
        """The last two dims swapped (a view)."""
    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """The diagonal of dimensions `dim1` and `dim2`, as the last dimension (a view).

        Parameters
        ----------
        offset : int, optional
            Which diagonal: 0 (the default) the main one, positive above it, negative below.
        dim1, dim2 : int, optional
            The two dimensions (0 and 1 by default).

        Returns
        -------
        Tensor
            A view without `dim1` and `dim2`, the diagonal's entries along a new last dimension.

        Raises
        ------
        IndexOutOfRangeError
            A dimension is out of range, or `dim1` and `dim2` are the same.

        Examples
        --------
        >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
        >>> t.diagonal().tolist()
        [1, 5]
        >>> t.diagonal(1).tolist()
        [2, 6]
        """
    def split(self, split_size_or_sections: Union[int, Sequence[int]], dim: int = 0) -> Tuple[Tensor, ...]:
        """Splits dimension `dim` into pieces (views: no copy).

        Parameters
        ----------
        split_size_or_sections : int or sequence of int
            An int: pieces of that many entries (the last may be shorter); a sequence: the
            sizes of the pieces, which must add up to the size of `dim`.
        dim : int, optional
            The dimension to split (0 by default).

        Returns
        -------
        tuple of Tensor
            The pieces, in order.

        Raises
        ------
        InvalidArgumentError
            The piece size is not positive.
        ValueError
            The sizes listed do not add up to the size of `dim`.
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
        >>> [p.tolist() for p in t.split(2, dim=1)]
        [[[1, 2], [4, 5]], [[3], [6]]]
        >>> [p.shape for p in t.split([1, 2], dim=1)]
        [(2, 1), (2, 2)]
        """
    def chunk(self, chunks: int, dim: int = 0) -> Tuple[Tensor, ...]:
        """Splits dimension `dim` into `chunks` pieces of equal size, the last possibly smaller
        (views, as PyTorch's `chunk`).

        Parameters
        ----------
        chunks : int
            How many pieces at most (each has `ceil(size / chunks)` entries, so fewer pieces
            can come back).
        dim : int, optional
            The dimension to split (0 by default).

        Returns
        -------
        tuple of Tensor
            The pieces, in order.

        Raises
        ------
        InvalidArgumentError
            `chunks` is not positive.
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> [p.tolist() for p in crt.arange(5).chunk(2)]
        [[0, 1, 2], [3, 4]]
        """
    def unbind(self, dim: int = 0) -> Tuple[Tensor, ...]:
        """Every slice along dimension `dim`, that dimension removed (views).

        Parameters
        ----------
        dim : int, optional
            The dimension to take apart (0 by default).

        Returns
        -------
        tuple of Tensor
            `self.shape[dim]` views, each with one dimension fewer.

        Raises
        ------
        IndexOutOfRangeError
            `dim` is out of range.

        Examples
        --------
        >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
        >>> [r.tolist() for r in t.unbind()]
        [[1, 2, 3], [4, 5, 6]]
        >>> [c.tolist() for c in t.unbind(1)]
        [[1, 4], [2, 5], [3, 6]]
        """
    def clone(self) -> Tensor:
        """A copy in new memory (numpy's `copy`): compact and row-major.

        Returns
        -------
        Tensor
            A contiguous copy that shares nothing with `t`.

        Raises
        ------
        OutOfMemoryError
            The copy cannot be allocated.

        Examples
        --------
        >>> t = crt.zeros(2)
        >>> c = t.clone()
        >>> c += 1
        >>> t.tolist(), c.tolist()
        ([0.0, 0.0], [1.0, 1.0])
        """
    def __copy__(self) -> Tensor: ...
    def __deepcopy__(self, memo: Any) -> Tensor: ...
    def __reduce_ex__(self, protocol: SupportsIndex) -> Tuple[Any, ...]: ...
    def share_memory_(self) -> Tensor:
        """The tensor's values in an anonymous shared-memory segment that other processes can map.

        The segment (a `memfd`) is mapped by the receiving process when the tensor is sent
        through a `multiprocessing` queue, pipe or process argument, instead of the values being
        pickled. The result is a contiguous copy, or (when already shared) a tensor of the same
        memory. Runtime tensors are immutable handles, so unlike PyTorch the storage is not
        swapped under `t`: write `t = t.share_memory_()`.

        Returns
        -------
        Tensor
            A tensor whose memory is a shared segment (`is_shared()` is True).

        Examples
        --------
        >>> t = crt.tensor([1.0, 2.0]).share_memory_()
        >>> t.is_shared(), t.tolist()
        (True, [1.0, 2.0])
        >>> t.share_memory_().data_ptr() == t.data_ptr()
        True
        """
    def is_shared(self) -> builtins.bool:
        """Whether the tensor's memory is a shared segment (from `share_memory_()` or `from_fd`).

        Returns
        -------
        bool
            True for a shared segment.

        Examples
        --------
        >>> t = crt.ones(2)
        >>> t.is_shared()
        False
        >>> t.share_memory_().is_shared()
        True
        """
    def _shared_region(self) -> Optional[Tuple[int, int, int, builtins.bool]]: ...
    def repeat(self, *reps: Union[int, Sequence[int]]) -> Tensor:
        """The tensor repeated along each dimension (PyTorch's `repeat`; a copy).

        Parameters
        ----------
        *reps : int, or one sequence of int
            How often to repeat each dimension, at least one per dimension; more add leading
            dimensions. `t.repeat(2, 3)` and `t.repeat((2, 3))` are the same.

        Returns
        -------
        Tensor
            A new tensor, each dimension `reps` times as long.

        Raises
        ------
        InvalidArgumentError
            Fewer counts than dimensions (numpy's `tile` pads them with 1s).
        ShapeError
            A count is negative.

        Examples
        --------
        >>> crt.tensor([1, 2]).repeat(2).tolist()
        [1, 2, 1, 2]
        >>> crt.tensor([1, 2]).repeat(2, 2).tolist()
        [[1, 2, 1, 2], [1, 2, 1, 2]]
        """
    def tile(self, reps: Union[int, Sequence[int]]) -> Tensor:
        """numpy's `tile`: the tensor repeated along each dimension (a copy).

        Unlike `repeat`, fewer counts than dimensions are padded with 1s in front.

        Parameters
        ----------
        reps : int or sequence of int
            How often to repeat each dimension (the last ones when shorter than the shape).

        Returns
        -------
        Tensor
            A new tensor.

        Raises
        ------
        ShapeError
            A count is negative.

        Examples
        --------
        >>> crt.tensor([1, 2]).tile(2).tolist()
        [1, 2, 1, 2]
        >>> crt.tensor([[1, 2], [3, 4]]).tile(2).tolist()
        [[1, 2, 1, 2], [3, 4, 3, 4]]
        >>> crt.tensor([1, 2]).tile((2, 1)).tolist()
        [[1, 2], [1, 2]]
        """
    def data_ptr(self) -> int:
        """The address of the tensor's first element.

        For a tensor that borrows memory (`from_numpy`, `from_dlpack`...) it is the producer's
        own pointer, which shows that no copy was made.

        Returns
        -------
        int
            The address as an integer (a device address for a GPU tensor).

        Examples
        --------
        >>> a = np.ones(4, dtype=np.float32)
        >>> crt.from_numpy(a).data_ptr() == a.ctypes.data
        True
        """
    def synchronize(self) -> None:
        """Wait until the device has finished the work queued on the tensor.

        On the CPU it returns at once (work there is already done when a call returns).

        Returns
        -------
        None

        Raises
        ------
        DeviceError
            The device reports a failure of the queued work.

        Examples
        --------
        >>> crt.ones(3).synchronize()
        """
    def numpy(self) -> npt.NDArray[Any]:
        """A numpy array over the tensor's memory, without a copy.

        The array's `base` keeps the tensor's memory alive; writes through either side are seen
        by the other. A read-only tensor gives a read-only array.

        Returns
        -------
        numpy.ndarray
            A view with the tensor's shape, dtype and strides.

        Raises
        ------
        DeviceError
            The tensor is not on the CPU (move it first: `t.to("cpu").numpy()`).
        DTypeError
            The dtype is bfloat16, which numpy lacks (convert first: `t.to(crt.float32)`).

        Examples
        --------
        >>> t = crt.zeros(3)
        >>> a = t.numpy()
        >>> a[0] = 2.0
        >>> t.tolist()
        [2.0, 0.0, 0.0]
        >>> a.dtype
        dtype('float32')
        """
    @staticmethod
    def from_file(
        path: Union[str, os.PathLike[str]],
        dtype: _DTypeLike,
        shape: Union[int, Sequence[int]],
        offset: int = 0,
        *,
        copy: builtins.bool = False,
    ) -> Tensor:
        """Map `shape` elements of `dtype`, stored row-major at byte `offset` of a raw binary file.

        The file is mapped read-only, without copying: the tensor is read-only, and pages are
        read when touched. Nobody may truncate the file while the tensor lives (touching a
        missing page would raise `SIGBUS`); `copy=True` reads the bytes into runtime memory
        instead. Also `Tensor.from_file`.

        Parameters
        ----------
        path : str or os.PathLike
            The file.
        dtype : DType, numpy dtype, str or Python type
            The element type.
        shape : int or sequence of ints
            The tensor's shape.
        offset : int, optional
            The byte offset of the first element, 0 by default.
        copy : bool, optional
            Read into memory the runtime owns instead of mapping (False by default).

        Returns
        -------
        Tensor
            A read-only tensor over the mapping (or a writable copy with `copy=True`).

        Raises
        ------
        InvalidArgumentError
            The file cannot be opened or mapped, or `offset` is not a multiple of the dtype's
            size.
        ShapeError
            The file is too short for `shape` at `offset`, or a size is negative.
        DTypeError
            `dtype` is not a supported dtype.

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "w.bin")
        >>> np.arange(6, dtype=np.float32).tofile(path)
        >>> t = crt.from_file(path, crt.float32, (2, 3))
        >>> t.tolist()
        [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
        >>> crt.from_file(path, "float32", 2, offset=16).tolist()
        [4.0, 5.0]
        """
    def __array__(self, dtype: Optional[npt.DTypeLike] = None, copy: Optional[builtins.bool] = None) -> npt.NDArray[Any]: ...
    def __dlpack__(
        self,
        *,
        stream: Optional[Any] = None,
        max_version: Optional[Tuple[int, int]] = None,
        dl_device: Optional[Tuple[int, int]] = None,
        copy: Optional[builtins.bool] = None,
    ) -> Any: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...
    def __getitem__(self, key: Union[_Index, Tuple[_Index, ...]], /) -> Tensor: ...
    def __setitem__(self, key: Union[_Index, Tuple[_Index, ...]], value: _Operand, /) -> None: ...
    def __len__(self) -> int: ...
    def __float__(self) -> float: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __format__(self, spec: str, /) -> str: ...
    def _repr_pretty_(self, p: Any, cycle: builtins.bool) -> None: ...
    def _repr_html_(self) -> str: ...
    @property
    def __array_interface__(self) -> Dict[str, Any]: ...
    @property
    def __cuda_array_interface__(self) -> Dict[str, Any]: ...
    if sys.version_info >= (3, 12):
        def __buffer__(self, flags: int, /) -> memoryview: ...

def zeros(*shape: Union[int, Sequence[int]], dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None) -> Tensor:
    """A new tensor filled with zeros.

    Parameters
    ----------
    *shape : int, or one tuple or list of ints
        The sizes of the dimensions: `zeros(2, 3)` and `zeros((2, 3))` mean the same; none for a
        0-d tensor.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `crt.float32` by default (as in PyTorch).
    device : Device or str, optional
        Where the tensor lives (`"cpu"`, `"gpu:0"`, `"auto"`...); the CPU by default.

    Returns
    -------
    Tensor
        A contiguous tensor of that shape.

    Raises
    ------
    ShapeError
        A size is negative.
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError
        `device` is not a device name.
    DeviceError
        The device is not available.
    OutOfMemoryError
        The memory pool cannot reserve the bytes (see `set_memory_limit`).

    Examples
    --------
    >>> crt.zeros(2, 3).tolist()
    [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    >>> crt.zeros((2,), dtype=crt.int32).tolist()
    [0, 0]
    """
def ones(*shape: Union[int, Sequence[int]], dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None) -> Tensor:
    """A new tensor filled with ones.

    Parameters
    ----------
    *shape : int, or one tuple or list of ints
        The sizes of the dimensions: `ones(2, 3)` and `ones((2, 3))` mean the same; none for a
        0-d tensor.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `crt.float32` by default (as in PyTorch).
    device : Device or str, optional
        Where the tensor lives (`"cpu"`, `"gpu:0"`, `"auto"`...); the CPU by default.

    Returns
    -------
    Tensor
        A contiguous tensor of that shape.

    Raises
    ------
    ShapeError
        A size is negative.
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError
        `device` is not a device name.
    DeviceError
        The device is not available.
    OutOfMemoryError
        The memory pool cannot reserve the bytes (see `set_memory_limit`).

    Examples
    --------
    >>> crt.ones(2).tolist()
    [1.0, 1.0]
    >>> crt.ones((2, 2), dtype=crt.bool).tolist()
    [[True, True], [True, True]]
    """
def empty(*shape: Union[int, Sequence[int]], dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None) -> Tensor:
    """A new tensor whose values are unspecified (the memory is not initialised).

    Parameters
    ----------
    *shape : int, or one tuple or list of ints
        The sizes of the dimensions: `empty(2, 3)` and `empty((2, 3))` mean the same; none for a
        0-d tensor.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `crt.float32` by default (as in PyTorch).
    device : Device or str, optional
        Where the tensor lives (`"cpu"`, `"gpu:0"`, `"auto"`...); the CPU by default.

    Returns
    -------
    Tensor
        A contiguous tensor of that shape.

    Raises
    ------
    ShapeError
        A size is negative.
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError
        `device` is not a device name.
    DeviceError
        The device is not available.
    OutOfMemoryError
        The memory pool cannot reserve the bytes (see `set_memory_limit`).

    Examples
    --------
    >>> t = crt.empty(2, 3)
    >>> t.shape, t.dtype
    ((2, 3), clika_runtime.float32)
    """
def full(
    shape: _Shape, fill_value: Union[SupportsFloat, builtins.bool], *, dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None
) -> Tensor:
    """A new tensor with every element equal to `fill_value`.

    Parameters
    ----------
    shape : int or sequence of ints
        The sizes of the dimensions.
    fill_value : bool, int or float
        The value. An int is stored exactly in an integer dtype (`2**64 - 1` in uint64).
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; by default bool, int64 or float32 after `fill_value`'s Python type.
    device : Device or str, optional
        Where the tensor lives; the CPU by default.

    Returns
    -------
    Tensor
        A contiguous tensor of that shape.

    Raises
    ------
    ShapeError
        A size is negative.
    OverflowError
        `fill_value` is out of range for an integer `dtype`.
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError, DeviceError
        `device` is not a device name, or not available.

    Examples
    --------
    >>> crt.full((2, 2), 7).tolist()
    [[7, 7], [7, 7]]
    >>> crt.full(3, 0.5).dtype
    clika_runtime.float32
    """
def arange(
    start: SupportsFloat,
    end: Optional[SupportsFloat] = None,
    step: Optional[SupportsFloat] = None,
    *,
    dtype: Optional[_DTypeLike] = None,
    device: Optional[_DeviceLike] = None,
) -> Tensor:
    """Evenly spaced values in the half-open interval `[start, end)`.

    `arange(end)` counts from 0; `arange(start, end, step)` as Python's `range`, floats allowed.

    Parameters
    ----------
    start : int or float
        The first value; alone, it is `end` and the values start at 0.
    end : int or float, optional
        The bound, not included.
    step : int or float, optional
        The spacing, 1 by default; may be negative.
    dtype : DType, numpy dtype, str or Python type, optional
        int64 when every argument is an int, else float32.
    device : Device or str, optional
        Where the tensor lives; the CPU by default.

    Returns
    -------
    Tensor
        A 1-d tensor.

    Raises
    ------
    InvalidArgumentError
        `step` is 0, or its sign points away from `end`; or `device` is not a device name.
    DTypeError
        `dtype` is not a supported dtype.
    DeviceError
        The device is not available.

    Examples
    --------
    >>> crt.arange(4).tolist()
    [0, 1, 2, 3]
    >>> crt.arange(1, 2, 0.25).tolist()
    [1.0, 1.25, 1.5, 1.75]
    """
def tensor(obj: Any, dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None) -> Tensor:
    """Copy data into a new tensor that the runtime owns.

    Unlike `from_numpy`, the result never shares memory with `obj`.

    Parameters
    ----------
    obj : Tensor, numpy.ndarray, list, tuple, int, float or bool
        The data: a tensor (copied as it is), or anything `numpy.asarray` reads (nested lists
        and scalars included).
    dtype : DType, numpy dtype, str or Python type, optional
        The result's dtype (`crt.float32`, `np.int64`, `"uint8"`, `float`...). By default the
        data's own dtype (numpy's inference for Python data: int64, float64 or bool).
    device : Device or str, optional
        Where the result lives (`"cpu"`, `"gpu:0"`, `"auto"`...); the CPU by default.

    Returns
    -------
    Tensor
        A contiguous copy.

    Raises
    ------
    DTypeError
        The data's dtype, or `dtype`, is not one the runtime supports.
    OverflowError
        A Python int is out of range for `dtype` (as `np.array([300], np.uint8)`).
    InvalidArgumentError
        `device` is not a device name.
    DeviceError
        The device is not available.

    Examples
    --------
    >>> t = crt.tensor([[1, 2], [3, 4]])
    >>> t.shape, t.dtype
    ((2, 2), clika_runtime.int64)
    >>> crt.tensor([1.5, 2.5], dtype=crt.float32).tolist()
    [1.5, 2.5]
    >>> crt.tensor(7).ndim
    0
    """
def from_numpy(a: npt.NDArray[Any]) -> Tensor:
    """Wrap a numpy array's own memory as a tensor, without a copy.

    The tensor and the array alias each other: a write through either is seen by the other.
    The tensor keeps the array alive, and numpy refuses to resize the array while a tensor
    borrows it, so its memory cannot move. The tensor has the array's shape and dtype and
    lives on the CPU. To copy instead, use `crt.tensor(a)`.

    Parameters
    ----------
    a : numpy.ndarray
        A C-contiguous, aligned, writable array in native byte order, of a supported dtype
        (bool, int8 to int64, uint8 to uint64, float16, float32, float64).

    Returns
    -------
    Tensor
        A tensor over `a`'s memory (`t.data_ptr() == a.ctypes.data`).

    Raises
    ------
    InvalidArgumentError
        `a` is not a `numpy.ndarray` (use `crt.tensor(obj)` to copy other objects).
    DTypeError
        The dtype is not supported, or not in native byte order (convert with `a.astype`).
    LayoutError
        The array is not C-contiguous (pass `np.ascontiguousarray(a)`, or copy with
        `crt.tensor(a)`).
    ReadOnlyError
        The array is read-only, and a tensor may write its memory (wrap it read-only with
        `crt.from_dlpack(a)`, or pass `a.copy()`).
    AlignmentError
        The array's data is not aligned for its dtype (pass `a.copy()`).

    Examples
    --------
    >>> a = np.zeros(3, dtype=np.float32)
    >>> t = crt.from_numpy(a)
    >>> a[0] = 5.0
    >>> t.tolist()
    [5.0, 0.0, 0.0]
    >>> t += 1
    >>> a.tolist()
    [6.0, 1.0, 1.0]
    >>> crt.from_numpy(np.zeros((2, 2))[:, 0])
    Traceback (most recent call last):
        ...
    clika_runtime.LayoutError: from_numpy: the array is not C-contiguous, ...
    """
def from_dlpack(obj: Any) -> Tensor:
    """Import any object that implements the DLPack protocol, sharing its memory.

    `obj.__dlpack__()` is called and the tensor views the producer's memory without a copy; the producer's deleter runs
    exactly once, when the last tensor over that memory is gone. A read-only producer (a
    read-only numpy array) gives a read-only tensor.

    CUDA memory (`kDLCUDA`: a PyTorch, CuPy or JAX array on the GPU) becomes a tensor on
    `"cuda:N"` at the same address. The runtime's stream is passed as `__dlpack__`'s `stream`,
    so the producer's pending work is ordered before the runtime's. An object with only
    `__cuda_array_interface__` (version 3, e.g. a numba device array) is imported through it,
    waiting on its `stream` the same way; the object is kept alive while the tensor uses its
    memory. The pointer is checked with the driver: host memory or another device's memory is
    refused.

    Parameters
    ----------
    obj : object
        An object with `__dlpack__` (a numpy array, a PyTorch or CuPy tensor, a
        `crt.Tensor`...) or `__cuda_array_interface__`.

    Returns
    -------
    Tensor
        A tensor over the producer's memory.

    Raises
    ------
    InvalidArgumentError
        `obj` has neither `__dlpack__` nor `__cuda_array_interface__` (use `crt.tensor(obj)`
        to copy it), or its CUDA pointer is not memory of a CUDA device.
    BufferError, TypeError
        The producer's `__dlpack__` refuses the export (its own error, passed on).
    DTypeError
        The producer's dtype has no runtime equivalent.
    DeviceError
        The memory lives on a device this build cannot reach.

    Examples
    --------
    >>> a = np.arange(4, dtype=np.int32)
    >>> t = crt.from_dlpack(a)
    >>> a[1] = 10
    >>> t.tolist()
    [0, 10, 2, 3]
    """
def memory_stats(device: Optional[_DeviceLike] = None) -> MemoryStats:
    """The memory pool's statistics for a device.

    Parameters
    ----------
    device : Device or str, optional
        The device whose pool is asked (`"cpu"`, `"gpu:0"`...); the CPU by default.

    Returns
    -------
    MemoryStats
        A snapshot: `active_bytes` (held by live tensors), `peak_active_bytes`,
        `reserved_bytes` (kept by the pool, active or idle), `limit_bytes` and the counters
        of allocations served from the pool or the system.

    Raises
    ------
    InvalidArgumentError
        `device` is not a device name.
    DeviceError
        The device is not available.

    Examples
    --------
    >>> t = crt.zeros(1024)
    >>> crt.memory_stats().active_bytes >= 4096
    True
    >>> s = crt.memory_stats("cpu")
    >>> s.reserved_bytes >= s.active_bytes
    True
    """
def pinned_memory_stats(device: Optional[_DeviceLike] = None) -> MemoryStats:
    """Statistics of a CUDA device's page-locked host pool, the memory behind `pin_memory`.

    Parameters
    ----------
    device : Device or str, optional
        The CUDA device; `"cuda:0"` by default.

    Returns
    -------
    MemoryStats
        The pinned pool's counters (`active_bytes`, `reserved_bytes`, ...).

    Raises
    ------
    DeviceError
        `device` has no pinned pool (only CUDA devices have one) or is not available.

    Examples
    --------
    >>> try:
    ...     reserved = crt.pinned_memory_stats("cuda:0").reserved_bytes
    ... except crt.DeviceError:
    ...     reserved = 0  # no CUDA here
    >>> reserved >= 0
    True
    """
def release_cached_pinned_memory(device: Optional[_DeviceLike] = None) -> int:
    """Give a CUDA device's idle page-locked host segments back to the system.

    Pinned tensors still alive keep their memory; only cached, unused segments are freed.

    Parameters
    ----------
    device : Device or str, optional
        The CUDA device; `"cuda:0"` by default.

    Returns
    -------
    int
        How many bytes were released.

    Raises
    ------
    DeviceError
        `device` has no pinned pool (only CUDA devices have one) or is not available.

    Examples
    --------
    >>> try:
    ...     released = crt.release_cached_pinned_memory("cuda:0")
    ... except crt.DeviceError:
    ...     released = 0  # no CUDA here
    >>> released >= 0
    True
    """
def release_cached_memory(device: Optional[_DeviceLike] = None) -> int:
    """Give the memory pool's idle reserve back to the system.

    Blocks held by live tensors stay; only cached, unused blocks are freed.

    Parameters
    ----------
    device : Device or str, optional
        The device whose pool is trimmed; the CPU by default.

    Returns
    -------
    int
        How many bytes were released.

    Raises
    ------
    InvalidArgumentError
        `device` is not a device name.
    DeviceError
        The device's backend fails to free its memory.

    Examples
    --------
    >>> t = crt.zeros(1 << 16); del t
    >>> released = crt.release_cached_memory()
    >>> crt.release_cached_memory()
    0
    """
def set_memory_limit(limit_bytes: Optional[int], device: Optional[_DeviceLike] = None) -> None:
    """Cap how many bytes a device's memory pool may reserve.

    A reservation that would pass the cap fails with `OutOfMemoryError`. A cap below what the
    pool already holds frees nothing: it only refuses further reservations.

    Parameters
    ----------
    limit_bytes : int or None
        The cap in bytes; `None` removes it.
    device : Device or str, optional
        The device whose pool is capped; the CPU by default.

    Returns
    -------
    None

    Raises
    ------
    InvalidArgumentError
        `device` is not a device name.
    DeviceError
        The device is not available.
    OverflowError
        `limit_bytes` is negative.

    Examples
    --------
    >>> crt.set_memory_limit(1 << 40)
    >>> crt.memory_stats().limit_bytes == 1 << 40
    True
    >>> crt.set_memory_limit(None)
    """
def reset_peak_stats(device: Optional[_DeviceLike] = None) -> None:
    """Reset a device pool's `peak_active_bytes` to its current `active_bytes`.

    Parameters
    ----------
    device : Device or str, optional
        The device whose statistics are reset; the CPU by default.

    Returns
    -------
    None

    Raises
    ------
    InvalidArgumentError
        `device` is not a device name.
    DeviceError
        The device is not available.

    Examples
    --------
    >>> crt.reset_peak_stats()
    >>> s = crt.memory_stats()
    >>> s.peak_active_bytes == s.active_bytes
    True
    """
def _dlpack_live_exports() -> int: ...
def load_safetensors(path: Union[str, os.PathLike[str]], *, copy: builtins.bool = False) -> Dict[str, Tensor]:
    """Every tensor of a safetensors file, as `{name: Tensor}` in file order, without copying.

    The file is mapped read-only: each tensor views its bytes in place (read-only), and pages
    are read when touched. Nobody may truncate the file while a tensor lives (touching a
    missing page would raise `SIGBUS`); `copy=True` reads the file into runtime memory instead.

    Parameters
    ----------
    path : str or os.PathLike
        The `.safetensors` file.
    copy : bool, optional
        Read into memory the runtime owns instead of mapping (False by default).

    Returns
    -------
    dict of str to Tensor
        The tensors by name, in the file's order.

    Raises
    ------
    InvalidArgumentError
        The file cannot be opened, or it is not a valid safetensors file (header, offsets).
    DTypeError
        A tensor's dtype has no runtime equivalent.

    Examples
    --------
    >>> import os, tempfile
    >>> from safetensors.numpy import save_file
    >>> path = os.path.join(tempfile.mkdtemp(), "w.safetensors")
    >>> save_file({"w": np.arange(4, dtype=np.float32).reshape(2, 2)}, path)
    >>> weights = crt.load_safetensors(path)
    >>> list(weights), weights["w"].tolist()
    (['w'], [[0.0, 1.0], [2.0, 3.0]])
    """
def from_file(
    path: Union[str, os.PathLike[str]],
    dtype: _DTypeLike,
    shape: Union[int, Sequence[int]],
    offset: int = 0,
    *,
    copy: builtins.bool = False,
) -> Tensor:
    """Map `shape` elements of `dtype`, stored row-major at byte `offset` of a raw binary file.

    The file is mapped read-only, without copying: the tensor is read-only, and pages are
    read when touched. Nobody may truncate the file while the tensor lives (touching a
    missing page would raise `SIGBUS`); `copy=True` reads the bytes into runtime memory
    instead. Also `Tensor.from_file`.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    dtype : DType, numpy dtype, str or Python type
        The element type.
    shape : int or sequence of ints
        The tensor's shape.
    offset : int, optional
        The byte offset of the first element, 0 by default.
    copy : bool, optional
        Read into memory the runtime owns instead of mapping (False by default).

    Returns
    -------
    Tensor
        A read-only tensor over the mapping (or a writable copy with `copy=True`).

    Raises
    ------
    InvalidArgumentError
        The file cannot be opened or mapped, or `offset` is not a multiple of the dtype's
        size.
    ShapeError
        The file is too short for `shape` at `offset`, or a size is negative.
    DTypeError
        `dtype` is not a supported dtype.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "w.bin")
    >>> np.arange(6, dtype=np.float32).tofile(path)
    >>> t = crt.from_file(path, crt.float32, (2, 3))
    >>> t.tolist()
    [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    >>> crt.from_file(path, "float32", 2, offset=16).tolist()
    [4.0, 5.0]
    """
def from_buffer(obj: Any, dtype: _DTypeLike, shape: Optional[Union[int, Sequence[int]]] = None, offset: int = 0) -> Tensor:
    """Wrap the bytes of any buffer-protocol object as a tensor, without a copy.

    The tensor views `shape` elements of `dtype`, stored row-major from byte `offset` of
    `obj`'s buffer (`bytes`, `bytearray`, `memoryview`, `mmap`, `SharedMemory.buf`, an
    array...). The buffer export is held for the tensor's lifetime (so resizing a `bytearray`
    under a live tensor raises `BufferError`), and a read-only exporter (`bytes`) gives a
    read-only tensor.

    Parameters
    ----------
    obj : object
        An object with the buffer protocol whose bytes are contiguous.
    dtype : DType, numpy dtype, str or Python type
        The element type.
    shape : int or sequence of ints, optional
        The tensor's shape; by default every whole element from `offset` to the end, as a
        1-d tensor.
    offset : int, optional
        The byte offset of the first element, 0 by default.

    Returns
    -------
    Tensor
        A tensor over `obj`'s memory.

    Raises
    ------
    InvalidArgumentError
        `obj` has no contiguous buffer (copy it with `bytes(obj)`).
    ShapeError
        `offset` lies past the end, the elements would reach past the end, or (without
        `shape`) the bytes after `offset` are not a whole number of elements.
    AlignmentError
        `offset` does not leave the first element aligned for `dtype`.
    DTypeError
        `dtype` is not a supported dtype.

    Examples
    --------
    >>> buf = bytearray(8)
    >>> t = crt.from_buffer(buf, crt.int32)
    >>> t[1] = 7
    >>> bytes(buf[4:])
    b'\\x07\\x00\\x00\\x00'
    >>> crt.from_buffer(bytes(8), crt.uint8, shape=(2, 2), offset=4).shape
    (2, 2)
    """
def from_fd(
    fd: int,
    dtype: _DTypeLike,
    shape: Union[int, Sequence[int]],
    offset: int = 0,
    *,
    strides: Optional[Sequence[int]] = None,
    read_only: builtins.bool = False,
) -> Tensor:
    """Map a file or shared-memory segment given by its descriptor, shared, without a copy.

    The whole file `fd` refers to is mapped shared (writes are seen by every process that
    maps it) and the tensor views `shape` elements of `dtype` whose first element lies at
    byte `offset`. The descriptor is duplicated: close yours whenever you like. Nobody may
    truncate the file while the tensor lives.

    Parameters
    ----------
    fd : int
        An open file descriptor (from `os.open`, `os.memfd_create`, `SharedMemory._fd`).
    dtype : DType, numpy dtype, str or Python type
        The element type.
    shape : int or sequence of ints
        The tensor's shape.
    offset : int, optional
        The byte offset of the first element, 0 by default.
    strides : sequence of ints, optional
        Strides in elements; row-major by default.
    read_only : bool, optional
        Map read-only (False by default: the tensor may write the file).

    Returns
    -------
    Tensor
        A tensor over the mapping (`is_shared()` is True).

    Raises
    ------
    InvalidArgumentError
        `fd` is not an open file descriptor, or it cannot be mapped.
    ShapeError
        The elements would reach past the end of the file, or a size is negative.
    AlignmentError
        `offset` does not leave the first element aligned for `dtype`.
    DTypeError
        `dtype` is not a supported dtype.

    Examples
    --------
    >>> import os
    >>> fd = os.memfd_create("doc")
    >>> os.ftruncate(fd, 16)
    >>> t = crt.from_fd(fd, crt.int32, 4)
    >>> os.close(fd)
    >>> t += 3
    >>> t.tolist(), t.is_shared()
    ([3, 3, 3, 3], True)
    """
def _rebuild_tensor(buffer: Any, dtype: str, shape: Sequence[int], strides: Sequence[int], offset: int) -> Tensor: ...
def _op_register(name: str, rule: Any, kernel: Any) -> None: ...
def _op_call(name: str, *tensors: Any) -> Tensor: ...
def _op_unregister(name: str) -> builtins.bool: ...
def _op_registered() -> List[str]: ...
def _op_link_native(path: Optional[str] = None) -> List[str]: ...
def _testing_register_rust_ops() -> None: ...
def _testing_rust_iota_released() -> int: ...
def _testing_call_on_rust_thread(name: str, *tensors: Any) -> Tensor: ...

def add(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input + other` (broadcasting; Python numbers are weak scalars).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.add(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [5.0, 8.0]
    """
def sub(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input - other`.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.sub(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [-3.0, 0.0]
    """
def mul(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input * other`.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.mul(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [4.0, 16.0]
    """
def div(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input / other` (true division: integers divide as float32).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.div(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [0.25, 1.0]
    """
def pow(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input ** other`.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.pow(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [1.0, 256.0]
    """
def maximum(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """Elementwise maximum (NaN-propagating).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.maximum(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [4.0, 4.0]
    """
def minimum(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """Elementwise minimum (NaN-propagating).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.minimum(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [1.0, 4.0]
    """
def eq(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input == other` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.eq(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [False, True]
    """
def ne(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input != other` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.ne(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [True, False]
    """
def lt(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input < other` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.lt(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [True, False]
    """
def le(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input <= other` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.le(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [True, True]
    """
def gt(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input > other` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.gt(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [False, False]
    """
def ge(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input >= other` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.ge(crt.tensor([1.0, 4.0]), 4.0).tolist()
    [False, True]
    """
def neg(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`neg(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.neg(crt.tensor([1.0, -2.0])).tolist()
    [-1.0, 2.0]
    """
def abs(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`abs(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.abs(crt.tensor([-1.5, 2.0])).tolist()
    [1.5, 2.0]
    """
def exp(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`exp(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.exp(crt.tensor([0.0])).tolist()
    [1.0]
    """
def log(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`log(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.log(crt.tensor([1.0])).tolist()
    [0.0]
    """
def sqrt(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`sqrt(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.sqrt(crt.tensor([4.0, 9.0])).tolist()
    [2.0, 3.0]
    """
def rsqrt(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`rsqrt(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.rsqrt(crt.tensor([4.0])).tolist()
    [0.5]
    """
def sin(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`sin(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.sin(crt.tensor([0.0])).tolist()
    [0.0]
    """
def cos(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`cos(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.cos(crt.tensor([0.0])).tolist()
    [1.0]
    """
def tanh(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`tanh(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.tanh(crt.tensor([0.0])).tolist()
    [0.0]
    """
def sigmoid(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`sigmoid(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.sigmoid(crt.tensor([0.0])).tolist()
    [0.5]
    """
def relu(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`relu(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.relu(crt.tensor([-1.0, 2.0])).tolist()
    [0.0, 2.0]
    """
def gelu(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`gelu(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.gelu(crt.tensor([0.0])).tolist()
    [0.0]
    """
def silu(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`silu(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.silu(crt.tensor([0.0])).tolist()
    [0.0]
    """
def erf(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`erf(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.erf(crt.tensor([0.0])).tolist()
    [0.0]
    """
def round(input: Any, decimals: int = 0, *, out: Optional[Tensor] = None) -> Tensor:
    """Round to `decimals` decimal places, halves to even (numpy's and PyTorch's `round`).

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The values (anything but a tensor is copied as `crt.tensor` would).
    decimals : int, optional
        Decimal places to keep, 0 by default; negative values round to tens, hundreds...
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given); integers are returned as they are.

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.

    Examples
    --------
    >>> crt.round(crt.tensor([0.5, 1.5, 2.25])).tolist()
    [0.0, 2.0, 2.0]
    >>> crt.round(crt.tensor([14.0, 15.0, 25.0]), decimals=-1).tolist()
    [10.0, 20.0, 20.0]
    """
def floor(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`floor(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.floor(crt.tensor([-1.5, 1.5])).tolist()
    [-2.0, 1.0]
    """
def ceil(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`ceil(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.ceil(crt.tensor([-1.5, 1.5])).tolist()
    [-1.0, 2.0]
    """
def trunc(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`trunc(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.trunc(crt.tensor([-1.5, 1.5])).tolist()
    [-1.0, 1.0]
    """
def sign(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`sign(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.sign(crt.tensor([-3.0, 0.0, 2.0])).tolist()
    [-1.0, 0.0, 1.0]
    """
def isnan(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`isnan(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.isnan(crt.tensor([1.0, float('nan')])).tolist()
    [False, True]
    """
def isinf(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`isinf(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.isinf(crt.tensor([1.0, float('inf')])).tolist()
    [False, True]
    """
def isfinite(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`isfinite(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.isfinite(crt.tensor([1.0, float('inf')])).tolist()
    [True, False]
    """
def log1p(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`log1p(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.log1p(crt.tensor([0.0])).tolist()
    [0.0]
    """
def expm1(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`expm1(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.expm1(crt.tensor([0.0])).tolist()
    [0.0]
    """
def log2(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`log2(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.log2(crt.tensor([8.0])).tolist()
    [3.0]
    """
def log10(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`log10(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.log10(crt.tensor([100.0])).tolist()
    [2.0]
    """
def exp2(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`exp2(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.exp2(crt.tensor([3.0])).tolist()
    [8.0]
    """
def tan(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`tan(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.tan(crt.tensor([0.0])).tolist()
    [0.0]
    """
def atan(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`atan(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.atan(crt.tensor([0.0])).tolist()
    [0.0]
    """
def asin(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`asin(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.asin(crt.tensor([0.0])).tolist()
    [0.0]
    """
def acos(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`acos(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.acos(crt.tensor([1.0])).tolist()
    [0.0]
    """
def sinh(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`sinh(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.sinh(crt.tensor([0.0])).tolist()
    [0.0]
    """
def cosh(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`cosh(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.cosh(crt.tensor([0.0])).tolist()
    [1.0]
    """
def bitwise_not(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`bitwise_not(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.bitwise_not(crt.tensor([0, 5])).tolist()
    [-1, -6]
    """
def logical_not(input: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """`logical_not(input)` elementwise.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of `input`'s shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
        is not a tensor and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.logical_not(crt.tensor([0, 2])).tolist()
    [True, False]
    """
def atan2(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`atan2(input, other)`: the angle of the point `(other, input)`.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.atan2(crt.tensor([1.0]), crt.tensor([0.0])).tolist()
    [1.5707963...]
    """
def hypot(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`sqrt(input² + other²)`.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.hypot(crt.tensor([3.0]), crt.tensor([4.0])).tolist()
    [5.0]
    """
def fmod(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """C's `fmod`: remainder with the sign of `input` (integer division by zero raises `ZeroDivisionError`).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.fmod(crt.tensor([-7, 7]), 3).tolist()
    [-1, 1]
    """
def remainder(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """Python's `%`: remainder with the sign of `other` (integer division by zero raises `ZeroDivisionError`).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.remainder(crt.tensor([-7, 7]), 3).tolist()
    [2, 1]
    """
def floor_divide(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """Python's `//` (integer division by zero raises `ZeroDivisionError`).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.floor_divide(crt.tensor([-7, 7]), 2).tolist()
    [-4, 3]
    """
def bitwise_and(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input & other` (integers and bools).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.bitwise_and(crt.tensor([12, 10]), 6).tolist()
    [4, 2]
    """
def bitwise_or(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input | other` (integers and bools).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.bitwise_or(crt.tensor([12, 10]), 1).tolist()
    [13, 11]
    """
def bitwise_xor(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input ^ other` (integers and bools).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.bitwise_xor(crt.tensor([12, 10]), 6).tolist()
    [10, 12]
    """
def bitwise_left_shift(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input << other` (integers).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.bitwise_left_shift(crt.tensor([1, 3]), 2).tolist()
    [4, 12]
    """
def bitwise_right_shift(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input >> other` (integers, arithmetic).

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.bitwise_right_shift(crt.tensor([-8, 8]), 1).tolist()
    [-4, 4]
    """
def logical_and(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input != 0 and other != 0` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.logical_and(crt.tensor([0, 1, 2]), crt.tensor([1, 1, 0])).tolist()
    [False, True, False]
    """
def logical_or(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`input != 0 or other != 0` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.logical_or(crt.tensor([0, 1, 2]), crt.tensor([1, 1, 0])).tolist()
    [True, True, True]
    """
def logical_xor(input: _Operand, other: _Operand, *, out: Optional[Tensor] = None) -> Tensor:
    """`(input != 0) != (other != 0)` as a bool tensor.

    Parameters
    ----------
    input, other : Tensor, numpy array, list or Python number
        The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
        it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        The shapes do not broadcast, or `out` has another shape than the result.
    ReadOnlyError
        `out` is read-only.
    DTypeError
        The operation does not take the operands' dtype (bitwise operations on floats), or
        an operand is not a tensor or a Python number and numpy reads it as a dtype the
        runtime does not support.
    DivisionByZeroError
        An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

    Examples
    --------
    >>> crt.logical_xor(crt.tensor([0, 1, 2]), crt.tensor([1, 1, 0])).tolist()
    [True, False, True]
    """
def tril(input: Any, diagonal: int = 0) -> Tensor:
    """The lower triangle of the last two dimensions: `col - row <= diagonal` kept, the rest zero.

    Parameters
    ----------
    input : Tensor, numpy array or list
        At least 2-d (anything but a tensor is copied as `crt.tensor` would); leading
        dimensions are batches.
    diagonal : int, optional
        Which diagonal bounds the triangle: 0 (the main one) by default, positive above it,
        negative below.

    Returns
    -------
    Tensor
        A new tensor of `input`'s shape and dtype.

    Raises
    ------
    InvalidArgumentError
        `input` has fewer than 2 dimensions.

    Examples
    --------
    >>> crt.tril(crt.ones(3, 3, dtype=crt.int32)).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
def triu(input: Any, diagonal: int = 0) -> Tensor:
    """The upper triangle of the last two dimensions: `col - row >= diagonal` kept, the rest zero.

    Parameters
    ----------
    input : Tensor, numpy array or list
        At least 2-d (anything but a tensor is copied as `crt.tensor` would); leading
        dimensions are batches.
    diagonal : int, optional
        Which diagonal bounds the triangle: 0 (the main one) by default, positive above it,
        negative below.

    Returns
    -------
    Tensor
        A new tensor of `input`'s shape and dtype.

    Raises
    ------
    InvalidArgumentError
        `input` has fewer than 2 dimensions.

    Examples
    --------
    >>> crt.triu(crt.ones(3, 3, dtype=crt.int32)).tolist()
    [[1, 1, 1], [0, 1, 1], [0, 0, 1]]
    """
def sum(
    input: Any,
    dim: _Dims = None,
    keepdim: builtins.bool = False,
    *,
    dtype: Optional[_DTypeLike] = None,
    out: Optional[Tensor] = None,
) -> Tensor:
    """`sum` over all elements, or over `dim` (an int or a tuple of ints).

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    dim : int or tuple of ints, optional
        The dimensions to reduce (negative values count from the end); all by default.
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).
    dtype : dtype, keyword-only, optional
        Convert the input to this dtype first (PyTorch's and numpy's `dtype=`).
    out : Tensor, keyword-only, optional
        Write the result here (its shape must be the result's; values convert to its dtype)
        and return it.

    Returns
    -------
    Tensor
        The reduction (a 0-d tensor when every dimension is reduced without `keepdim`), or
        `out`.

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.
    DTypeError
        `input` is not a tensor, and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.sum(crt.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1).tolist()
    [3.0, 7.0]
    """
def mean(
    input: Any,
    dim: _Dims = None,
    keepdim: builtins.bool = False,
    *,
    dtype: Optional[_DTypeLike] = None,
    out: Optional[Tensor] = None,
) -> Tensor:
    """`mean` over all elements, or over `dim` (an int or a tuple of ints).

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    dim : int or tuple of ints, optional
        The dimensions to reduce (negative values count from the end); all by default.
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).
    dtype : dtype, keyword-only, optional
        Convert the input to this dtype first (PyTorch's and numpy's `dtype=`).
    out : Tensor, keyword-only, optional
        Write the result here (its shape must be the result's; values convert to its dtype)
        and return it.

    Returns
    -------
    Tensor
        The reduction (a 0-d tensor when every dimension is reduced without `keepdim`), or
        `out`.

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.
    DTypeError
        `input` is not a tensor, and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.mean(crt.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1).tolist()
    [1.5, 3.5]
    """
def prod(
    input: Any,
    dim: _Dims = None,
    keepdim: builtins.bool = False,
    *,
    dtype: Optional[_DTypeLike] = None,
    out: Optional[Tensor] = None,
) -> Tensor:
    """`prod` over all elements, or over `dim` (an int or a tuple of ints).

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The operand; anything but a tensor is copied as `crt.tensor` would.
    dim : int or tuple of ints, optional
        The dimensions to reduce (negative values count from the end); all by default.
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).
    dtype : dtype, keyword-only, optional
        Convert the input to this dtype first (PyTorch's and numpy's `dtype=`).
    out : Tensor, keyword-only, optional
        Write the result here (its shape must be the result's; values convert to its dtype)
        and return it.

    Returns
    -------
    Tensor
        The reduction (a 0-d tensor when every dimension is reduced without `keepdim`), or
        `out`.

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.
    DTypeError
        `input` is not a tensor, and numpy reads it as a dtype the runtime does not support.

    Examples
    --------
    >>> crt.prod(crt.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1).tolist()
    [2.0, 12.0]
    """
@overload
def max(input: Any, dim: int, keepdim: builtins.bool = False, *, out: Optional[Tuple[Tensor, Tensor]] = None) -> ValuesIndices:
    """The largest element, over all elements, over several dimensions, or along one `dim`.

    With one int `dim`, returns the pair `(values, indices)` as PyTorch does (a
    `ValuesIndices`); otherwise the reduced values only. NaN propagates.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int or tuple of ints, optional
        One dimension (values and indices), a tuple of dimensions (values), or all by
        default; negative values count from the end.
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).
    out : Tensor or tuple of two Tensors, optional
        Keyword only. Written with the result and returned: with one int `dim` the pair
        `(values, indices)` (indices int64), as PyTorch takes it; otherwise one tensor. Both
        shapes and the indices' dtype are checked before anything is written.

    Returns
    -------
    Tensor or ValuesIndices
        The reduced values, or with one int `dim` the pair `(values, indices)`.

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.
    InvalidArgumentError
        The tensor (or the reduced dimension) is empty, or `out` is not the form `dim` takes.
    ShapeError
        An `out` tensor has another shape than the result.
    DTypeError
        The indices `out` is not int64.

    Examples
    --------
    >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
    >>> crt.max(t).item()
    4.0
    >>> values, indices = crt.max(t, dim=0)
    >>> values.tolist(), indices.tolist()
    ([2.0, 4.0], [1, 1])
    """
@overload
def max(input: Any, dim: Union[None, Sequence[int]] = None, keepdim: builtins.bool = False, *, out: Optional[Tensor] = None) -> Tensor: ...
@overload
def min(input: Any, dim: int, keepdim: builtins.bool = False, *, out: Optional[Tuple[Tensor, Tensor]] = None) -> ValuesIndices:
    """The smallest element, over all elements, over several dimensions, or along one `dim`.

    With one int `dim`, returns the pair `(values, indices)` as PyTorch does (a
    `ValuesIndices`); otherwise the reduced values only. NaN propagates.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int or tuple of ints, optional
        One dimension (values and indices), a tuple of dimensions (values), or all by
        default; negative values count from the end.
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).
    out : Tensor or tuple of two Tensors, optional
        Keyword only. Written with the result and returned: with one int `dim` the pair
        `(values, indices)` (indices int64), as PyTorch takes it; otherwise one tensor. Both
        shapes and the indices' dtype are checked before anything is written.

    Returns
    -------
    Tensor or ValuesIndices
        The reduced values, or with one int `dim` the pair `(values, indices)`.

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.
    InvalidArgumentError
        The tensor (or the reduced dimension) is empty, or `out` is not the form `dim` takes.
    ShapeError
        An `out` tensor has another shape than the result.
    DTypeError
        The indices `out` is not int64.

    Examples
    --------
    >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
    >>> crt.min(t).item()
    1.0
    >>> values, indices = crt.min(t, dim=0)
    >>> values.tolist(), indices.tolist()
    ([1.0, 3.0], [0, 0])
    """
@overload
def min(input: Any, dim: Union[None, Sequence[int]] = None, keepdim: builtins.bool = False, *, out: Optional[Tensor] = None) -> Tensor: ...
def argmax(input: Any, dim: Optional[int] = None, keepdim: builtins.bool = False) -> Tensor:
    """The index of the largest element: in the flattened input, or along `dim`.

    Ties give the first index.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int, optional
        The dimension to search along; by default the flattened input.
    keepdim : bool, optional
        Keep the reduced dimension with size 1 (False by default; only with `dim`).

    Returns
    -------
    Tensor
        int64 indices (a 0-d tensor without `dim`).

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.
    InvalidArgumentError
        The tensor (or the searched dimension) is empty.

    Examples
    --------
    >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
    >>> crt.argmax(t).item()
    3
    >>> crt.argmax(t, dim=0).tolist()
    [1, 1]
    """
def argmin(input: Any, dim: Optional[int] = None, keepdim: builtins.bool = False) -> Tensor:
    """The index of the smallest element: in the flattened input, or along `dim`.

    Ties give the first index.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int, optional
        The dimension to search along; by default the flattened input.
    keepdim : bool, optional
        Keep the reduced dimension with size 1 (False by default; only with `dim`).

    Returns
    -------
    Tensor
        int64 indices (a 0-d tensor without `dim`).

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.
    InvalidArgumentError
        The tensor (or the searched dimension) is empty.

    Examples
    --------
    >>> t = crt.tensor([[1.0, 3.0], [2.0, 4.0]])
    >>> crt.argmin(t).item()
    0
    >>> crt.argmin(t, dim=0).tolist()
    [0, 0]
    """
def var(input: Any, dim: _Dims = None, *, correction: int = 1, keepdim: builtins.bool = False, out: Optional[Tensor] = None) -> Tensor:
    """The variance: of all elements, or over `dim`.

    `correction` is subtracted from the count in the divisor: 1 (the default, PyTorch's) is
    the unbiased estimate, 0 numpy's default population variance.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int or tuple of int, optional
        The dimensions to reduce; by default all.
    correction : int, optional
        Keyword only. Subtracted from the count (1 by default).
    keepdim : bool, optional
        Keyword only. Keep the reduced dimensions with size 1 (False by default).
    out : Tensor, optional
        Keyword only. Written with the result (its shape; a float dtype the result casts to)
        and returned.

    Returns
    -------
    Tensor
        The variance (0-d without `dim`), in a float dtype (float64 for integers).

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.
    ShapeError
        `out` has another shape than the result.

    Examples
    --------
    >>> t = crt.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> crt.var(t).item()
    3.5
    >>> crt.var(t, dim=1).tolist()
    [1.0, 7.0]
    >>> crt.var(crt.tensor([1.0, 3.0]), correction=0).item()
    1.0
    """
def std(input: Any, dim: _Dims = None, *, correction: int = 1, keepdim: builtins.bool = False, out: Optional[Tensor] = None) -> Tensor:
    """The standard deviation: of all elements, or over `dim` (the square root of `var`).

    `correction` is subtracted from the count in the divisor: 1 (the default, PyTorch's) is
    the unbiased estimate, 0 numpy's default.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int or tuple of int, optional
        The dimensions to reduce; by default all.
    correction : int, optional
        Keyword only. Subtracted from the count (1 by default).
    keepdim : bool, optional
        Keyword only. Keep the reduced dimensions with size 1 (False by default).
    out : Tensor, optional
        Keyword only. Written with the result (its shape; a float dtype the result casts to)
        and returned.

    Returns
    -------
    Tensor
        The standard deviation (0-d without `dim`), in a float dtype (float64 for integers).

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.
    ShapeError
        `out` has another shape than the result.

    Examples
    --------
    >>> crt.std(crt.tensor([1.0, 3.0])).item()
    1.4142135623730951
    >>> crt.std(crt.tensor([1.0, 3.0]), correction=0).item()
    1.0
    >>> crt.std(crt.tensor([[1.0, 3.0], [2.0, 2.0]]), dim=1).tolist()
    [1.4142135623730951, 0.0]
    """
def softmax(input: Any, dim: int) -> Tensor:
    """Softmax along `dim`: `exp(x - max) / sum(exp(x - max))`, so each slice sums to 1.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int
        The dimension to normalise; negative values count from the end.

    Returns
    -------
    Tensor
        A tensor of `input`'s shape; float32 for an integer or bool input, else `input`'s
        dtype.

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> crt.softmax(crt.tensor([[0.0, 0.0], [1.0, 1.0]]), dim=1).tolist()
    [[0.5, 0.5], [0.5, 0.5]]
    """
def log_softmax(input: Any, dim: int) -> Tensor:
    """Log-softmax along `dim`: `x - max - log(sum(exp(x - max)))`, computed stably.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int
        The dimension to normalise; negative values count from the end.

    Returns
    -------
    Tensor
        A tensor of `input`'s shape; float32 for an integer or bool input, else `input`'s
        dtype.

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> crt.log_softmax(crt.tensor([0.0, 0.0]), dim=0).exp().tolist()
    [0.5, 0.5]
    """
def matmul(input: Any, other: Any, *, out: Optional[Tensor] = None) -> Tensor:
    """Matrix product with numpy's `matmul` semantics (also `input @ other`).

    1-D by 1-D is a dot product; 2-D by 2-D a matrix product; a 1-D operand is treated as a
    row (first) or column (second) vector and that dimension removed; more dimensions are
    batches, which broadcast.

    Parameters
    ----------
    input, other : Tensor, numpy array or list
        The operands (anything but a tensor is copied as `crt.tensor` would).
    out : Tensor, optional
        Keyword only. A tensor of the result's shape that receives the product (converted to
        its dtype). With the result's dtype the kernel writes straight into it, whatever its
        strides; it may be one of the operands (read in full first).

    Returns
    -------
    Tensor
        The product, in the operands' promoted dtype; `out` itself when given.

    Raises
    ------
    ShapeError
        The inner dimensions differ, the batch dimensions do not broadcast, or an operand
        is 0-d; or `out` does not have the result's shape.
    InvalidArgumentError
        `out` has a stride of 0 over a dimension longer than 1 (its elements share memory).
    ReadOnlyError
        `out` wraps memory lent read-only.

    Examples
    --------
    >>> a = crt.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> crt.matmul(a, crt.eye(2)).tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    >>> crt.matmul(a, crt.tensor([1.0, 1.0])).tolist()
    [3.0, 7.0]
    >>> o = crt.empty(2, 2)
    >>> crt.matmul(a, crt.eye(2), out=o) is o
    True
    """
def where(condition: Any, input: _Operand, other: _Operand) -> Tensor:
    """`input` where `condition` is true, else `other`, elementwise (broadcasting all three).

    Parameters
    ----------
    condition : Tensor, numpy array or list
        Read as bool (non-zero is true).
    input, other : Tensor, numpy array, list or Python number
        The values; a Python number is a weak scalar (it takes the other operand's dtype).

    Returns
    -------
    Tensor
        A tensor of the broadcast shape.

    Raises
    ------
    ShapeError
        The shapes do not broadcast.
    DTypeError
        An operand is read by numpy as a dtype the runtime does not support.

    Examples
    --------
    >>> x = crt.tensor([-1.0, 2.0, -3.0])
    >>> crt.where(x > 0, x, 0.0).tolist()
    [0.0, 2.0, 0.0]
    """
def clamp(
    input: Any, min: Optional[_Operand] = None, max: Optional[_Operand] = None, *, out: Optional[Tensor] = None
) -> Tensor:
    """Limit every element of `input` to `[min, max]`.

    Parameters
    ----------
    input : Tensor, numpy array, list or Python number
        The values (anything but a tensor is copied as `crt.tensor` would).
    min, max : Tensor, Python number or None, optional
        The bounds; either or both may be omitted. Tensors broadcast against `input`.
    out : Tensor, optional
        A tensor of the result's shape to write the result into.

    Returns
    -------
    Tensor
        The result (`out` itself when given).

    Raises
    ------
    ShapeError
        A tensor bound does not broadcast to `input`'s shape, or `out` has another shape.
    ReadOnlyError
        `out` is read-only.

    Examples
    --------
    >>> crt.clamp(crt.tensor([-2.0, 0.5, 3.0]), min=0.0, max=1.0).tolist()
    [0.0, 0.5, 1.0]
    >>> crt.clamp(crt.arange(4), min=crt.tensor([0, 2, 2, 2])).tolist()
    [0, 2, 2, 3]
    """
def cat(tensors: Sequence[Any], dim: int = 0) -> Tensor:
    """Concatenate tensors along an existing dimension.

    Parameters
    ----------
    tensors : sequence of Tensor or array-like
        The tensors, with the same number of dimensions and equal sizes except along `dim`
        (anything but a tensor is copied as `crt.tensor` would).
    dim : int, optional
        The dimension to join along, 0 by default; negative values count from the end.

    Returns
    -------
    Tensor
        A new tensor whose size along `dim` is the sum of the inputs'.

    Raises
    ------
    InvalidArgumentError
        `tensors` is empty.
    ShapeError
        The tensors' other dimensions differ.
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> a = crt.tensor([[1, 2]])
    >>> crt.cat([a, a], dim=0).tolist()
    [[1, 2], [1, 2]]
    >>> crt.cat([a, a], dim=1).tolist()
    [[1, 2, 1, 2]]
    """
def stack(tensors: Sequence[Any], dim: int = 0) -> Tensor:
    """Stack equally shaped tensors along a new dimension.

    Parameters
    ----------
    tensors : sequence of Tensor or array-like
        The tensors, all of the same shape (anything but a tensor is copied as `crt.tensor`
        would).
    dim : int, optional
        Where the new dimension goes, 0 by default; negative values count from the end.

    Returns
    -------
    Tensor
        A new tensor with one more dimension, of size `len(tensors)`.

    Raises
    ------
    InvalidArgumentError
        `tensors` is empty.
    ShapeError
        The shapes differ.
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> a, b = crt.tensor([1, 2]), crt.tensor([3, 4])
    >>> crt.stack([a, b]).tolist()
    [[1, 2], [3, 4]]
    >>> crt.stack([a, b], dim=1).shape
    (2, 2)
    """

# Vision and inference (torch.nn.functional's names and defaults).
_Size = Union[int, Sequence[int]]
def conv1d(
    input: Any, weight: Any, bias: Optional[Any] = None, stride: _Size = 1,
    padding: Union[str, _Size] = 0, dilation: _Size = 1, groups: int = 1,
) -> Tensor:
    """1-D convolution with PyTorch's `conv1d` semantics (a cross-correlation, as in PyTorch).

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[N, C, L]`, or `[C, L]` for one sequence (anything but a tensor is copied as
        `crt.tensor` would).
    weight : Tensor, numpy array or list
        The kernels, `[O, C / groups, K]`.
    bias : Tensor, numpy array or list, optional
        `[O]`, added to each output channel.
    stride : int, optional
        The step of the window (1 by default).
    padding : int, 'same' or 'valid', optional
        Zeros added on both sides (0 by default); `'same'` keeps the length.
    dilation : int, optional
        The spacing of the kernel's taps (1 by default).
    groups : int, optional
        Splits the channels into groups convolved separately (1 by default).

    Returns
    -------
    Tensor
        `[N, O, L_out]` (`[O, L_out]` for a 2-D input).

    Raises
    ------
    InvalidArgumentError
        The input is not 2-D or 3-D; the channels do not match the weight; `groups` does not
        divide the channels; the bias is not `[O]`; a stride is 0; a size has too many values;
        or the padded input is shorter than the dilated kernel.
    ValueError
        `padding` is a string other than `'same'` or `'valid'`, or `groups` is negative.
    TypeError
        `stride`, `padding` or `dilation` is not an int or a tuple of ints.

    Examples
    --------
    >>> x = crt.tensor([[[1.0, 2.0, 3.0, 4.0]]])
    >>> crt.conv1d(x, crt.tensor([[[1.0, -1.0]]])).tolist()
    [[[-1.0, -1.0, -1.0]]]
    >>> crt.conv1d(x, crt.ones(1, 1, 2), stride=2).tolist()
    [[[3.0, 7.0]]]
    """
def conv_transpose1d(
    input: Any, weight: Any, bias: Optional[Any] = None, stride: _Size = 1,
    padding: _Size = 0, output_padding: _Size = 0, groups: int = 1, dilation: _Size = 1,
) -> Tensor:
    """1-D transposed convolution with PyTorch's `conv_transpose1d` semantics: the gradient of
    `conv1d` with respect to its input (run as a 2-D one of height 1).

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[N, C, L]`, or `[C, L]` for one sequence (anything but a tensor is copied as
        `crt.tensor` would).
    weight : Tensor, numpy array or list
        The kernels, `[C, O / groups, K]` (input channels first, as in PyTorch).
    bias : Tensor, numpy array or list, optional
        `[O]`, added to each output channel.
    stride : int or (int,), optional
        The step between input positions in the output (1 by default).
    padding : int or (int,), optional
        Elements cropped from each end of the full result (0 by default).
    output_padding : int or (int,), optional
        Extra length at the end, smaller than the stride or the dilation (0 by default).
    groups : int, optional
        Splits the channels into groups handled separately (1 by default).
    dilation : int or (int,), optional
        The spacing of the kernel's taps (1 by default).

    Returns
    -------
    Tensor
        `[N, O, L_out]` (`[O, L_out]` for a 2-D input), with
        `L_out = (L - 1) * stride - 2 * padding + dilation * (K - 1) + output_padding + 1`.

    Raises
    ------
    InvalidArgumentError
        As `conv_transpose2d`, for one spatial dim.
    ValueError
        `groups` is negative.
    TypeError
        `stride`, `padding`, `output_padding` or `dilation` is not an int or a tuple of ints.

    Examples
    --------
    >>> crt.conv_transpose1d(crt.tensor([[[1.0, 2.0, 3.0]]]), crt.tensor([[[1.0, -1.0]]])).tolist()
    [[[1.0, 1.0, 1.0, -3.0]]]
    """
def conv_transpose2d(
    input: Any, weight: Any, bias: Optional[Any] = None, stride: _Size = 1,
    padding: _Size = 0, output_padding: _Size = 0, groups: int = 1, dilation: _Size = 1,
) -> Tensor:
    """2-D transposed convolution with PyTorch's `conv_transpose2d` semantics: the gradient of
    `conv2d` with respect to its input, used to upsample (decoders, segmentation heads). Every
    input element adds `value × weight` into the output window at `stride × position`.

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[N, C, H, W]`, or `[C, H, W]` for one image (anything but a tensor is copied as
        `crt.tensor` would).
    weight : Tensor, numpy array or list
        The kernels, `[C, O / groups, KH, KW]` (input channels first, as in PyTorch).
    bias : Tensor, numpy array or list, optional
        `[O]`, added to each output channel.
    stride : int or (int, int), optional
        The step between input positions in the output: the upsampling factor (1 by default).
    padding : int or (int, int), optional
        Rows and columns cropped from each side of the full result (0 by default).
    output_padding : int or (int, int), optional
        Extra size on the far side of each output dim, smaller than the stride or the
        dilation (0 by default): picks among the output sizes a strided `conv2d` maps to the
        same input size.
    groups : int, optional
        Splits the channels into groups handled separately (1 by default).
    dilation : int or (int, int), optional
        The spacing of the kernel's taps (1 by default).

    Returns
    -------
    Tensor
        `[N, O, H_out, W_out]` (`[O, H_out, W_out]` for a 3-D input), with
        `H_out = (H - 1) * stride - 2 * padding + dilation * (KH - 1) + output_padding + 1`
        (likewise `W_out`), in the inputs' promoted floating dtype.

    Raises
    ------
    InvalidArgumentError
        The input is not 3-D or 4-D; its channels differ from the weight's first dim; `groups`
        does not divide them; the bias is not `[O]`; a stride is 0; an output padding is not
        below the stride or the dilation; a size has too many values; a spatial dim is empty;
        or the padding crops the whole result.
    ValueError
        `groups` is negative.
    TypeError
        `stride`, `padding`, `output_padding` or `dilation` is not an int or a tuple of ints.

    Examples
    --------
    >>> x = crt.ones(1, 1, 2, 2)
    >>> crt.conv_transpose2d(x, crt.ones(1, 1, 2, 2)).tolist()
    [[[[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]]]
    >>> crt.conv_transpose2d(x, crt.ones(1, 1, 3, 3), stride=2, padding=1, output_padding=1).shape
    (1, 1, 4, 4)
    """
def conv2d(
    input: Any, weight: Any, bias: Optional[Any] = None, stride: _Size = 1,
    padding: Union[str, _Size] = 0, dilation: _Size = 1, groups: int = 1,
) -> Tensor:
    """2-D convolution with PyTorch's `conv2d` semantics (a cross-correlation, as in PyTorch).

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[N, C, H, W]`, or `[C, H, W]` for one image (anything but a tensor is copied as
        `crt.tensor` would).
    weight : Tensor, numpy array or list
        The kernels, `[O, C / groups, KH, KW]`.
    bias : Tensor, numpy array or list, optional
        `[O]`, added to each output channel.
    stride : int or (int, int), optional
        The step of the window (1 by default).
    padding : int, (int, int), 'same' or 'valid', optional
        Zeros added on both sides of each spatial dim (0 by default); `'same'` keeps the
        spatial size, `'valid'` is no padding.
    dilation : int or (int, int), optional
        The spacing of the kernel's taps (1 by default).
    groups : int, optional
        Splits the channels into groups convolved separately (1 by default).

    Returns
    -------
    Tensor
        `[N, O, H_out, W_out]` (`[O, H_out, W_out]` for a 3-D input).

    Raises
    ------
    InvalidArgumentError
        The input is not 3-D or 4-D; the channels do not match the weight; `groups` does not
        divide the channels; the bias is not `[O]`; a stride is 0; a size has too many values;
        or the padded input is smaller than the dilated kernel.
    ValueError
        `padding` is a string other than `'same'` or `'valid'`, or `groups` is negative.
    TypeError
        `stride`, `padding` or `dilation` is not an int or a tuple of ints.

    Examples
    --------
    >>> x = crt.ones(1, 1, 3, 3)
    >>> crt.conv2d(x, crt.ones(1, 1, 2, 2)).tolist()
    [[[[4.0, 4.0], [4.0, 4.0]]]]
    >>> crt.conv2d(x, crt.ones(1, 1, 3, 3), padding=1).shape
    (1, 1, 3, 3)
    """
def max_pool2d(
    input: Any, kernel_size: _Size, stride: Optional[_Size] = None, padding: _Size = 0,
    dilation: _Size = 1, ceil_mode: builtins.bool = False,
) -> Tensor:
    """2-D max pooling with PyTorch's `max_pool2d` semantics (the values only).

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[N, C, H, W]`, or `[C, H, W]` (anything but a tensor is copied as `crt.tensor`
        would).
    kernel_size : int or (int, int)
        The window.
    stride : int or (int, int), optional
        The step of the window; None (the default) means `kernel_size`.
    padding : int or (int, int), optional
        Implicit negative infinity added on both sides (0 by default; at most half the
        kernel).
    dilation : int or (int, int), optional
        The spacing of the window's taps (1 by default).
    ceil_mode : bool, optional
        Round the output size up rather than down (False by default).

    Returns
    -------
    Tensor
        The maxima, `[N, C, H_out, W_out]` (`[C, H_out, W_out]` for a 3-D input).

    Raises
    ------
    InvalidArgumentError
        The input is not 3-D or 4-D; a size has more than 2 values; a stride is 0; the
        padding is more than half the kernel; or the padded input is smaller than the window.
    TypeError
        A size is not an int or a tuple of ints.

    Examples
    --------
    >>> x = crt.arange(16.0).reshape(1, 1, 4, 4)
    >>> crt.max_pool2d(x, 2).tolist()
    [[[[5.0, 7.0], [13.0, 15.0]]]]
    >>> crt.max_pool2d(x, 2, stride=1).shape
    (1, 1, 3, 3)
    """
def avg_pool2d(
    input: Any, kernel_size: _Size, stride: Optional[_Size] = None, padding: _Size = 0,
    ceil_mode: builtins.bool = False, count_include_pad: builtins.bool = True,
) -> Tensor:
    """2-D average pooling with PyTorch's `avg_pool2d` semantics.

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[N, C, H, W]`, or `[C, H, W]` (anything but a tensor is copied as `crt.tensor`
        would).
    kernel_size : int or (int, int)
        The window.
    stride : int or (int, int), optional
        The step of the window; None (the default) means `kernel_size`.
    padding : int or (int, int), optional
        Zeros added on both sides (0 by default; at most half the kernel).
    ceil_mode : bool, optional
        Round the output size up rather than down (False by default).
    count_include_pad : bool, optional
        Count the padding zeros in each average (True by default, as PyTorch).

    Returns
    -------
    Tensor
        The averages, `[N, C, H_out, W_out]` (`[C, H_out, W_out]` for a 3-D input).

    Raises
    ------
    InvalidArgumentError
        The input is not 3-D or 4-D; a size has more than 2 values; a stride is 0; the
        padding is more than half the kernel; or the padded input is smaller than the window.
    TypeError
        A size is not an int or a tuple of ints.

    Examples
    --------
    >>> x = crt.arange(16.0).reshape(1, 1, 4, 4)
    >>> crt.avg_pool2d(x, 2).tolist()
    [[[[2.5, 4.5], [10.5, 12.5]]]]
    """
def adaptive_avg_pool2d(input: Any, output_size: _Size) -> Tensor:
    """2-D average pooling to a given output size (PyTorch's `adaptive_avg_pool2d`).

    The windows are chosen so that the output has `output_size`, as in PyTorch; an
    `output_size` of 1 is global average pooling.

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[N, C, H, W]`, or `[C, H, W]` (anything but a tensor is copied as `crt.tensor`
        would).
    output_size : int or (int, int)
        The output's `(H_out, W_out)`; an int means a square.

    Returns
    -------
    Tensor
        `[N, C, H_out, W_out]` (`[C, H_out, W_out]` for a 3-D input).

    Raises
    ------
    InvalidArgumentError
        The input is not 3-D or 4-D, or `output_size` has more than 2 values.
    TypeError
        `output_size` is not an int or a tuple of ints.

    Examples
    --------
    >>> x = crt.arange(16.0).reshape(1, 1, 4, 4)
    >>> crt.adaptive_avg_pool2d(x, 1).tolist()
    [[[[7.5]]]]
    >>> crt.adaptive_avg_pool2d(x, (2, 1)).tolist()
    [[[[3.5], [11.5]]]]
    """
def interpolate(
    input: Any,
    size: Optional[_Size] = None,
    scale_factor: Optional[Union[float, Sequence[float]]] = None,
    mode: str = "nearest",
    align_corners: Optional[builtins.bool] = None,
    recompute_scale_factor: Optional[builtins.bool] = None,
    antialias: builtins.bool = False,
) -> Tensor:
    """Resizes the spatial dims of a batch (PyTorch's `interpolate`).

    The same arguments, defaults and results as `torch.nn.functional.interpolate` (within
    float rounding). Every mode is a separable filter applied one dim at a time; a strided
    input (a crop, a channels-last or pitched view) is read in place and the result keeps
    the input's memory order (channels-last in, channels-last out).

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[N, C, L]`, `[N, C, H, W]` or `[N, C, D, H, W]`; float, or uint8 (images: computed
        in float32, rounded and saturated back to uint8).
    size : int or sequence of int, optional
        The output's spatial size (one value for every spatial dim, or one per dim).
    scale_factor : float or sequence of float, optional
        The output's spatial size as a multiple of the input's, rounded down. Give exactly
        one of `size` and `scale_factor`.
    mode : str
        `'nearest'` (default), `'nearest-exact'`, `'linear'` (3-D input), `'bilinear'`
        (4-D), `'bicubic'` (4-D), `'trilinear'` (5-D) or `'area'` (adaptive average pooling).
    align_corners : bool, optional
        Linear and bicubic modes: line up the centres of the corner elements instead of
        their outer edges. Must stay None for the other modes.
    recompute_scale_factor : bool, optional
        With `scale_factor`: derive the sampling step from the sizes instead of the factor.
    antialias : bool
        Linear and bicubic modes: when shrinking, widen the filter so that every input
        element contributes (as PIL and PyTorch's `antialias=True`).

    Returns
    -------
    Tensor
        A new tensor of the input's dtype, `[N, C, *size]`.

    Raises
    ------
    InvalidArgumentError
        An unknown mode, a mode that does not fit the input's dims, both or neither of
        `size` and `scale_factor`, a size that does not give one value per spatial dim, an
        empty spatial dim, an integer input other than uint8, or `antialias` with a mode that
        does not interpolate.
    ValueError
        `align_corners` given for `'nearest'`, `'nearest-exact'` or `'area'`.
    DeviceError
        The input is on a GPU (move it with `.to("cpu")`).

    Examples
    --------
    >>> x = crt.arange(4.0).reshape(1, 1, 2, 2)
    >>> crt.interpolate(x, scale_factor=2).tolist()
    [[[[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0], [2.0, 2.0, 3.0, 3.0]]]]
    >>> crt.interpolate(x, size=3, mode="bilinear", align_corners=True).tolist()
    [[[[0.0, 0.5, 1.0], [1.0, 1.5, 2.0], [2.0, 2.5, 3.0]]]]
    """
def layer_norm(
    input: Any,
    normalized_shape: _Size,
    weight: Optional[Any] = None,
    bias: Optional[Any] = None,
    eps: float = 1e-5,
) -> Tensor:
    """Layer normalization (PyTorch's `layer_norm`).

    Normalizes the last dims of the input (those named by `normalized_shape`) to zero mean
    and unit variance (biased variance, as PyTorch), then scales by `weight` and shifts by
    `bias`: `(x - mean) / sqrt(var + eps) * weight + bias`. Each row's statistics are taken
    in one read of the row while it is in cache, and the output is written in one more pass.

    Parameters
    ----------
    input : Tensor, numpy array or list
        A float tensor whose last dims equal `normalized_shape` (strided inputs are read as
        a contiguous copy).
    normalized_shape : int or sequence of int
        The normalized dims' sizes.
    weight, bias : Tensor, optional
        Of shape `normalized_shape`; omitted means 1 and 0.
    eps : float
        Added to the variance (default 1e-5).

    Returns
    -------
    Tensor
        A new contiguous tensor of the input's shape and dtype.

    Raises
    ------
    InvalidArgumentError
        `normalized_shape` does not match the input's last dims, a weight or bias has another
        shape, an integer input (convert with `.to_dtype`), or a negative `eps`.
    DeviceError
        The input is on a GPU (move it with `.to("cpu")`), or the weights are on another
        device.

    Examples
    --------
    >>> x = crt.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])
    >>> [round(v, 4) for v in crt.layer_norm(x, 3).tolist()[0]]
    [-1.2247, 0.0, 1.2247]
    """
def group_norm(
    input: Any,
    num_groups: int,
    weight: Optional[Any] = None,
    bias: Optional[Any] = None,
    eps: float = 1e-5,
) -> Tensor:
    """Group normalization (PyTorch's `group_norm`).

    Splits the channels (dim 1) of each image into `num_groups` groups, normalizes each group
    to zero mean and unit variance, then scales and shifts per channel:
    `(x - mean_g) / sqrt(var_g + eps) * weight[c] + bias[c]`.

    Parameters
    ----------
    input : Tensor, numpy array or list
        A float tensor `[N, C, *]` (strided inputs are read as a contiguous copy).
    num_groups : int
        Must divide `C`.
    weight, bias : Tensor, optional
        `[C]`; omitted means 1 and 0.
    eps : float
        Added to the variance (default 1e-5).

    Returns
    -------
    Tensor
        A new contiguous tensor of the input's shape and dtype.

    Raises
    ------
    InvalidArgumentError
        `num_groups` does not divide the channels, a weight or bias is not `[C]`, an input
        with fewer than 2 dims or of an integer dtype, or a negative `eps`.
    DeviceError
        The input is on a GPU (move it with `.to("cpu")`), or the weights are on another
        device.

    Examples
    --------
    >>> x = crt.arange(8.0).reshape(1, 4, 2)
    >>> y = crt.group_norm(x, 2)
    >>> [round(v, 4) for v in y.tolist()[0][0]]
    [-1.3416, -0.4472]
    """
def batch_norm(
    input: Any,
    running_mean: Any,
    running_var: Any,
    weight: Optional[Any] = None,
    bias: Optional[Any] = None,
    training: builtins.bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Batch normalization in inference mode (PyTorch's `batch_norm` with `training=False`).

    Normalizes each channel (dim 1) with the running statistics and scales and shifts it:
    `(x - running_mean[c]) / sqrt(running_var[c] + eps) * weight[c] + bias[c]`, in one pass
    over the input. The running statistics are read, never updated.

    Parameters
    ----------
    input : Tensor, numpy array or list
        A float tensor `[N, C, *]` (strided inputs are read as a contiguous copy).
    running_mean, running_var : Tensor
        `[C]` each.
    weight, bias : Tensor, optional
        `[C]`; omitted means 1 and 0.
    training : bool
        Must be False: training mode (batch statistics, updating the running ones) is not
        supported.
    momentum : float
        Accepted for PyTorch's signature; used only in training mode.
    eps : float
        Added to the variance (default 1e-5).

    Returns
    -------
    Tensor
        A new contiguous tensor of the input's shape and dtype.

    Raises
    ------
    NotImplementedError
        `training=True`.
    InvalidArgumentError
        A statistic, weight or bias that is not `[C]`, an input with fewer than 2 dims or of
        an integer dtype, or a negative `eps`.
    DeviceError
        The input is on a GPU (move it with `.to("cpu")`), or the statistics or weights are on
        another device.

    Examples
    --------
    >>> x = crt.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> crt.batch_norm(x, crt.tensor([2.0, 3.0]), crt.tensor([1.0, 1.0]), eps=0.0).tolist()
    [[-1.0, -1.0], [1.0, 1.0]]
    """
def linear(input: Any, weight: Any, bias: Optional[Any] = None) -> Tensor:
    """A fully connected layer with PyTorch's `linear` semantics: `input @ weight.T + bias`.

    Parameters
    ----------
    input : Tensor, numpy array or list
        `[..., in_features]` (anything but a tensor is copied as `crt.tensor` would).
    weight : Tensor, numpy array or list
        `[out_features, in_features]`.
    bias : Tensor, numpy array or list, optional
        `[out_features]` (or anything that broadcasts to the product).

    Returns
    -------
    Tensor
        `[..., out_features]`.

    Raises
    ------
    ShapeError
        The last dim of `input` differs from `weight`'s second, or `bias` does not broadcast
        to the product.

    Examples
    --------
    >>> x = crt.tensor([[1.0, 2.0]])
    >>> w = crt.tensor([[1.0, 1.0], [0.0, 1.0]])
    >>> crt.linear(x, w, crt.tensor([0.5, 0.0])).tolist()
    [[3.5, 2.0]]
    >>> crt.linear(x, w).shape
    (1, 2)
    """
def pad(input: Any, pad: Sequence[int], mode: str = "constant", value: Optional[float] = None) -> Tensor:
    """Pads a tensor with PyTorch's `pad` semantics (`torch.nn.functional.pad`).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The tensor (anything but a tensor is copied as `crt.tensor` would).
    pad : sequence of int
        `(before, after)` pairs from the last dim backwards: `(left, right)` pads the last
        dim, `(left, right, top, bottom)` the last two. A negative amount crops.
    mode : str, optional
        `'constant'` (the default), `'reflect'`, `'replicate'` or `'circular'`.
    value : float, optional
        The fill of the constant mode (0 by default).

    Returns
    -------
    Tensor
        A new tensor, each padded dim longer by its pair's sum.

    Raises
    ------
    InvalidArgumentError
        `pad` has an odd length or more pairs than the tensor has dims, or a reflect,
        replicate or circular amount is out of range for its dim.
    ValueError
        `mode` is not one of the four.

    Examples
    --------
    >>> crt.pad(crt.tensor([1.0, 2.0]), (1, 2)).tolist()
    [0.0, 1.0, 2.0, 0.0, 0.0]
    >>> crt.pad(crt.tensor([1.0, 2.0]), (1, 1), value=9.0).tolist()
    [9.0, 1.0, 2.0, 9.0]
    >>> crt.pad(crt.tensor([[1.0, 2.0]]), (1, 1), mode="reflect").tolist()
    [[2.0, 1.0, 2.0, 1.0]]
    """
def cvt_color(input: Any, code: str, matrix: str = "bt601", full_range: builtins.bool = False) -> Tensor:
    """Colour conversion of a uint8 frame, like OpenCV's ``cv2.cvtColor``.

    Results are rounded to nearest and saturated (within 1 of OpenCV's; BT.601 limited range
    uses OpenCV's own constants). The frame may be a strided view (a pitched frame is read in
    place); the result is a new contiguous uint8 tensor.

    Parameters
    ----------
    input : Tensor or numpy.ndarray
        uint8: ``(H, W, 3)`` for ``"RGB2BGR"``/``"BGR2RGB"``/``"RGB2GRAY"``/``"BGR2GRAY"``;
        one ``(H * 3 / 2, W)`` plane for ``"YUV2RGB_NV12"``, ``"YUV2BGR_NV12"``,
        ``"YUV2RGB_I420"``, ``"YUV2BGR_I420"`` (H, W even); ``(H, W, 2)`` for
        ``"YUV2RGB_YUYV"``/``"YUV2BGR_YUYV"`` (W even).
    code : str
        The conversion, named as OpenCV's ``COLOR_*`` constant without the prefix.
    matrix : str
        ``"bt601"`` (default; OpenCV's) or ``"bt709"``; YUV conversions only.
    full_range : bool
        YUV in 0..255 (JPEG/"PC") instead of the limited 16..235 (default; OpenCV's).

    Returns
    -------
    Tensor
        uint8 ``(H, W, 3)``, or ``(H, W)`` for the gray conversions.

    Raises
    ------
    InvalidArgumentError
        Not uint8, a shape the conversion does not take, odd sizes for chroma subsampling.
    ValueError
        An unknown ``code`` or ``matrix``.

    Examples
    --------
    >>> import numpy as np, clika_runtime as crt
    >>> nv12 = np.full((6, 4), 128, np.uint8)  # a 4x4 frame
    >>> crt.cvt_color(nv12, "YUV2RGB_NV12").shape
    (4, 4, 3)
    """
def normalize_image(input: Any, mean: Union[float, Sequence[float]], std: Union[float, Sequence[float]]) -> Tensor:
    """Fused image normalization: a uint8 image to a normalized float32 CHW tensor.

    Computes ``(x / 255 - mean[c]) / std[c]`` for a frame as cameras and decoders give it
    (uint8, channels last) in one pass, reading the frame in place: a strided view (a
    pitched frame whose rows are padded, a crop, a channel flip) is not copied first. Each
    value is the float32 result of the expression as written (bit-identical to numpy's
    ``(x.astype(np.float32) / 255 - mean) / std`` in float32). Not torchvision's
    ``normalize``, which takes an already-float CHW tensor.

    Parameters
    ----------
    input : Tensor or numpy.ndarray
        A uint8 image ``(H, W, C)`` or batch ``(N, H, W, C)``, any strides.
    mean : float or sequence of float
        One value per channel (``C`` values), or one for every channel.
    std : float or sequence of float
        As ``mean``; every value finite and non-zero.

    Returns
    -------
    Tensor
        A new contiguous float32 tensor ``(C, H, W)``, or ``(N, C, H, W)`` for a batch.

    Raises
    ------
    InvalidArgumentError
        The input is not uint8, not 3-D/4-D, ``mean``/``std`` do not match the channel
        count, or a ``std`` is zero or not finite.
    DeviceError
        The input is on a GPU (move it with ``.to("cpu")``).

    Examples
    --------
    >>> import numpy as np, clika_runtime as crt
    >>> frame = np.zeros((480, 640, 3), np.uint8)
    >>> x = crt.normalize_image(frame, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
    >>> x.shape
    (3, 480, 640)
    """
def sort(input: Any, dim: int = -1, descending: builtins.bool = False, stable: builtins.bool = False) -> ValuesIndices:
    """Sorts the elements along a dimension: the sorted values and where they came from.

    Every sort is stable (equal elements keep their order); ascending order puts NaN last.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int, optional
        The dimension to sort along (the last by default).
    descending : bool, optional
        Largest first (False by default).
    stable : bool, optional
        Accepted for PyTorch's signature; the sort is always stable.

    Returns
    -------
    ValuesIndices
        `(values, indices)`: the sorted tensor and the int64 positions along `dim` its
        elements came from.

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> t = crt.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> values, indices = crt.sort(t)
    >>> values.tolist()
    [[1.0, 2.0, 3.0], [0.0, 4.0, 5.0]]
    >>> indices.tolist()
    [[1, 2, 0], [0, 2, 1]]
    >>> crt.sort(t, dim=0, descending=True).values.tolist()
    [[3.0, 5.0, 4.0], [0.0, 1.0, 2.0]]
    """
def argsort(input: Any, dim: int = -1, descending: builtins.bool = False, stable: builtins.bool = False) -> Tensor:
    """The indices that sort the elements along a dimension (the `indices` of `sort`).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int, optional
        The dimension to sort along (the last by default).
    descending : bool, optional
        Largest first (False by default).
    stable : bool, optional
        Accepted for PyTorch's signature; the sort is always stable.

    Returns
    -------
    Tensor
        int64 positions along `dim`, of the input's shape.

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> crt.argsort(crt.tensor([3.0, 1.0, 2.0])).tolist()
    [1, 2, 0]
    >>> crt.argsort(crt.tensor([3.0, 1.0, 2.0]), descending=True).tolist()
    [0, 2, 1]
    """
def topk(
    input: Any, k: int, dim: int = -1, largest: builtins.bool = True, sorted: builtins.bool = True
) -> ValuesIndices:
    """The `k` largest (or smallest) elements along a dimension, and where they came from.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    k : int
        How many elements to keep.
    dim : int, optional
        The dimension to search along (the last by default).
    largest : bool, optional
        The largest elements (True, the default) or the smallest.
    sorted : bool, optional
        Return them in order, largest (smallest) first (True by default).

    Returns
    -------
    ValuesIndices
        `(values, indices)`: `dim` has size `k`; the indices are int64 positions along `dim`.

    Raises
    ------
    InvalidArgumentError
        `k` is larger than the size of `dim`.
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> t = crt.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> values, indices = crt.topk(t, 2)
    >>> values.tolist()
    [[3.0, 2.0], [5.0, 4.0]]
    >>> indices.tolist()
    [[0, 2], [1, 2]]
    >>> crt.topk(t, 1, largest=False).values.tolist()
    [[1.0], [0.0]]
    """
def kthvalue(input: Any, k: int, dim: int = -1, keepdim: builtins.bool = False) -> ValuesIndices:
    """The `k`-th smallest element along a dimension (1-based), and where it came from.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    k : int
        Which element: 1 is the smallest.
    dim : int, optional
        The dimension to search along (the last by default).
    keepdim : bool, optional
        Keep `dim` with size 1 (False by default).

    Returns
    -------
    ValuesIndices
        `(values, indices)`, `dim` removed (or of size 1); int64 indices.

    Raises
    ------
    InvalidArgumentError
        `k` is outside `1..=size` of `dim`.
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> t = crt.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> crt.kthvalue(t, 2).values.tolist()
    [2.0, 4.0]
    >>> crt.kthvalue(t, 2).indices.tolist()
    [2, 2]
    """
@overload
def median(input: Any, dim: None = None, keepdim: builtins.bool = False) -> Tensor:
    """The median: of all elements, or along a dimension with where it came from.

    For an even count this is the lower of the two middle values (PyTorch's rule, not numpy's
    mean of the two).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int, optional
        The dimension to reduce; by default all elements.
    keepdim : bool, optional
        Keep `dim` with size 1 (False by default; only with `dim`).

    Returns
    -------
    Tensor or ValuesIndices
        Without `dim`, a 0-d tensor; with `dim`, `(values, indices)` (int64 indices).

    Raises
    ------
    InvalidArgumentError
        The tensor (or the reduced dimension) is empty.
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> t = crt.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> crt.median(t).item()
    2.0
    >>> values, indices = crt.median(t, 1)
    >>> values.tolist(), indices.tolist()
    ([2.0, 4.0], [2, 2])
    """
@overload
def median(input: Any, dim: int, keepdim: builtins.bool = False) -> ValuesIndices: ...
def any(input: Any, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
    """Whether any element is non-zero (true): over all elements or over `dim`.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values, of any dtype (anything but a tensor is copied as `crt.tensor` would).
    dim : int or tuple of int, optional
        The dimensions to reduce; by default all.
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).

    Returns
    -------
    Tensor
        A bool tensor (0-d without `dim`).

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.

    Examples
    --------
    >>> t = crt.tensor([[0, 1], [0, 0]])
    >>> crt.any(t).item()
    True
    >>> crt.any(t, dim=1).tolist()
    [True, False]
    """
def all(input: Any, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
    """Whether every element is non-zero (true): over all elements or over `dim`.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values, of any dtype (anything but a tensor is copied as `crt.tensor` would).
    dim : int or tuple of int, optional
        The dimensions to reduce; by default all.
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).

    Returns
    -------
    Tensor
        A bool tensor (0-d without `dim`).

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.

    Examples
    --------
    >>> t = crt.tensor([[1, 1], [0, 1]])
    >>> crt.all(t).item()
    False
    >>> crt.all(t, dim=1).tolist()
    [True, False]
    """
def cumsum(input: Any, dim: int, *, dtype: Optional[_DTypeLike] = None) -> Tensor:
    """The running sum along a dimension.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int
        The dimension to sum along.
    dtype : DType or str, optional
        Keyword only. The dtype to compute in and return; by default the input's, except
        that integers and bools give int64 (as PyTorch).

    Returns
    -------
    Tensor
        The input's shape; element `i` along `dim` is the sum of elements `0..=i`.

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.
    DTypeError
        `dtype` names no dtype.

    Examples
    --------
    >>> crt.cumsum(crt.tensor([1, 2, 3]), 0).tolist()
    [1, 3, 6]
    >>> crt.cumsum(crt.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1).tolist()
    [[1.0, 3.0], [3.0, 7.0]]
    """
def cumprod(input: Any, dim: int, *, dtype: Optional[_DTypeLike] = None) -> Tensor:
    """The running product along a dimension.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int
        The dimension to multiply along.
    dtype : DType or str, optional
        Keyword only. The dtype to compute in and return; by default the input's, except
        that integers and bools give int64 (as PyTorch).

    Returns
    -------
    Tensor
        The input's shape; element `i` along `dim` is the product of elements `0..=i`.

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.
    DTypeError
        `dtype` names no dtype.

    Examples
    --------
    >>> crt.cumprod(crt.tensor([1, 2, 3]), 0).tolist()
    [1, 2, 6]
    """
def logsumexp(input: Any, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
    """`log(sum(exp(input)))` over `dim`, computed stably (the maximum is subtracted first).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int or tuple of int, optional
        The dimensions to reduce; by default all.
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).

    Returns
    -------
    Tensor
        The reduced tensor (0-d without `dim`), in a float dtype.

    Raises
    ------
    IndexOutOfRangeError
        A dimension is out of range.

    Examples
    --------
    >>> crt.logsumexp(crt.tensor([0.0, 0.0])).item()
    0.6931471805599453
    >>> crt.logsumexp(crt.tensor([[1000.0, 1000.0]]), dim=1).tolist()
    [1000.6931471805599]
    """
def norm(input: Any, p: Union[float, str, None] = None, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
    """The vector `p`-norm: of all elements, or over `dim`.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    p : float or str, optional
        The order: a number, `float('inf')` (the largest magnitude), `float('-inf')` (the
        smallest), or `'fro'`; None (the default) and `'fro'` mean 2.
    dim : int or tuple of int, optional
        The dimensions to reduce; by default all (the Frobenius norm of a matrix for p=2).
    keepdim : bool, optional
        Keep the reduced dimensions with size 1 (False by default).

    Returns
    -------
    Tensor
        The norm (0-d without `dim`), in a float dtype.

    Raises
    ------
    ValueError
        `p` is a string other than `'fro'`, `'inf'` or `'-inf'` (such as `'nuc'`).
    IndexOutOfRangeError
        A dimension is out of range.

    Examples
    --------
    >>> crt.norm(crt.tensor([3.0, 4.0])).item()
    5.0
    >>> crt.norm(crt.tensor([3.0, -4.0]), p=1).item()
    7.0
    >>> crt.norm(crt.tensor([3.0, -4.0]), p=float("inf")).item()
    4.0
    """
def unique(
    input: Any,
    sorted: builtins.bool = True,
    return_inverse: builtins.bool = False,
    return_counts: builtins.bool = False,
    dim: Optional[int] = None,
) -> Any:
    """The sorted distinct elements, or with `dim` the distinct slices along `dim`.

    With `dim`, the slices `input.select(dim, i)` are compared whole and kept in
    lexicographic order; the other dimensions are kept.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    sorted : bool, optional
        Accepted for PyTorch's signature; the result is always sorted.
    return_inverse : bool, optional
        Also return, for each element (each slice with `dim`), the index of its value in the
        result (False by default).
    return_counts : bool, optional
        Also return how often each value (slice) occurs (False by default).
    dim : int, optional
        Find distinct slices along this dimension; by default distinct elements of the
        flattened input.

    Returns
    -------
    Tensor or tuple of Tensor
        The distinct values (1-D without `dim`); with `return_inverse` or `return_counts` a
        tuple `(values, inverse, counts)` of those asked for. `inverse` has the input's shape
        without `dim`, `[input.shape[dim]]` with it; both are int64.

    Raises
    ------
    IndexOutOfRangeError
        `dim` is out of range.

    Examples
    --------
    >>> crt.unique(crt.tensor([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    >>> values, inverse, counts = crt.unique(
    ...     crt.tensor([3, 1, 3, 2]), return_inverse=True, return_counts=True)
    >>> inverse.tolist(), counts.tolist()
    ([2, 0, 2, 1], [1, 1, 2])
    >>> rows = crt.tensor([[1, 2], [1, 2], [0, 3]])
    >>> values, inverse = crt.unique(rows, dim=0, return_inverse=True)
    >>> values.tolist(), inverse.tolist()
    ([[0, 3], [1, 2]], [1, 1, 0])
    """
def roll(input: Any, shifts: Union[int, Sequence[int]], dims: _Dims = None) -> Tensor:
    """Shifts the elements along dimensions, wrapping around (numpy's and PyTorch's `roll`).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    shifts : int or sequence of int
        How far to shift, one per dimension of `dims` (negative: towards the start).
    dims : int or sequence of int, optional
        The dimensions to shift; None (the default) shifts the flattened tensor and restores
        its shape.

    Returns
    -------
    Tensor
        A new tensor of the input's shape.

    Raises
    ------
    InvalidArgumentError
        `shifts` and `dims` differ in length.
    IndexOutOfRangeError
        A dimension is out of range.

    Examples
    --------
    >>> crt.roll(crt.tensor([1, 2, 3, 4]), 1).tolist()
    [4, 1, 2, 3]
    >>> t = crt.tensor([[1, 2], [3, 4]])
    >>> crt.roll(t, 1, 0).tolist()
    [[3, 4], [1, 2]]
    >>> crt.roll(t, (1, 1), (0, 1)).tolist()
    [[4, 3], [2, 1]]
    """
def linspace(
    start: float, end: float, steps: int, *, dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None
) -> Tensor:
    """`steps` evenly spaced values from `start` to `end`, both included.

    Parameters
    ----------
    start, end : float
        The first and last values.
    steps : int
        How many values (0 gives an empty tensor, 1 gives `start`).
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `crt.float32` by default.
    device : Device or str, optional
        Where the tensor lives; the CPU by default.

    Returns
    -------
    Tensor
        A 1-d tensor of `steps` values.

    Raises
    ------
    OverflowError
        `steps` is negative.
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError, DeviceError
        `device` is not a device name, or not available.

    Examples
    --------
    >>> crt.linspace(0, 1, 5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
def logspace(
    start: float,
    end: float,
    steps: int,
    base: float = 10.0,
    *,
    dtype: Optional[_DTypeLike] = None,
    device: Optional[_DeviceLike] = None,
) -> Tensor:
    """`base ** linspace(start, end, steps)`: values evenly spaced on a log scale.

    Parameters
    ----------
    start, end : float
        The first and last exponents.
    steps : int
        How many values.
    base : float, optional
        The base of the powers, 10 by default.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `crt.float32` by default.
    device : Device or str, optional
        Where the tensor lives; the CPU by default.

    Returns
    -------
    Tensor
        A 1-d tensor of `steps` values.

    Raises
    ------
    OverflowError
        `steps` is negative.
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError, DeviceError
        `device` is not a device name, or not available.

    Examples
    --------
    >>> crt.logspace(0, 3, 4).tolist()
    [1.0, 10.0, 100.0, 1000.0]
    >>> crt.logspace(0, 2, 3, base=2).tolist()
    [1.0, 2.0, 4.0]
    """
def eye(
    n: int, m: Optional[int] = None, *, dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None
) -> Tensor:
    """An `n` by `m` matrix with ones on the diagonal and zeros elsewhere.

    Parameters
    ----------
    n : int
        The number of rows.
    m : int, optional
        The number of columns; `n` by default.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `crt.float32` by default.
    device : Device or str, optional
        Where the tensor lives; the CPU by default.

    Returns
    -------
    Tensor
        A 2-d tensor of shape `(n, m)`.

    Raises
    ------
    OverflowError
        `n` or `m` is negative.
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError, DeviceError
        `device` is not a device name, or not available.

    Examples
    --------
    >>> crt.eye(2, 3, dtype=crt.int32).tolist()
    [[1, 0, 0], [0, 1, 0]]
    """
def full_like(
    input: Any, fill_value: float, *, dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None
) -> Tensor:
    """A new tensor of `input`'s shape with every element equal to `fill_value`.

    Parameters
    ----------
    input : Tensor or array-like
        The tensor whose shape (and, by default, dtype and device) is used; anything else is
        read as `crt.tensor` would.
    fill_value : float
        The value.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `input`'s by default.
    device : Device or str, optional
        Where the tensor lives; `input`'s device by default.

    Returns
    -------
    Tensor
        A contiguous tensor of `input`'s shape.

    Raises
    ------
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError, DeviceError
        `device` is not a device name, or not available.

    Examples
    --------
    >>> crt.full_like(crt.zeros(2, dtype=crt.int32), 3).tolist()
    [3, 3]
    """
def zeros_like(input: Any, *, dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None) -> Tensor:
    """A new tensor of `input`'s shape filled with zeros.

    Parameters
    ----------
    input : Tensor or array-like
        The tensor whose shape (and, by default, dtype and device) is used; anything else is
        read as `crt.tensor` would.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `input`'s by default.
    device : Device or str, optional
        Where the tensor lives; `input`'s device by default.

    Returns
    -------
    Tensor
        A contiguous tensor of `input`'s shape.

    Raises
    ------
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError, DeviceError
        `device` is not a device name, or not available.

    Examples
    --------
    >>> crt.zeros_like(crt.ones(2, 2)).tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """
def ones_like(input: Any, *, dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None) -> Tensor:
    """A new tensor of `input`'s shape filled with ones.

    Parameters
    ----------
    input : Tensor or array-like
        The tensor whose shape (and, by default, dtype and device) is used; anything else is
        read as `crt.tensor` would.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `input`'s by default.
    device : Device or str, optional
        Where the tensor lives; `input`'s device by default.

    Returns
    -------
    Tensor
        A contiguous tensor of `input`'s shape.

    Raises
    ------
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError, DeviceError
        `device` is not a device name, or not available.

    Examples
    --------
    >>> crt.ones_like(crt.arange(3)).tolist()
    [1, 1, 1]
    """
def empty_like(input: Any, *, dtype: Optional[_DTypeLike] = None, device: Optional[_DeviceLike] = None) -> Tensor:
    """A new tensor of `input`'s shape whose values are unspecified.

    Parameters
    ----------
    input : Tensor or array-like
        The tensor whose shape (and, by default, dtype and device) is used; anything else is
        read as `crt.tensor` would.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `input`'s by default.
    device : Device or str, optional
        Where the tensor lives; `input`'s device by default.

    Returns
    -------
    Tensor
        A contiguous tensor of `input`'s shape.

    Raises
    ------
    DTypeError
        `dtype` is not a supported dtype.
    InvalidArgumentError, DeviceError
        `device` is not a device name, or not available.

    Examples
    --------
    >>> crt.empty_like(crt.zeros(2, 3), dtype=crt.int8).shape
    (2, 3)
    """
def manual_seed(seed: int) -> Generator:
    """Seed the default random generator.

    After `manual_seed(s)`, the random functions (`rand`, `randn`, `randint`...) called without
    `generator=` give the same values in the same order, whatever the thread count.

    Parameters
    ----------
    seed : int
        The seed, from 0 to `2**64 - 1`.

    Returns
    -------
    Generator
        The default generator (reseeded).

    Raises
    ------
    OverflowError
        `seed` is negative or does not fit 64 bits.

    Examples
    --------
    >>> _ = crt.manual_seed(0)
    >>> a = crt.rand(3).tolist()
    >>> _ = crt.manual_seed(0)
    >>> crt.rand(3).tolist() == a
    True
    """
def set_printoptions(precision: Optional[int] = None, threshold: Optional[int] = None, edgeitems: Optional[int] = None) -> None:
    """Set how `repr(t)` prints tensors, for the whole process (like numpy's `set_printoptions`).

    Options left as `None` keep their current value. `str(t)` (and `print(t)`) keeps its
    one-line form and is not affected.

    Parameters
    ----------
    precision : int, optional
        Digits after the point for floats (4 at start), at most 30.
    threshold : int, optional
        The element count past which a tensor is summarised with `...` (1000 at start).
    edgeitems : int, optional
        The items kept at each end of a summarised dimension (3 at start).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        `precision` is over 30.
    OverflowError
        An option is negative.

    Examples
    --------
    >>> old = crt.get_printoptions()
    >>> crt.set_printoptions(precision=2)
    >>> crt.get_printoptions()["precision"]
    2
    >>> crt.set_printoptions(**old)
    """
def get_printoptions() -> Dict[str, int]:
    """The current print options of `repr(t)` (see `set_printoptions`).

    Returns
    -------
    dict
        `{"precision": int, "threshold": int, "edgeitems": int}`, a copy: changing it changes
        nothing.

    Examples
    --------
    >>> sorted(crt.get_printoptions())
    ['edgeitems', 'precision', 'threshold']
    """
def rand(
    *shape: _Shape,
    size: Optional[_Shape] = None,
    generator: Optional[Generator] = None,
    dtype: Optional[_DTypeLike] = None,
    device: Optional[_DeviceLike] = None,
) -> Tensor:
    """Uniform random values in `[0, 1)`.

    The values depend only on the generator's seed, the calls since seeding and each
    element's index (never on the thread count), so a seed reproduces them exactly.

    Parameters
    ----------
    *shape : int, or one tuple or list of ints
        The sizes of the dimensions (`rand(2, 3)` or `rand((2, 3))`).
    size : int or sequence of ints, optional
        The shape as a keyword (numpy's spelling), instead of `*shape`.
    generator : Generator, optional
        The generator to draw from; the default one (`crt.manual_seed`) otherwise.
    dtype : DType, numpy dtype, str or Python type, optional
        A float dtype; `crt.float32` by default.
    device : Device or str, optional
        Where the tensor lives (values are generated on the host and moved); the CPU by
        default.

    Returns
    -------
    Tensor
        A new tensor of that shape.

    Raises
    ------
    TypeError
        The shape is given both positionally and as `size=`, or `generator` is not a
        `Generator`.
    InvalidArgumentError
        `dtype` is not a float dtype (use `randint`), or `device` is not a device name.
    ShapeError
        A size is negative.

    Examples
    --------
    >>> t = crt.rand(2, 3, generator=crt.Generator().manual_seed(0))
    >>> t.shape, ((t >= 0) & (t < 1)).all().item()
    ((2, 3), True)
    """
def randn(
    *shape: _Shape,
    size: Optional[_Shape] = None,
    generator: Optional[Generator] = None,
    dtype: Optional[_DTypeLike] = None,
    device: Optional[_DeviceLike] = None,
) -> Tensor:
    """Standard normal random values (mean 0, standard deviation 1).

    The values depend only on the generator's seed, the calls since seeding and each
    element's index (never on the thread count), so a seed reproduces them exactly.

    Parameters
    ----------
    *shape : int, or one tuple or list of ints
        The sizes of the dimensions (`randn(2, 3)` or `randn((2, 3))`).
    size : int or sequence of ints, optional
        The shape as a keyword (numpy's spelling), instead of `*shape`.
    generator : Generator, optional
        The generator to draw from; the default one (`crt.manual_seed`) otherwise.
    dtype : DType, numpy dtype, str or Python type, optional
        A float dtype; `crt.float32` by default.
    device : Device or str, optional
        Where the tensor lives (values are generated on the host and moved); the CPU by
        default.

    Returns
    -------
    Tensor
        A new tensor of that shape.

    Raises
    ------
    TypeError
        The shape is given both positionally and as `size=`, or `generator` is not a
        `Generator`.
    InvalidArgumentError
        `dtype` is not a float dtype, or `device` is not a device name.
    ShapeError
        A size is negative.

    Examples
    --------
    >>> a = crt.randn(4, generator=crt.Generator().manual_seed(1))
    >>> b = crt.randn(4, generator=crt.Generator().manual_seed(1))
    >>> a.tolist() == b.tolist(), a.dtype
    (True, clika_runtime.float32)
    """
def randint(
    *args: Any,
    size: Optional[_Shape] = None,
    generator: Optional[Generator] = None,
    dtype: Optional[_DTypeLike] = None,
    device: Optional[_DeviceLike] = None,
) -> Tensor:
    """Random integers in `[low, high)`, uniformly.

    Called as `randint(high, size)` or `randint(low, high, size)` (PyTorch's order), or with
    `size=` as a keyword.

    Parameters
    ----------
    low : int, optional
        The smallest value, 0 by default.
    high : int
        The bound, not included.
    size : int or sequence of ints
        The shape.
    generator : Generator, optional
        The generator to draw from; the default one (`crt.manual_seed`) otherwise.
    dtype : DType, numpy dtype, str or Python type, optional
        The element type; `crt.int64` by default.
    device : Device or str, optional
        Where the tensor lives; the CPU by default.

    Returns
    -------
    Tensor
        A new tensor of shape `size`.

    Raises
    ------
    TypeError
        The arguments match neither form, or `generator` is not a `Generator`.
    InvalidArgumentError
        `low >= high`, or `device` is not a device name.
    ShapeError
        A size is negative.

    Examples
    --------
    >>> t = crt.randint(3, 7, (100,), generator=crt.Generator().manual_seed(0))
    >>> t.dtype, t.min().item() >= 3, t.max().item() < 7
    (clika_runtime.int64, True, True)
    """
def normal(
    mean: float = 0.0,
    std: float = 1.0,
    size: Optional[_Shape] = None,
    *,
    generator: Optional[Generator] = None,
    dtype: Optional[_DTypeLike] = None,
    device: Optional[_DeviceLike] = None,
) -> Tensor:
    """Normal random values with `mean` and `std`.

    Parameters
    ----------
    mean : float, optional
        The mean, 0 by default.
    std : float, optional
        The standard deviation, 1 by default.
    size : int or sequence of ints, optional
        The shape; a 0-d tensor by default.
    generator : Generator, optional
        The generator to draw from; the default one (`crt.manual_seed`) otherwise.
    dtype : DType, numpy dtype, str or Python type, optional
        A float dtype; `crt.float32` by default.
    device : Device or str, optional
        Where the tensor lives (values are generated on the host and moved); the CPU by
        default.

    Returns
    -------
    Tensor
        A new tensor of shape `size`.

    Raises
    ------
    InvalidArgumentError
        `std` is negative or a parameter is not finite, `dtype` is not a float dtype, or `device` is not a device name.
    TypeError
        `generator` is not a `Generator`.
    ShapeError
        A size is negative.

    Examples
    --------
    >>> crt.normal(5.0, 0.0, (2,)).tolist()
    [5.0, 5.0]
    """
def uniform(
    low: float = 0.0,
    high: float = 1.0,
    size: Optional[_Shape] = None,
    *,
    generator: Optional[Generator] = None,
    dtype: Optional[_DTypeLike] = None,
    device: Optional[_DeviceLike] = None,
) -> Tensor:
    """Uniform random values in `[low, high)` (numpy's `uniform`).

    Parameters
    ----------
    low : float, optional
        The smallest value, 0 by default.
    high : float, optional
        The bound, not included, 1 by default.
    size : int or sequence of ints, optional
        The shape; a 0-d tensor by default.
    generator : Generator, optional
        The generator to draw from; the default one (`crt.manual_seed`) otherwise.
    dtype : DType, numpy dtype, str or Python type, optional
        A float dtype; `crt.float32` by default.
    device : Device or str, optional
        Where the tensor lives (values are generated on the host and moved); the CPU by
        default.

    Returns
    -------
    Tensor
        A new tensor of shape `size`.

    Raises
    ------
    InvalidArgumentError
        `low > high` or a bound is not finite, `dtype` is not a float dtype, or `device` is not a device name.
    TypeError
        `generator` is not a `Generator`.
    ShapeError
        A size is negative.

    Examples
    --------
    >>> t = crt.uniform(-1.0, 1.0, (2, 2))
    >>> t.shape, ((t >= -1) & (t < 1)).all().item()
    ((2, 2), True)
    """
def bernoulli(input: Any, p: Optional[float] = None, *, generator: Optional[Generator] = None) -> Tensor:
    """Random zeros and ones: each element is 1 with probability `p` (or `input`'s element).

    Parameters
    ----------
    input : Tensor, numpy array or list
        Without `p`: the probabilities, each in `[0, 1]`. With `p`: only its shape, dtype
        and device are used.
    p : float, optional
        One probability for every element.
    generator : Generator, optional
        The generator to draw from; the default one (`crt.manual_seed`) otherwise.

    Returns
    -------
    Tensor
        A new tensor of `input`'s shape, dtype and device.

    Raises
    ------
    InvalidArgumentError
        `p` or a probability of `input` lies outside `[0, 1]`.
    TypeError
        `generator` is not a `Generator`.

    Examples
    --------
    >>> crt.bernoulli(crt.tensor([0.0, 1.0, 1.0])).tolist()
    [0.0, 1.0, 1.0]
    >>> crt.bernoulli(crt.zeros(3), p=1.0).tolist()
    [1.0, 1.0, 1.0]
    """

def gather(input: Any, dim: int, index: Any) -> Tensor:
    """Picks elements along a dimension by index (PyTorch's `gather`, numpy's `take_along_axis`).

    `out[p] = input[p with p[dim] replaced by index[p]]` for every position `p` of `index`.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (anything but a tensor is copied as `crt.tensor` would).
    dim : int
        The dimension the index values point along (negative counts from the end).
    index : Tensor, numpy array or list of ints
        Integers, with `input`'s number of dims and, off `dim`, no larger than `input`.
        Negative values count from the end (numpy; PyTorch refuses them).

    Returns
    -------
    Tensor
        A new tensor of `index`'s shape and `input`'s dtype.

    Raises
    ------
    IndexOutOfRangeError
        An index value or `dim` is out of range.
    ShapeError
        `index` is larger than `input` off `dim`.
    InvalidArgumentError
        `index` is not an integer tensor, or has another number of dims.

    Examples
    --------
    >>> t = crt.tensor([[1, 2], [3, 4]])
    >>> crt.gather(t, 1, crt.tensor([[0, 0], [1, 0]])).tolist()
    [[1, 1], [4, 3]]
    >>> crt.gather(t, 0, [[1, 0]]).tolist()
    [[3, 2]]
    """
def scatter(input: Any, dim: int, index: Any, src: Optional[Any] = None, *, value: Optional[_Scalar] = None) -> Tensor:
    """A copy of `input` with `src`'s values written where `index` points along `dim`
    (PyTorch's `scatter`, numpy's `put_along_axis`).

    `out[p with p[dim] replaced by index[p]] = src[p]` for every position `p` of `index`; where
    `index` repeats a target, the last write in row-major order wins.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values to start from.
    dim : int
        The dimension the index values point along.
    index : Tensor, numpy array or list of ints
        Integers, with `input`'s number of dims and, off `dim`, no larger than `input`;
        negative values count from the end.
    src : Tensor or number, optional
        The values: a tensor at least as large as `index` in every dim (its leading part is
        used), or a number; converted to `input`'s dtype.
    value : number, optional
        Keyword only. A number to write instead of `src` (PyTorch's form).

    Returns
    -------
    Tensor
        A new tensor of `input`'s shape and dtype.

    Raises
    ------
    IndexOutOfRangeError
        An index value or `dim` is out of range.
    ShapeError
        `index` is larger than `input` off `dim`, or `src` smaller than `index`.
    InvalidArgumentError
        Both or neither of `src` and `value` are given.

    Examples
    --------
    >>> t = crt.zeros(2, 3)
    >>> crt.scatter(t, 1, crt.tensor([[2], [0]]), crt.tensor([[5.0], [7.0]])).tolist()
    [[0.0, 0.0, 5.0], [7.0, 0.0, 0.0]]
    >>> crt.scatter(t, 0, crt.tensor([[1, 0, 1]]), value=1.0).tolist()
    [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]
    """
def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Tensor:
    """A copy of `input` with `src`'s values added where `index` points along `dim`
    (PyTorch's `scatter_add`, numpy's `np.add.at` along an axis).

    `out[p with p[dim] replaced by index[p]] += src[p]` for every position `p` of `index`;
    repeated targets accumulate, in row-major order of `index` (so float results do not depend on
    threads), except that a sum of at least 131,072 positions along the index's only dim longer
    than 1 into a target under a quarter of its size (a histogram) runs as up to 16 fixed blocks
    of positions, each summed from zero, then added to the target in order (the same on any
    thread count; it may differ from one pass in the last bits, as PyTorch's does). Integers
    wrap; a bool target is or-ed.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values to start from.
    dim : int
        The dimension the index values point along.
    index : Tensor, numpy array or list of ints
        Integers, with `input`'s number of dims and, off `dim`, no larger than `input`;
        negative values count from the end.
    src : Tensor or number
        The values to add: a tensor at least as large as `index` in every dim (its leading part
        is used), or a number; converted to `input`'s dtype.

    Returns
    -------
    Tensor
        A new tensor of `input`'s shape and dtype.

    Raises
    ------
    IndexOutOfRangeError
        An index value or `dim` is out of range.
    ShapeError
        `index` is larger than `input` off `dim`, or `src` smaller than `index`.

    Examples
    --------
    >>> counts = crt.scatter_add(crt.zeros(4, dtype=crt.int64), 0, crt.tensor([1, 3, 1, 1]), 1)
    >>> counts.tolist()
    [0, 3, 0, 1]
    >>> crt.scatter_add(crt.zeros(1, 2), 1, [[0, 0, 1]], crt.tensor([[1.0, 2.0, 4.0]])).tolist()
    [[3.0, 4.0]]
    """
def scatter_reduce(
    input: Any, dim: int, index: Any, src: Any, reduce: str, *, include_self: builtins.bool = True
) -> Tensor:
    """A copy of `input` with `src`'s values combined by `reduce` where `index` points along `dim`
    (PyTorch's `scatter_reduce`).

    For every position `p` of `index`, `src[p]` is folded into
    `out[p with p[dim] replaced by index[p]]`. Values combine in row-major order of `index`, so
    float results do not depend on threads (a long 1-D `"sum"` or `"mean"` into a small target
    adds fixed blocks in order, as `scatter_add` describes). With `include_self` (the default) each target's own
    value takes part; without, a target the index reaches ends as the reduction of the values
    that reach it alone. Targets the index does not reach keep their value.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values to start from.
    dim : int
        The dimension the index values point along.
    index : Tensor, numpy array or list of ints
        Integers, with `input`'s number of dims and, off `dim`, no larger than `input`;
        negative values count from the end.
    src : Tensor or number
        The values: a tensor at least as large as `index` in every dim (its leading part is
        used), or a number; converted to `input`'s dtype.
    reduce : str
        `"sum"`, `"prod"` (integers wrap), `"mean"` (integers divide with the floor, as
        PyTorch's), `"amax"` or `"amin"` (a NaN wins).
    include_self : bool, keyword-only
        Whether the target's own value takes part (default True).

    Returns
    -------
    Tensor
        A new tensor of `input`'s shape and dtype.

    Raises
    ------
    IndexOutOfRangeError
        An index value or `dim` is out of range.
    ShapeError
        `index` is larger than `input` off `dim`, or `src` smaller than `index`.
    InvalidArgumentError
        An unknown `reduce`, or `"mean"` of a bool tensor.

    Examples
    --------
    >>> t = crt.tensor([1.0, 10.0, 100.0])
    >>> crt.scatter_reduce(t, 0, crt.tensor([0, 0, 2]), crt.tensor([5.0, 3.0, 7.0]), "amax").tolist()
    [5.0, 10.0, 100.0]
    >>> crt.scatter_reduce(t, 0, [0, 0, 2], crt.tensor([5.0, 3.0, 7.0]), "mean", include_self=False).tolist()
    [4.0, 10.0, 7.0]
    """
def histc(input: Any, bins: int = 100, min: float = 0.0, max: float = 0.0) -> Tensor:
    """A histogram of a tensor's values in equal bins (PyTorch's `histc`).

    `out[b]` counts the elements `x` of `input` with `min <= x <= max` whose
    `floor((x - min) * bins / (max - min))` is `b`; `max` itself falls in the last bin, and
    elements outside the range, and NaN, count nowhere. With `min == max` (the default `0, 0`)
    the range is the data's smallest and largest value, one either side of it if those are
    equal. The bin is computed in float64 (PyTorch computes in the input's precision, so a value
    within its rounding of a bin edge may land in the neighbouring bin there). numpy's
    `np.histogram(x, bins, (min, max))` counts the same bins (it returns the edges too).

    Parameters
    ----------
    input : Tensor, numpy array or list
        Any shape (every element counts), a float dtype (as PyTorch; convert integers with
        `.to(crt.float32)`, or count non-negative integers with `crt.bincount`).
    bins : int, default 100
        The number of bins, at least 1.
    min, max : float, default 0
        The range; `min == max` takes the data's.

    Returns
    -------
    Tensor
        1-D, `bins` long, of `input`'s dtype.

    Raises
    ------
    InvalidArgumentError
        `input` is not of a float dtype, `bins < 1`, `min > max`, or the range is not finite
        (the data's own range holds a NaN or an infinity).

    Examples
    --------
    >>> crt.histc(crt.tensor([0.0, 1.0, 2.0, 3.0, 4.0]), bins=4, min=1, max=3).tolist()
    [1.0, 0.0, 1.0, 1.0]
    >>> crt.histc(crt.tensor([1.0, 2.0, 1.0, 4.0]), bins=3).tolist()
    [2.0, 1.0, 1.0]
    """
def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """How often each value of a 1-D tensor of non-negative integers occurs, or the sum of its
    weights (PyTorch's `bincount`, numpy's `np.bincount`).

    `out[v]` counts the elements of `input` equal to `v`, over `max(input) + 1` bins, or
    `minlength` bins if that is more (`minlength` bins for an empty input). With `weights`,
    `out[v]` is the sum of the weights of those elements. A long input is summed in parallel,
    in fixed blocks: float sums are the same on any thread count (see `crt.scatter_add`).

    Parameters
    ----------
    input : Tensor, numpy array or list of ints
        A 1-D tensor of any integer dtype (not bool, as PyTorch), no negative value.
    weights : Tensor, numpy array or list, optional
        One weight per element of `input`.
    minlength : int, default 0
        The fewest bins in the result.

    Returns
    -------
    Tensor
        1-D, `int64` without weights; with them `float32` for `float32` weights and `float64`
        for any other dtype, as PyTorch (numpy: always `float64`).

    Raises
    ------
    InvalidArgumentError
        `input` is not 1-D, holds floats or bools or a negative value, or `minlength` is
        negative.
    ShapeError
        `weights` does not have `input`'s length.

    Examples
    --------
    >>> crt.bincount(crt.tensor([1, 3, 3, 0])).tolist()
    [1, 1, 0, 2]
    >>> crt.bincount([2, 2], minlength=4).tolist()
    [0, 0, 2, 0]
    >>> crt.bincount(crt.tensor([0, 1, 1]), weights=crt.tensor([0.5, 1.0, 2.0])).tolist()
    [0.5, 3.0]
    """
def index_add(
    input: Any, dim: int, index: Any, source: Any, *, alpha: _Scalar = 1
) -> Tensor:
    """A copy of `input` with `alpha * source` added along `dim` at the positions `index` lists
    (PyTorch's `index_add`, numpy's `np.add.at(a, (..., index), source)`).

    `out[..., index[i], ...] += alpha * source[..., i, ...]` along `dim` for every `i`; a repeated
    index accumulates, in order (so float results do not depend on threads; into a 1-D tensor
    from a long index, fixed blocks added in order, as `scatter_add` describes). Integers wrap; a
    bool target is or-ed.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values to start from.
    dim : int
        The dimension `index` points along.
    index : Tensor, numpy array or list of ints
        A 1-D list of positions along `dim`; negative values count from the end.
    source : Tensor, numpy array or list
        `input`'s shape but along `dim`, where it has `index`'s length. Converted to `input`'s
        dtype, which must not lose values (a float source for an integer `input` is refused).
    alpha : number, keyword-only, default 1
        The factor `source` is multiplied by; an integer for an integer `input`.

    Returns
    -------
    Tensor
        A new tensor of `input`'s shape and dtype.

    Raises
    ------
    IndexOutOfRangeError
        An index value or `dim` is out of range.
    ShapeError
        `source` is not `input`'s shape with `index`'s length along `dim`.
    InvalidArgumentError
        `index` is not a 1-D integer tensor.
    DTypeError
        A float `source` or `alpha` for an integer or bool `input`.

    Examples
    --------
    >>> crt.index_add(crt.zeros(3, 2), 0, [2, 0, 2], crt.ones(3, 2)).tolist()
    [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]
    >>> crt.index_add(crt.zeros(2, 3), 1, [1], crt.tensor([[1.0], [2.0]]), alpha=-0.5).tolist()
    [[0.0, -0.5, 0.0], [0.0, -1.0, 0.0]]
    """
def index_select(input: Any, dim: int, index: Any) -> Tensor:
    """The entries of `input` at `index` along `dim` (PyTorch's `index_select`, numpy's `take`
    along an axis).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values.
    dim : int
        The dimension to pick along.
    index : Tensor, numpy array or list of ints
        Integers of any shape (PyTorch: 1-D); negative values count from the end.

    Returns
    -------
    Tensor
        A new tensor: `input`'s shape with dim `dim` replaced by `index`'s shape.

    Raises
    ------
    IndexOutOfRangeError
        An index value or `dim` is out of range.

    Examples
    --------
    >>> t = crt.tensor([[1, 2, 3], [4, 5, 6]])
    >>> crt.index_select(t, 1, crt.tensor([2, 0])).tolist()
    [[3, 1], [6, 4]]
    >>> crt.index_select(t, 0, [-1]).tolist()
    [[4, 5, 6]]
    """
def masked_select(input: Any, mask: Any) -> Tensor:
    """The elements of `input` where `mask` is true, as a 1-D tensor in row-major order
    (PyTorch's `masked_select`).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values.
    mask : Tensor, numpy array or list of bools
        Broadcast with `input` (both are broadcast to their common shape).

    Returns
    -------
    Tensor
        A new 1-D tensor of `input`'s dtype.

    Raises
    ------
    ShapeError
        `mask` and `input` do not broadcast.

    Examples
    --------
    >>> t = crt.tensor([[1, 2], [3, 4]])
    >>> crt.masked_select(t, t > 1).tolist()
    [2, 3, 4]
    >>> crt.masked_select(t, crt.tensor([True, False])).tolist()
    [1, 3]
    """
def masked_fill(input: Any, mask: Any, value: Union[_Scalar, Tensor]) -> Tensor:
    """A copy of `input` with `value` where `mask` is true (PyTorch's `masked_fill`, numpy's
    `np.where(mask, value, a)` in `a`'s dtype).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values.
    mask : Tensor, numpy array or list of bools
        Broadcast to `input`'s shape.
    value : number or one-element Tensor
        Converted to `input`'s dtype (an integer out of its range raises).

    Returns
    -------
    Tensor
        A new tensor of `input`'s shape and dtype.

    Raises
    ------
    ShapeError
        `mask` does not broadcast to `input`'s shape.
    InvalidArgumentError
        `value` is a tensor of more than one element.

    Examples
    --------
    >>> t = crt.tensor([1.0, -2.0, 3.0])
    >>> crt.masked_fill(t, t < 0, 0.0).tolist()
    [1.0, 0.0, 3.0]
    """
@overload
def nonzero(input: Any, *, as_tuple: Literal[False] = False) -> Tensor:
    """The indices of the non-zero elements (PyTorch's `nonzero`; numpy's `argwhere`, or with
    `as_tuple=True` numpy's `nonzero`).

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values (any dtype; true and non-zero count).
    as_tuple : bool, optional
        Keyword only. Return one 1-D index tensor per dim instead of one `[count, ndim]` tensor.

    Returns
    -------
    Tensor or tuple of Tensor
        An int64 tensor `[count, ndim]`, rows in row-major order; or a tuple of `ndim` int64
        vectors of length `count`.

    Examples
    --------
    >>> t = crt.tensor([[0, 5], [7, 0]])
    >>> crt.nonzero(t).tolist()
    [[0, 1], [1, 0]]
    >>> [i.tolist() for i in crt.nonzero(t, as_tuple=True)]
    [[0, 1], [1, 0]]
    """
@overload
def nonzero(input: Any, *, as_tuple: Literal[True]) -> Tuple[Tensor, ...]: ...
def amax(input: Any, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
    """The largest values over the given dims (PyTorch's `amax`, numpy's `max`): values only, no
    indices. NaN propagates.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values.
    dim : int or tuple of int, optional
        The dims to reduce; all of them when omitted or `()`.
    keepdim : bool, optional
        Keep the reduced dims with size 1.

    Returns
    -------
    Tensor
        The largest values, of `input`'s dtype.

    Raises
    ------
    InvalidArgumentError
        A reduced dim is empty (there is no largest value).

    Examples
    --------
    >>> t = crt.tensor([[1, 5], [7, 2]])
    >>> crt.amax(t, dim=1).tolist()
    [5, 7]
    >>> crt.amax(t).item()
    7
    """
def amin(input: Any, dim: _Dims = None, keepdim: builtins.bool = False) -> Tensor:
    """The smallest values over the given dims (PyTorch's `amin`, numpy's `min`): values only, no
    indices. NaN propagates.

    Parameters
    ----------
    input : Tensor, numpy array or list
        The values.
    dim : int or tuple of int, optional
        The dims to reduce; all of them when omitted or `()`.
    keepdim : bool, optional
        Keep the reduced dims with size 1.

    Returns
    -------
    Tensor
        The smallest values, of `input`'s dtype.

    Raises
    ------
    InvalidArgumentError
        A reduced dim is empty (there is no smallest value).

    Examples
    --------
    >>> t = crt.tensor([[1, 5], [7, 2]])
    >>> crt.amin(t, dim=1).tolist()
    [1, 2]
    >>> crt.amin(t).item()
    1
    """
