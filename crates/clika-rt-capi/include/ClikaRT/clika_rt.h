// ClikaRT C++ API: a header-only C++17 wrapper over the C ABI in <ClikaRT/clika_rt_c.h>.
//
// Thin RAII only, no logic beyond forwarding:
//  - ClikaRT::Tensor owns one reference to a tensor; copying it bumps the reference count
//    (no data is copied), moving it is free, and the destructor drops the reference.
//  - Every failure throws ClikaRT::Error (a std::runtime_error with the C status).
//  - ClikaRT::ops:: holds the operations (add, exp, sum(t, dims, keepdim), matmul, cat, ...);
//    Tensor has the operators + - * / (with tensors or numbers), elementwise comparisons
//    giving Bool tensors, and the in-place forms (+= add_ fill_ copy_ ...), which write
//    through shared memory as PyTorch does.
//  - Tensor::from_blob wraps memory you own without copying. Without a deleter the memory is
//    BORROWED: keep it alive, and its layout unchanged, while any tensor over it exists. With
//    a deleter (any callable taking void*) it is ADOPTED: the deleter runs exactly once, when
//    the last tensor over the memory drops; an exception it throws is caught and swallowed
//    here and never crosses into the runtime. If from_blob throws, ownership was NOT taken:
//    the deleter is not called and you still own the buffer.
//
// Link with `pkg-config --cflags --libs clika_rt`, or CMake's find_package(ClikaRT) and the
// target ClikaRT::clika_rt.
#ifndef CLIKA_RT_HPP
#define CLIKA_RT_HPP

#include <ClikaRT/clika_rt_c.h>
#include <algorithm>

#include <cstddef>
#include <cstdint>
#include <array>
#include <climits>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ClikaRT {

/// The C ABI's status codes (stable numbers).
enum class Status : std::uint32_t {
    Ok = CRT_STATUS_OK,
    NullPointer = CRT_STATUS_NULL_POINTER,
    InvalidShape = CRT_STATUS_INVALID_SHAPE,
    Misaligned = CRT_STATUS_MISALIGNED,
    DType = CRT_STATUS_DTYPE,
    Layout = CRT_STATUS_LAYOUT,
    Index = CRT_STATUS_INDEX,
    OutOfMemory = CRT_STATUS_OUT_OF_MEMORY,
    Device = CRT_STATUS_DEVICE,
    ReadOnly = CRT_STATUS_READ_ONLY,
    InvalidArgument = CRT_STATUS_INVALID_ARGUMENT,
    Internal = CRT_STATUS_INTERNAL,
};

/// Every runtime failure: the status and the runtime's message (which names the fix).
class Error : public std::runtime_error {
public:
    Error(Status status, const std::string& message)
        : std::runtime_error(message), status_(status) {}
    Status status() const noexcept { return status_; }

private:
    Status status_;
};

/// Element types (the numbers are the C ABI's CRT_DTYPE_*).
enum class DataType : std::uint32_t {
    Float32 = CRT_DTYPE_FLOAT32,
    Float64 = CRT_DTYPE_FLOAT64,
    Float16 = CRT_DTYPE_FLOAT16,
    BFloat16 = CRT_DTYPE_BFLOAT16,
    Int8 = CRT_DTYPE_INT8,
    Int16 = CRT_DTYPE_INT16,
    Int32 = CRT_DTYPE_INT32,
    Int64 = CRT_DTYPE_INT64,
    UInt8 = CRT_DTYPE_UINT8,
    Bool = CRT_DTYPE_BOOL,
    UInt16 = CRT_DTYPE_UINT16,
    UInt32 = CRT_DTYPE_UINT32,
    UInt64 = CRT_DTYPE_UINT64,
};

/// The name the runtime prints ("Float32").
inline const char* dtype_name(DataType d) noexcept {
    switch (d) {
        case DataType::Float32: return "Float32";
        case DataType::Float64: return "Float64";
        case DataType::Float16: return "Float16";
        case DataType::BFloat16: return "BFloat16";
        case DataType::Int8: return "Int8";
        case DataType::Int16: return "Int16";
        case DataType::Int32: return "Int32";
        case DataType::Int64: return "Int64";
        case DataType::UInt8: return "UInt8";
        case DataType::Bool: return "Bool";
        case DataType::UInt16: return "UInt16";
        case DataType::UInt32: return "UInt32";
        case DataType::UInt64: return "UInt64";
    }
    return "Unknown";
}

inline std::ostream& operator<<(std::ostream& os, DataType d) { return os << dtype_name(d); }

/// Device kinds (the numbers are the C ABI's CRT_DEVICE_*).
enum class DeviceKind : std::uint32_t {
    CPU = CRT_DEVICE_CPU,
    GPU = CRT_DEVICE_GPU,
    AUTO = CRT_DEVICE_AUTO,
};

/// A device: kind and ordinal.
class Device {
public:
    constexpr Device() noexcept = default;
    constexpr Device(DeviceKind kind, std::uint32_t ordinal) noexcept
        : kind_(kind), ordinal_(ordinal) {}
    static constexpr Device cpu() noexcept { return Device(); }
    static constexpr Device gpu(std::uint32_t ordinal = 0) noexcept {
        return Device(DeviceKind::GPU, ordinal);
    }
    /// Automatic placement: the best available accelerator, else the CPU (one warning on
    /// stderr; see device::set_fallback_warnings).
    static constexpr Device auto_() noexcept { return Device(DeviceKind::AUTO, 0); }
    constexpr DeviceKind kind() const noexcept { return kind_; }
    constexpr std::uint32_t ordinal() const noexcept { return ordinal_; }
    constexpr bool is_cpu() const noexcept { return kind_ == DeviceKind::CPU; }
    /// "CPU", "GPU:N" or "auto", as the runtime prints it.
    std::string str() const {
        if (kind_ == DeviceKind::AUTO) return "auto";
        return is_cpu() ? std::string("CPU") : "GPU:" + std::to_string(ordinal_);
    }
    constexpr crt_device c() const noexcept {
        return crt_device{static_cast<crt_device_kind>(kind_), ordinal_};
    }
    static constexpr Device from_c(crt_device d) noexcept {
        return Device(static_cast<DeviceKind>(d.kind), d.ordinal);
    }
    friend constexpr bool operator==(Device a, Device b) noexcept {
        return a.kind_ == b.kind_ && a.ordinal_ == b.ordinal_;
    }
    friend constexpr bool operator!=(Device a, Device b) noexcept { return !(a == b); }

private:
    DeviceKind kind_ = DeviceKind::CPU;
    std::uint32_t ordinal_ = 0;
};

inline std::ostream& operator<<(std::ostream& os, Device d) { return os << d.str(); }

namespace detail {
/// Whether R is a contiguous range of integers (not characters): std::vector, std::array,
/// std::span, a C array, ... — anything with std::data and std::size.
template <class R, class = void>
struct is_int_range : std::false_type {};
template <class R>
struct is_int_range<R, std::void_t<decltype(std::data(std::declval<const R&>())),
                                   decltype(std::size(std::declval<const R&>()))>> {
    using E = std::remove_cv_t<std::remove_reference_t<decltype(*std::data(std::declval<const R&>()))>>;
    static constexpr bool value = std::is_integral<E>::value && !std::is_same<E, bool>::value &&
                                  !std::is_same<E, char>::value &&
                                  !std::is_same<E, signed char>::value &&
                                  !std::is_same<E, unsigned char>::value;
};
}  // namespace detail

/// Sizes or strides (strides are in elements): a std::vector<std::int64_t> that also converts
/// from any contiguous range of integers (std::vector<std::size_t>, std::array, std::span,
/// C arrays) and from brace lists of any one integer type. An unsigned value above INT64_MAX
/// throws Error(Status::InvalidShape).
class Shape : public std::vector<std::int64_t> {
public:
    using std::vector<std::int64_t>::vector;
    Shape() = default;
    template <class R, std::enable_if_t<detail::is_int_range<R>::value &&
                                            !std::is_base_of<std::vector<std::int64_t>, R>::value,
                                        int> = 0>
    Shape(const R& values) {  // NOLINT(google-explicit-constructor): a shape is its values
        assign_from(std::data(values), std::size(values));
    }
    Shape(const std::vector<std::int64_t>& values) : std::vector<std::int64_t>(values) {}
    template <class I, std::enable_if_t<std::is_integral<I>::value, int> = 0>
    Shape(std::initializer_list<I> values) {
        assign_from(values.begin(), values.size());
    }

private:
    template <class I>
    void assign_from(const I* p, std::size_t n) {
        reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            if constexpr (std::is_unsigned<I>::value) {
                if (p[i] > static_cast<std::make_unsigned_t<std::int64_t>>(INT64_MAX))
                    throw Error(Status::InvalidShape,
                                "shape value " + std::to_string(p[i]) +
                                    " does not fit int64_t; sizes and strides must be < 2^63");
            }
            push_back(static_cast<std::int64_t>(p[i]));
        }
    }
};

/// How Tensor::from_blob treats the memory; `{}` means: on the CPU, not pinned, writable.
struct BlobOptions {
    /// Where the memory lives: the CPU, or `Device::cuda(n)` for a CUDA device pointer another
    /// library allocated (checked with the driver; an adopted deleter runs after the
    /// runtime's queued work on the device).
    Device device = Device::cpu();
    /// Asserts the pages are already page-locked for this device (a tag only; pins nothing).
    std::optional<Device> pinned_for = std::nullopt;
    /// The runtime must never write this memory.
    bool read_only = false;
};

/// Elementwise binary operations (the numbers are the C ABI's CRT_BINARY_*).
enum class BinaryOp : std::uint32_t {
    Add = CRT_BINARY_ADD,
    Sub = CRT_BINARY_SUB,
    Mul = CRT_BINARY_MUL,
    Div = CRT_BINARY_DIV,
    Pow = CRT_BINARY_POW,
    Maximum = CRT_BINARY_MAXIMUM,
    Minimum = CRT_BINARY_MINIMUM,
    Eq = CRT_BINARY_EQ,
    Ne = CRT_BINARY_NE,
    Lt = CRT_BINARY_LT,
    Le = CRT_BINARY_LE,
    Gt = CRT_BINARY_GT,
    Ge = CRT_BINARY_GE,
    Atan2 = CRT_BINARY_ATAN2,
    Hypot = CRT_BINARY_HYPOT,
    Fmod = CRT_BINARY_FMOD,
    Remainder = CRT_BINARY_REMAINDER,
    FloorDivide = CRT_BINARY_FLOOR_DIVIDE,
    BitwiseAnd = CRT_BINARY_BITWISE_AND,
    BitwiseOr = CRT_BINARY_BITWISE_OR,
    BitwiseXor = CRT_BINARY_BITWISE_XOR,
    BitwiseLeftShift = CRT_BINARY_BITWISE_LEFT_SHIFT,
    BitwiseRightShift = CRT_BINARY_BITWISE_RIGHT_SHIFT,
    LogicalAnd = CRT_BINARY_LOGICAL_AND,
    LogicalOr = CRT_BINARY_LOGICAL_OR,
    LogicalXor = CRT_BINARY_LOGICAL_XOR,
};

/// Elementwise unary operations (the numbers are the C ABI's CRT_UNARY_*).
enum class UnaryOp : std::uint32_t {
    Neg = CRT_UNARY_NEG,
    Abs = CRT_UNARY_ABS,
    Relu = CRT_UNARY_RELU,
    Exp = CRT_UNARY_EXP,
    Log = CRT_UNARY_LOG,
    Sqrt = CRT_UNARY_SQRT,
    Rsqrt = CRT_UNARY_RSQRT,
    Sin = CRT_UNARY_SIN,
    Cos = CRT_UNARY_COS,
    Tanh = CRT_UNARY_TANH,
    Sigmoid = CRT_UNARY_SIGMOID,
    Gelu = CRT_UNARY_GELU,
    Silu = CRT_UNARY_SILU,
    Erf = CRT_UNARY_ERF,
    Round = CRT_UNARY_ROUND,
    Floor = CRT_UNARY_FLOOR,
    Ceil = CRT_UNARY_CEIL,
    Trunc = CRT_UNARY_TRUNC,
    Sign = CRT_UNARY_SIGN,
    IsNan = CRT_UNARY_ISNAN,
    IsInf = CRT_UNARY_ISINF,
    IsFinite = CRT_UNARY_ISFINITE,
    Log1p = CRT_UNARY_LOG1P,
    Expm1 = CRT_UNARY_EXPM1,
    Log2 = CRT_UNARY_LOG2,
    Log10 = CRT_UNARY_LOG10,
    Exp2 = CRT_UNARY_EXP2,
    Tan = CRT_UNARY_TAN,
    Atan = CRT_UNARY_ATAN,
    Asin = CRT_UNARY_ASIN,
    Acos = CRT_UNARY_ACOS,
    Sinh = CRT_UNARY_SINH,
    Cosh = CRT_UNARY_COSH,
    BitwiseNot = CRT_UNARY_BITWISE_NOT,
    LogicalNot = CRT_UNARY_LOGICAL_NOT,
};

/// Reductions (the numbers are the C ABI's CRT_REDUCE_*).
enum class ReduceOp : std::uint32_t {
    Sum = CRT_REDUCE_SUM,
    Mean = CRT_REDUCE_MEAN,
    Prod = CRT_REDUCE_PROD,
    Max = CRT_REDUCE_MAX,
    Min = CRT_REDUCE_MIN,
    ArgMax = CRT_REDUCE_ARGMAX,
    ArgMin = CRT_REDUCE_ARGMIN,
    Var = CRT_REDUCE_VAR,
    Std = CRT_REDUCE_STD,
};

/// A "weak" scalar operand, like a Python number: bool, integer or floating point. It only
/// decides the result's dtype when it is of a higher kind than the tensor (bool < integer <
/// float), and then gives that kind's default: an Int8 tensor + 1 stays Int8, an Int8 tensor
/// * 0.5f is Float32, a Bool tensor + 1 is Int64. Implicit from any arithmetic type
/// (integers are held as int64_t: unsigned values above INT64_MAX wrap, which a UInt64
/// tensor reads back as the same unsigned value).
class Scalar {
public:
    template <class T, std::enable_if_t<std::is_same<T, bool>::value, int> = 0>
    constexpr Scalar(T v) noexcept : s_{CRT_SCALAR_BOOL, v ? 1 : 0, 0.0} {}
    template <class T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value,
                                        int> = 0>
    constexpr Scalar(T v) noexcept : s_{CRT_SCALAR_INT, static_cast<std::int64_t>(v), 0.0} {}
    template <class T, std::enable_if_t<std::is_floating_point<T>::value, int> = 0>
    constexpr Scalar(T v) noexcept : s_{CRT_SCALAR_FLOAT, 0, static_cast<double>(v)} {}
    /// The C form.
    constexpr crt_scalar c() const noexcept { return s_; }

private:
    crt_scalar s_;
};

namespace detail {

struct ErrorFree {
    void operator()(crt_error* e) const noexcept { crt_error_free(e); }
};
struct TensorFree {
    void operator()(crt_tensor* t) const noexcept { crt_tensor_free(t); }
};
struct StringFree {
    void operator()(char* s) const noexcept { crt_string_free(s); }
};

/// Throws ClikaRT::Error for a failed status; frees the C error either way.
inline void check(crt_status status, crt_error* raw) {
    const std::unique_ptr<crt_error, ErrorFree> err(raw);
    if (status == CRT_STATUS_OK) return;
    throw Error(static_cast<Status>(status),
                err ? std::string(crt_error_message(err.get())) : std::string("unknown error"));
}

/// Calls `f(&err)` (a C function taking the error out-pointer last) and checks the result.
template <class F>
void call(F&& f) {
    crt_error* err = nullptr;
    const crt_status status = std::forward<F>(f)(&err);
    check(status, err);
}

/// A type-erased deleter, owned by the runtime from the moment from_blob succeeds.
struct DeleterBase {
    DeleterBase() = default;
    DeleterBase(const DeleterBase&) = delete;
    DeleterBase& operator=(const DeleterBase&) = delete;
    virtual ~DeleterBase() = default;
    virtual void run(void* data) = 0;
};

template <class F>
struct DeleterImpl final : DeleterBase {
    explicit DeleterImpl(F fn) : f(std::move(fn)) {}
    void run(void* data) override { f(data); }
    F f;
};

/// The C deleter: runs the callable once, swallows any exception (it must never cross into
/// the runtime), then frees the callable.
inline void run_deleter(void* data, void* ctx) noexcept {
    DeleterBase* d = static_cast<DeleterBase*>(ctx);
    try {
        d->run(data);
    } catch (...) {  // documented: a throwing deleter is swallowed, and reported
        crt_deleter_report_failure();
    }
    delete d;
}

/// Whether a deleter argument is "no deleter" (nullptr, a null function pointer, an empty
/// std::function): such a from_blob borrows, as a NULL deleter does in the C ABI.
template <class F>
bool is_null_callable(const F&) noexcept {
    return false;
}
template <class R, class... A>
bool is_null_callable(R (*f)(A...)) noexcept {
    return f == nullptr;
}
template <class R, class... A>
bool is_null_callable(const std::function<R(A...)>& f) noexcept {
    return !f;
}
inline bool is_null_callable(std::nullptr_t) noexcept { return true; }

template <class F>
std::unique_ptr<DeleterBase> make_deleter(F&& f) {
    if constexpr (std::is_null_pointer<std::decay_t<F>>::value) {
        return nullptr;
    } else {
        if (is_null_callable(f)) return nullptr;
        return std::unique_ptr<DeleterBase>(new DeleterImpl<std::decay_t<F>>(std::forward<F>(f)));
    }
}

/// The element type of a C++ type, for from_data.
template <class T>
struct dtype_of;
template <> struct dtype_of<float> { static constexpr DataType value = DataType::Float32; };
template <> struct dtype_of<double> { static constexpr DataType value = DataType::Float64; };
template <> struct dtype_of<std::int8_t> { static constexpr DataType value = DataType::Int8; };
template <> struct dtype_of<std::int16_t> { static constexpr DataType value = DataType::Int16; };
template <> struct dtype_of<std::int32_t> { static constexpr DataType value = DataType::Int32; };
template <> struct dtype_of<std::int64_t> { static constexpr DataType value = DataType::Int64; };
template <> struct dtype_of<std::uint8_t> { static constexpr DataType value = DataType::UInt8; };
template <> struct dtype_of<bool> { static constexpr DataType value = DataType::Bool; };
template <> struct dtype_of<std::uint16_t> { static constexpr DataType value = DataType::UInt16; };
template <> struct dtype_of<std::uint32_t> { static constexpr DataType value = DataType::UInt32; };
template <> struct dtype_of<std::uint64_t> { static constexpr DataType value = DataType::UInt64; };

template <class T, class = void>
struct has_dtype : std::false_type {};
template <class T>
struct has_dtype<T, std::void_t<decltype(dtype_of<T>::value)>> : std::true_type {};

}  // namespace detail

/// A `crt_deleter_fn` for the C API that calls `Fn(data, ctx)` and swallows any exception it
/// throws, reporting it (`deleter_failures()` counts them; the first is logged on stderr).
/// The runtime cannot catch C++ exceptions, so a raw deleter that may throw must be passed
/// through this trampoline: `options.deleter = &ClikaRT::catching_deleter<&my_deleter>;`
/// (a raw deleter that throws ends the process with a message naming this fix).
template <void (*Fn)(void*, void*)>
void catching_deleter(void* data, void* ctx) noexcept {
    try {
        Fn(data, ctx);
    } catch (...) {  // documented: swallowed and reported
        crt_deleter_report_failure();
    }
}

/// How many deleters threw and had their exception swallowed in this process (by
/// `Tensor::from_blob`'s deleters or `catching_deleter`).
inline std::uint64_t deleter_failures() noexcept { return crt_deleter_failures(); }

/// A typed view of a host tensor's elements with N dimensions (Tensor::accessor<T, N>()):
/// `a[i][j]` is a reference to element (i, j); `a.at(i, j)` checks the indices and throws
/// Error(Status::Index). It holds sizes and strides by value but NOT the tensor: keep the
/// tensor alive while using it. T is `const E` for read-only access.
template <class T, std::size_t N>
class TensorAccessor {
    static_assert(N > 0, "a 0-d tensor has one element: use item<T>() or data_ptr<T>()");

public:
    TensorAccessor(T* data, const std::int64_t* sizes, const std::int64_t* strides) noexcept
        : data_(data) {
        std::copy(sizes, sizes + N, sizes_.begin());
        std::copy(strides, strides + N, strides_.begin());
    }
    /// Element i of the first dimension: an accessor of N - 1 dimensions, or a reference.
    decltype(auto) operator[](std::int64_t i) const noexcept {
        if constexpr (N == 1) {
            return static_cast<T&>(data_[i * strides_[0]]);
        } else {
            return TensorAccessor<T, N - 1>(data_ + i * strides_[0], sizes_.data() + 1,
                                            strides_.data() + 1);
        }
    }
    /// The element at (i0, ..., iN-1), bounds-checked.
    template <class... I>
    T& at(I... index) const {
        static_assert(sizeof...(I) == N, "at() takes one index per dimension");
        const std::int64_t idx[N] = {static_cast<std::int64_t>(index)...};
        std::int64_t off = 0;
        for (std::size_t d = 0; d < N; ++d) {
            if (idx[d] < 0 || idx[d] >= sizes_[d])
                throw Error(Status::Index, "accessor: index " + std::to_string(idx[d]) +
                                               " is out of range for dimension " +
                                               std::to_string(d) + " of size " +
                                               std::to_string(sizes_[d]));
            off += idx[d] * strides_[d];
        }
        return data_[off];
    }
    std::int64_t size(std::size_t dim) const noexcept { return sizes_[dim]; }
    std::int64_t stride(std::size_t dim) const noexcept { return strides_[dim]; }
    T* data() const noexcept { return data_; }

private:
    T* data_;
    std::array<std::int64_t, N> sizes_{};
    std::array<std::int64_t, N> strides_{};
};

/// How `Tensor::format` prints (numpy's `set_printoptions` names and defaults).
struct PrintOptions {
    /// Digits after the decimal point for floats.
    std::size_t precision = 4;
    /// Tensors with more elements than this are summarised with `...`.
    std::size_t threshold = 1000;
    /// Items shown at each end of a summarised dimension.
    std::size_t edgeitems = 3;
};

/// An n-dimensional strided view of typed memory; see the top of this file for ownership.
/// A default-constructed Tensor is undefined (defined() is false): using it throws.
class Tensor {
public:
    Tensor() noexcept = default;
    /// Takes ownership of a C handle (NULL gives an undefined tensor).
    explicit Tensor(crt_tensor* handle) noexcept : handle_(handle) {}
    Tensor(const Tensor& other) : handle_(clone_handle(other.handle_.get())) {}
    Tensor(Tensor&&) noexcept = default;
    Tensor& operator=(const Tensor& other) {
        if (this != &other) handle_.reset(clone_handle(other.handle_.get()));
        return *this;
    }
    Tensor& operator=(Tensor&&) noexcept = default;
    ~Tensor() = default;

    // ---- wrapping memory you own (no copy) ----

    /// Borrows row-major memory.
    static Tensor from_blob(void* data, const Shape& shape, DataType dtype,
                            const BlobOptions& options = {}) {
        return wrap(data, shape, nullptr, dtype, options, nullptr);
    }
    /// Adopts row-major memory: `deleter(data)` runs once when the last tensor drops. Any
    /// callable taking `void*` (a null function pointer, an empty std::function or nullptr
    /// means no deleter: the memory is borrowed).
    template <class F>
    static Tensor from_blob(void* data, const Shape& shape, DataType dtype,
                            const BlobOptions& options, F&& deleter) {
        return wrap(data, shape, nullptr, dtype, options,
                    detail::make_deleter(std::forward<F>(deleter)));
    }
    /// Borrows strided memory: `strides` in elements, one per dimension (may be negative).
    static Tensor from_blob(void* data, const Shape& shape, const Shape& strides, DataType dtype,
                            const BlobOptions& options = {}) {
        return wrap(data, shape, &strides, dtype, options, nullptr);
    }
    /// Adopts strided memory.
    template <class F>
    static Tensor from_blob(void* data, const Shape& shape, const Shape& strides, DataType dtype,
                            const BlobOptions& options, F&& deleter) {
        return wrap(data, shape, &strides, dtype, options,
                    detail::make_deleter(std::forward<F>(deleter)));
    }

    /// Borrows row-major memory of T's dtype: `from_blob(ptr, {2, 3})`.
    template <class T, class = std::enable_if_t<detail::has_dtype<T>::value>>
    static Tensor from_blob(T* data, const Shape& shape, const BlobOptions& options = {}) {
        return wrap(data, shape, nullptr, detail::dtype_of<T>::value, options, nullptr);
    }
    /// Borrows strided memory of T's dtype.
    template <class T, class = std::enable_if_t<detail::has_dtype<T>::value>>
    static Tensor from_blob(T* data, const Shape& shape, const Shape& strides,
                            const BlobOptions& options = {}) {
        return wrap(data, shape, &strides, detail::dtype_of<T>::value, options, nullptr);
    }
    /// Borrows const memory: the tensor is READ-ONLY (every write through the runtime —
    /// fill_, copy_, +=, data_ptr<T>() with a non-const T, a mutable accessor — throws
    /// Error(Status::ReadOnly)); no const_cast needed.
    template <class T, class = std::enable_if_t<detail::has_dtype<T>::value>>
    static Tensor from_blob(const T* data, const Shape& shape, BlobOptions options = {}) {
        options.read_only = true;
        return wrap(const_cast<T*>(data), shape, nullptr, detail::dtype_of<T>::value, options,
                    nullptr);
    }
    /// Borrows const strided memory, read-only.
    template <class T, class = std::enable_if_t<detail::has_dtype<T>::value>>
    static Tensor from_blob(const T* data, const Shape& shape, const Shape& strides,
                            BlobOptions options = {}) {
        options.read_only = true;
        return wrap(const_cast<T*>(data), shape, &strides, detail::dtype_of<T>::value, options,
                    nullptr);
    }
    /// Borrows const row-major memory of `dtype` (e.g. a 16-bit float buffer), read-only.
    static Tensor from_blob(const void* data, const Shape& shape, DataType dtype,
                            BlobOptions options = {}) {
        options.read_only = true;
        return wrap(const_cast<void*>(data), shape, nullptr, dtype, options, nullptr);
    }
    /// Borrows const strided memory of `dtype`, read-only.
    static Tensor from_blob(const void* data, const Shape& shape, const Shape& strides,
                            DataType dtype, BlobOptions options = {}) {
        options.read_only = true;
        return wrap(const_cast<void*>(data), shape, &strides, dtype, options, nullptr);
    }

    // ---- creating runtime-owned tensors ----

    /// Copies `nbytes` bytes (native byte order, row-major) into a new tensor.
    static Tensor from_data(const void* data, std::size_t nbytes, const Shape& shape,
                            DataType dtype) {
        return make([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_from_data(data, nbytes, shape.data(), shape.size(),
                                        static_cast<crt_dtype>(dtype), out, err);
        });
    }
    /// Copies `numel(shape)` elements of T into a new tensor of T's dtype.
    template <class T, class = std::enable_if_t<detail::has_dtype<T>::value>>
    static Tensor from_data(const T* data, const Shape& shape) {
        std::size_t n = 1;
        for (const std::int64_t d : shape) n *= d > 0 ? static_cast<std::size_t>(d) : 0U;
        return from_data(static_cast<const void*>(data), n * sizeof(T), shape,
                         detail::dtype_of<T>::value);
    }
    /// Copies a vector into a new tensor of `shape`.
    template <class T, class = std::enable_if_t<detail::has_dtype<T>::value>>
    static Tensor from_data(const std::vector<T>& data, const Shape& shape) {
        return from_data(static_cast<const void*>(data.data()), data.size() * sizeof(T), shape,
                         detail::dtype_of<T>::value);
    }
    /// Maps `shape` elements of `dtype`, stored row-major at byte `offset` of the raw binary
    /// file `path`, read-only and without copying (bytes are read when used). The file must
    /// not be truncated or rewritten while any tensor over it lives.
    static Tensor from_file(const std::string& path, DataType dtype, const Shape& shape,
                            std::uint64_t offset = 0) {
        return make([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_from_file(path.c_str(), static_cast<crt_dtype>(dtype), shape.data(),
                                        shape.size(), offset, out, err);
        });
    }
    /// Maps the whole file or shared-memory object behind `fd` shared (the descriptor is
    /// duplicated: close yours whenever you like) and views `shape` elements of `dtype` whose
    /// element [0, ..., 0] lies at byte `offset`, with `strides` in elements (empty: row-major).
    /// Writes through the tensor reach every process that maps the object. Nobody may
    /// truncate it while a tensor over it lives. `read_only` maps it read-only.
    static Tensor from_fd(int fd, DataType dtype, const Shape& shape, std::uint64_t offset = 0,
                          const Shape& strides = {}, bool read_only = false) {
        return shared("from_fd", shape, strides, [&](const std::int64_t* st, crt_tensor** out,
                                                     crt_error** err) {
            return crt_tensor_from_fd(fd, offset, static_cast<crt_dtype>(dtype), shape.data(),
                                      shape.size(), st, read_only ? 1 : 0, out, err);
        });
    }
    /// `from_fd` over the POSIX shared-memory object `name` (as `shm_open` names it, e.g.
    /// "/frames"). The producer may unlink it once mapped: the pages stay while mapped.
    static Tensor from_shm(const std::string& name, DataType dtype, const Shape& shape,
                           std::uint64_t offset = 0, const Shape& strides = {},
                           bool read_only = false) {
        return shared("from_shm", shape, strides, [&](const std::int64_t* st, crt_tensor** out,
                                                      crt_error** err) {
            return crt_tensor_from_shm(name.c_str(), offset, static_cast<crt_dtype>(dtype),
                                       shape.data(), shape.size(), st, read_only ? 1 : 0, out,
                                       err);
        });
    }
    /// A tensor over the memory of a DLPack >= 1.0 managed tensor, without a copy (the struct
    /// is dlpack.h's): read-only when the producer flagged it so. On success the tensor owns
    /// `managed` and its deleter runs exactly once, when the last tensor over the memory is
    /// gone; on failure (it throws) nothing was taken and `managed` is still yours.
    static Tensor from_dlpack(DLManagedTensorVersioned* managed) {
        return make([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_from_dlpack(managed, out, err);
        });
    }
    /// `from_dlpack` for a legacy (pre-1.0) managed tensor, which cannot say whether its memory
    /// may be written: `read_only` makes the tensor refuse writes.
    static Tensor from_dlpack(DLManagedTensor* managed, bool read_only) {
        return make([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_from_dlpack_legacy(managed, read_only ? 1 : 0, out, err);
        });
    }
    static Tensor zeros(const Shape& shape, DataType dtype = DataType::Float32) {
        return filled(shape, dtype, &crt_tensor_zeros);
    }
    static Tensor ones(const Shape& shape, DataType dtype = DataType::Float32) {
        return filled(shape, dtype, &crt_tensor_ones);
    }
    /// Unspecified (but initialised) contents.
    static Tensor empty(const Shape& shape, DataType dtype = DataType::Float32) {
        return filled(shape, dtype, &crt_tensor_empty);
    }
    static Tensor full(const Shape& shape, double value, DataType dtype = DataType::Float32) {
        return make([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_full(shape.data(), shape.size(), value,
                                   static_cast<crt_dtype>(dtype), out, err);
        });
    }
    static Tensor arange(double start, double end, double step = 1.0,
                         DataType dtype = DataType::Float32) {
        return make([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_arange(start, end, step, static_cast<crt_dtype>(dtype), out, err);
        });
    }

    // ---- inspecting ----

    bool defined() const noexcept { return handle_ != nullptr; }
    Shape shape() const { return lend(&crt_tensor_shape); }
    /// In elements.
    Shape strides() const { return lend(&crt_tensor_strides); }
    std::int64_t ndim() const { return static_cast<std::int64_t>(shape().size()); }
    std::int64_t numel() const {
        std::size_t n = 0;
        detail::call([&](crt_error** err) { return crt_tensor_numel(get(), &n, err); });
        return static_cast<std::int64_t>(n);
    }
    /// Bytes the elements take (numel times the dtype's size), as numpy's/PyTorch's `nbytes`.
    std::size_t nbytes() const {
        std::size_t n = 0;
        detail::call([&](crt_error** err) { return crt_tensor_nbytes(get(), &n, err); });
        return n;
    }
    /// Bytes of one element (PyTorch's `element_size()`).
    std::int64_t element_size() const {
        std::size_t n = 0;
        detail::call([&](crt_error** err) { return crt_tensor_element_size(get(), &n, err); });
        return static_cast<std::int64_t>(n);
    }
    DataType dtype() const {
        crt_dtype d = 0;
        detail::call([&](crt_error** err) { return crt_tensor_dtype(get(), &d, err); });
        return static_cast<DataType>(d);
    }
    Device device() const {
        crt_device d{};
        detail::call([&](crt_error** err) { return crt_tensor_device(get(), &d, err); });
        return Device::from_c(d);
    }
    bool is_contiguous() const {
        std::uint8_t c = 0;
        detail::call([&](crt_error** err) { return crt_tensor_is_contiguous(get(), &c, err); });
        return c != 0;
    }
    /// The first element (a borrowed or adopted tensor's is your pointer).
    void* data_ptr() const {
        void* p = nullptr;
        detail::call([&](crt_error** err) { return crt_tensor_data_ptr(get(), &p, err); });
        return p;
    }
    const void* const_data_ptr() const { return data_ptr(); }
    /// Whether the memory may be written (false for from_blob(const T*, ...), read-only
    /// options, mapped files).
    bool is_writable() const {
        std::uint8_t w = 0;
        detail::call([&](crt_error** err) { return crt_tensor_is_writable(get(), &w, err); });
        return w != 0;
    }
    /// The first element as T*. Throws Error(Status::DType) unless T (const or not) is the
    /// tensor's dtype, Error(Status::ReadOnly) for a non-const T over read-only memory, and
    /// Error(Status::Device) for device memory.
    template <class T, class = std::enable_if_t<detail::has_dtype<std::remove_const_t<T>>::value>>
    T* data_ptr() const {
        check_typed<T>("data_ptr");
        return static_cast<T*>(data_ptr());
    }
    /// A typed N-dimensional view of a host tensor of any strides (see TensorAccessor);
    /// checks as data_ptr<T>() does, and that the tensor has N dimensions.
    template <class T, std::size_t N>
    TensorAccessor<T, N> accessor() const {
        check_typed<T>("accessor");
        const Shape sizes = shape();
        if (sizes.size() != N)
            throw Error(Status::InvalidShape,
                        "accessor<T, " + std::to_string(N) + ">: the tensor has " +
                            std::to_string(sizes.size()) + " dimensions");
        const Shape st = strides();
        return TensorAccessor<T, N>(static_cast<T*>(data_ptr()), sizes.data(), st.data());
    }
    /// The single element, converted to T with the runtime's cast rules.
    template <class T>
    T item() const {
        static_assert(std::is_arithmetic<T>::value, "item<T>() needs an arithmetic type");
        if constexpr (std::is_same<T, bool>::value) {
            return item_as<std::uint8_t>(DataType::Bool) != 0;
        } else if constexpr (detail::has_dtype<T>::value) {
            return item_as<T>(detail::dtype_of<T>::value);
        } else if constexpr (std::is_integral<T>::value) {
            return static_cast<T>(item_as<std::int64_t>(DataType::Int64));
        } else {
            return static_cast<T>(item_as<double>(DataType::Float64));
        }
    }
    /// Every element, row-major, as T (T must be the tensor's dtype).
    template <class T, class = std::enable_if_t<detail::has_dtype<T>::value &&
                                                !std::is_same<T, bool>::value>>
    std::vector<T> to_vector() const {
        std::vector<T> out(static_cast<std::size_t>(numel()));
        if (dtype() != detail::dtype_of<T>::value)
            throw Error(Status::DType, std::string("to_vector: tensor has dtype ") +
                                           dtype_name(dtype()) + ", not " +
                                           dtype_name(detail::dtype_of<T>::value));
        detail::call([&](crt_error** err) {
            return crt_tensor_copy_to(get(), out.data(), out.size() * sizeof(T), err);
        });
        return out;
    }
    /// `Tensor(shape=[2, 3], dtype=Float32, device=CPU, numel=6, data=[...])`.
    std::string to_string() const {
        char* raw = nullptr;
        detail::call([&](crt_error** err) { return crt_tensor_to_string(get(), &raw, err); });
        const std::unique_ptr<char, detail::StringFree> s(raw);
        return std::string(s.get());
    }
    /// The nested, multi-line form numpy and PyTorch print, columns aligned and large
    /// tensors summarised with `...` (`options`: digits, threshold, edge items):
    /// `Tensor([[ 1,  2],\n        [ 3, 40]], dtype=Int32, device=CPU)`. `to_string()` keeps
    /// the specification's one-line form.
    std::string format(const PrintOptions& options = {}) const {
        char* raw = nullptr;
        detail::call([&](crt_error** err) {
            return crt_tensor_format(get(), options.precision, options.threshold,
                                     options.edgeitems, &raw, err);
        });
        const std::unique_ptr<char, detail::StringFree> s(raw);
        return std::string(s.get());
    }
    /// Waits for the device's outstanding work (cheap when there is none).
    void synchronize() const {
        detail::call([&](crt_error** err) { return crt_tensor_synchronize(get(), err); });
    }
    /// A DLPack 1.x managed tensor over this tensor's memory (no copy), flagged read-only when
    /// the tensor is. Hand it to a consumer, or call its deleter yourself: exactly once.
    DLManagedTensorVersioned* to_dlpack() const {
        DLManagedTensorVersioned* out = nullptr;
        detail::call([&](crt_error** err) { return crt_tensor_to_dlpack(get(), &out, err); });
        return out;
    }
    /// `to_dlpack` in the legacy (pre-1.0) struct; a read-only tensor throws (Status::ReadOnly),
    /// since the legacy struct cannot say so.
    DLManagedTensor* to_dlpack_legacy() const {
        DLManagedTensor* out = nullptr;
        detail::call(
            [&](crt_error** err) { return crt_tensor_to_dlpack_legacy(get(), &out, err); });
        return out;
    }
    /// This tensor on `device` (the same memory when it is already reachable there: the same
    /// device, or a unified-memory GPU that uses host memory in place).
    Tensor to(Device device) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_to(get(), device.c(), out, err);
        });
    }
    /// This host tensor in page-locked memory for `device` (PyTorch's pin_memory()): itself
    /// when it already is, else a contiguous copy from the device's pinned host pool. `to(device)`
    /// from it is an asynchronous DMA. Only CUDA devices have a pinned pool.
    Tensor pin_memory(Device device) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_pin_memory(get(), device.c(), out, err);
        });
    }
    /// This tensor on `device` in new memory the runtime owns: always a copy.
    Tensor copy_to(Device device) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_to_copy(get(), device.c(), out, err);
        });
    }

    // ---- views (no copy; they keep the memory alive) ----

    Tensor view(const Shape& shape) const { return with_list(&crt_tensor_view, shape); }
    /// A view when the strides allow, else a copy.
    Tensor reshape(const Shape& shape) const { return with_list(&crt_tensor_reshape, shape); }
    Tensor permute(const Shape& dims) const { return with_list(&crt_tensor_permute, dims); }
    Tensor expand(const Shape& sizes) const { return with_list(&crt_tensor_expand, sizes); }
    Tensor transpose(std::int64_t dim0, std::int64_t dim1) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_transpose(get(), dim0, dim1, out, err);
        });
    }
    /// Reverses the entries along `dims` (a view with negative strides).
    Tensor flip(const std::vector<std::int64_t>& dims) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_flip(get(), dims.data(), dims.size(), out, err);
        });
    }
    /// Moves dim `source` to `destination` (a view).
    Tensor movedim(std::int64_t source, std::int64_t destination) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_movedim(get(), source, destination, out, err);
        });
    }
    /// The last two dims swapped (a view), PyTorch's `mT`.
    Tensor mT() const { return transpose(-2, -1); }
    /// The diagonal of dims `dim1`/`dim2` as the last dim (a view).
    Tensor diagonal(std::int64_t offset = 0, std::int64_t dim1 = 0, std::int64_t dim2 = 1) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_diagonal(get(), offset, dim1, dim2, out, err);
        });
    }
    /// Repeated `reps[i]` times along each dim (PyTorch's `repeat`; a copy).
    Tensor repeat(const std::vector<std::int64_t>& reps) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_repeat(get(), reps.data(), reps.size(), 0, out, err);
        });
    }
    /// numpy's `tile` (a copy).
    Tensor tile(const std::vector<std::int64_t>& reps) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_repeat(get(), reps.data(), reps.size(), 1, out, err);
        });
    }
    /// Pieces of `size` entries along `dim` (views; the last may be shorter).
    std::vector<Tensor> split(std::size_t size, std::int64_t dim = 0) const;
    /// `chunks` pieces of equal size along `dim` (views).
    std::vector<Tensor> chunk(std::size_t chunks, std::int64_t dim = 0) const;
    /// Every entry along `dim`, with `dim` removed (views).
    std::vector<Tensor> unbind(std::int64_t dim = 0) const;
    Tensor narrow(std::int64_t dim, std::int64_t start, std::int64_t length) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_narrow(get(), dim, start, length, out, err);
        });
    }
    /// Python-style `start:stop:step` along `dim`.
    Tensor slice(std::int64_t dim, std::optional<std::int64_t> start = std::nullopt,
                 std::optional<std::int64_t> stop = std::nullopt, std::int64_t step = 1) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_slice(get(), dim, start ? &*start : nullptr,
                                    stop ? &*stop : nullptr, step, out, err);
        });
    }
    Tensor select(std::int64_t dim, std::int64_t index) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_select(get(), dim, index, out, err);
        });
    }
    Tensor squeeze() const { return unary(&crt_tensor_squeeze_all); }
    Tensor squeeze(std::int64_t dim) const { return with_int(&crt_tensor_squeeze, dim); }
    Tensor unsqueeze(std::int64_t dim) const { return with_int(&crt_tensor_unsqueeze, dim); }
    /// Merges dimensions `start_dim..=end_dim` (a view when possible, else a copy).
    Tensor flatten(std::int64_t start_dim = 0, std::int64_t end_dim = -1) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_flatten(get(), start_dim, end_dim, out, err);
        });
    }

    // ---- operations (new runtime-owned tensors) ----

    Tensor contiguous() const { return unary(&crt_tensor_contiguous); }
    /// Converted to `dtype` (this tensor when it has it); a transpose or channels-last
    /// tensor keeps its layout, as PyTorch's `to` does, any other comes out row-major.
    Tensor to_dtype(DataType dtype) const {
        return derive([&](crt_tensor** out, crt_error** err) {
            return crt_tensor_to_dtype(get(), static_cast<crt_dtype>(dtype), out, err);
        });
    }
    Tensor sum() const { return unary(&crt_tensor_sum); }
    Tensor mean() const { return unary(&crt_tensor_mean); }
    /// Sum over `dims` (negative counts from the end); `keepdim` keeps them with size 1.
    Tensor sum(const Shape& dims, bool keepdim = false) const {
        return reduce_dims(&crt_tensor_sum_dims, dims, keepdim);
    }
    Tensor mean(const Shape& dims, bool keepdim = false) const {
        return reduce_dims(&crt_tensor_mean_dims, dims, keepdim);
    }

    // ---- in place (through shared memory: every view and copy over it sees the change) ----
    //
    // Like PyTorch, these write the tensor's memory even when other tensors share it; don't
    // run them while another thread reads or writes the same elements. They throw on
    // read-only memory (Status::ReadOnly). The result is converted to this tensor's dtype.

    /// Sets every element to `value`.
    Tensor& fill_(double value) {
        detail::call([&](crt_error** err) { return crt_tensor_fill_(get(), value, err); });
        return *this;
    }
    /// Copies `src` (broadcast to this shape, converted to this dtype) into this tensor.
    Tensor& copy_(const Tensor& src) {
        detail::call([&](crt_error** err) { return crt_tensor_copy_(get(), src.get(), err); });
        return *this;
    }
    /// `*this = op(*this, other)`; `other` must broadcast to this shape.
    Tensor& binary_(BinaryOp op, const Tensor& other) {
        detail::call([&](crt_error** err) {
            return crt_tensor_binary_(static_cast<crt_binary_op>(op), get(), other.get(), err);
        });
        return *this;
    }
    /// `*this = op(*this, other)` with a weak scalar.
    Tensor& binary_(BinaryOp op, Scalar other) {
        detail::call([&](crt_error** err) {
            return crt_tensor_binary_scalar_(static_cast<crt_binary_op>(op), get(), other.c(),
                                             err);
        });
        return *this;
    }
    Tensor& add_(const Tensor& other) { return binary_(BinaryOp::Add, other); }
    Tensor& add_(Scalar other) { return binary_(BinaryOp::Add, other); }
    Tensor& sub_(const Tensor& other) { return binary_(BinaryOp::Sub, other); }
    Tensor& sub_(Scalar other) { return binary_(BinaryOp::Sub, other); }
    Tensor& mul_(const Tensor& other) { return binary_(BinaryOp::Mul, other); }
    Tensor& mul_(Scalar other) { return binary_(BinaryOp::Mul, other); }
    Tensor& div_(const Tensor& other) { return binary_(BinaryOp::Div, other); }
    Tensor& div_(Scalar other) { return binary_(BinaryOp::Div, other); }
    Tensor& operator+=(const Tensor& other) { return add_(other); }
    Tensor& operator+=(Scalar other) { return add_(other); }
    Tensor& operator-=(const Tensor& other) { return sub_(other); }
    Tensor& operator-=(Scalar other) { return sub_(other); }
    Tensor& operator*=(const Tensor& other) { return mul_(other); }
    Tensor& operator*=(Scalar other) { return mul_(other); }
    Tensor& operator/=(const Tensor& other) { return div_(other); }
    Tensor& operator/=(Scalar other) { return div_(other); }
    Tensor& operator%=(const Tensor& other) { return binary_(BinaryOp::Remainder, other); }
    Tensor& operator%=(Scalar other) { return binary_(BinaryOp::Remainder, other); }
    Tensor& operator&=(const Tensor& other) { return binary_(BinaryOp::BitwiseAnd, other); }
    Tensor& operator&=(Scalar other) { return binary_(BinaryOp::BitwiseAnd, other); }
    Tensor& operator|=(const Tensor& other) { return binary_(BinaryOp::BitwiseOr, other); }
    Tensor& operator|=(Scalar other) { return binary_(BinaryOp::BitwiseOr, other); }
    Tensor& operator^=(const Tensor& other) { return binary_(BinaryOp::BitwiseXor, other); }
    Tensor& operator^=(Scalar other) { return binary_(BinaryOp::BitwiseXor, other); }
    Tensor& operator<<=(const Tensor& other) { return binary_(BinaryOp::BitwiseLeftShift, other); }
    Tensor& operator<<=(Scalar other) { return binary_(BinaryOp::BitwiseLeftShift, other); }
    Tensor& operator>>=(const Tensor& other) { return binary_(BinaryOp::BitwiseRightShift, other); }
    Tensor& operator>>=(Scalar other) { return binary_(BinaryOp::BitwiseRightShift, other); }
    /// Sets every element to zero.
    Tensor& zero_() { return fill_(0.0); }
    /// Limits every element to `[min, max]` in place (std::nullopt leaves a side open); a
    /// float bound on an integer tensor throws (Status::DType), as `int += float` does.
    Tensor& clamp_(std::optional<Scalar> min, std::optional<Scalar> max) {
        detail::call([&](crt_error** err) {
            crt_scalar none{};
            return crt_tensor_clamp_(get(), min ? min->c() : none, min ? 1 : 0,
                                     max ? max->c() : none, max ? 1 : 0, err);
        });
        return *this;
    }

    // ---- the C handle ----

    /// The handle, still owned by this Tensor.
    crt_tensor* get() const noexcept { return handle_.get(); }
    /// Gives up ownership of the handle (free it with crt_tensor_free).
    crt_tensor* release() noexcept { return handle_.release(); }

private:
    using ListFn = crt_status (*)(const crt_tensor*, const std::int64_t*, std::size_t,
                                  crt_tensor**, crt_error**);
    using ReduceFn = crt_status (*)(const crt_tensor*, const std::int64_t*, std::size_t,
                                    std::uint8_t, crt_tensor**, crt_error**);
    using IntFn = crt_status (*)(const crt_tensor*, std::int64_t, crt_tensor**, crt_error**);
    using UnaryFn = crt_status (*)(const crt_tensor*, crt_tensor**, crt_error**);
    using FillFn = crt_status (*)(const std::int64_t*, std::size_t, crt_dtype, crt_tensor**,
                                  crt_error**);
    using LendFn = crt_status (*)(const crt_tensor*, const std::int64_t**, std::size_t*,
                                  crt_error**);

    static crt_tensor* clone_handle(const crt_tensor* h) {
        if (h == nullptr) return nullptr;
        crt_tensor* out = nullptr;
        detail::call([&](crt_error** err) { return crt_tensor_clone(h, &out, err); });
        return out;
    }
    template <class F>
    static Tensor make(F&& f) {
        crt_tensor* out = nullptr;
        detail::call([&](crt_error** err) { return f(&out, err); });
        return Tensor(out);
    }
    template <class F>
    Tensor derive(F&& f) const {
        return make(std::forward<F>(f));
    }
    static Tensor filled(const Shape& shape, DataType dtype, FillFn fn) {
        return make([&](crt_tensor** out, crt_error** err) {
            return fn(shape.data(), shape.size(), static_cast<crt_dtype>(dtype), out, err);
        });
    }
    Tensor with_list(ListFn fn, const Shape& list) const {
        return make([&](crt_tensor** out, crt_error** err) {
            return fn(get(), list.data(), list.size(), out, err);
        });
    }
    Tensor reduce_dims(ReduceFn fn, const Shape& dims, bool keepdim) const {
        return make([&](crt_tensor** out, crt_error** err) {
            return fn(get(), dims.data(), dims.size(), keepdim ? 1U : 0U, out, err);
        });
    }
    Tensor with_int(IntFn fn, std::int64_t v) const {
        return make([&](crt_tensor** out, crt_error** err) { return fn(get(), v, out, err); });
    }
    Tensor unary(UnaryFn fn) const {
        return make([&](crt_tensor** out, crt_error** err) { return fn(get(), out, err); });
    }
    Shape lend(LendFn fn) const {
        const std::int64_t* p = nullptr;
        std::size_t n = 0;
        detail::call([&](crt_error** err) { return fn(get(), &p, &n, err); });
        return Shape(p, p + n);
    }
    template <class T>
    void check_typed(const char* what) const {
        using E = std::remove_const_t<T>;
        if (dtype() != detail::dtype_of<E>::value)
            throw Error(Status::DType, std::string(what) + ": tensor has dtype " +
                                           dtype_name(dtype()) + ", not " +
                                           dtype_name(detail::dtype_of<E>::value) +
                                           "; convert first with to_dtype()");
        if (!std::is_const<T>::value && !is_writable())
            throw Error(Status::ReadOnly,
                        std::string(what) +
                            ": the tensor's memory is read-only; ask for a const element "
                            "type (data_ptr<const T>()) or copy it: zeros(shape, dtype).copy_(t)");
    }
    template <class T>
    T item_as(DataType dtype) const {
        T v{};
        detail::call([&](crt_error** err) {
            return crt_tensor_item(get(), static_cast<crt_dtype>(dtype), &v, err);
        });
        return v;
    }
    /// `from_fd` / `from_shm`: checks the strides' length, then calls `f(strides or null)`.
    template <class F>
    static Tensor shared(const char* what, const Shape& shape, const Shape& strides, F&& f) {
        if (!strides.empty() && strides.size() != shape.size())
            throw Error(Status::InvalidShape,
                        std::string(what) + ": shape has " + std::to_string(shape.size()) +
                            " dimensions but strides has " + std::to_string(strides.size()) +
                            "; pass one stride (in elements) per dimension, or none");
        const std::int64_t* st = strides.empty() ? nullptr : strides.data();
        return make([&](crt_tensor** out, crt_error** err) { return f(st, out, err); });
    }
    static Tensor wrap(void* data, const Shape& shape, const Shape* strides, DataType dtype,
                       const BlobOptions& options, std::unique_ptr<detail::DeleterBase> deleter) {
        if (strides != nullptr && strides->size() != shape.size())
            throw Error(Status::InvalidShape,
                        "from_blob: shape has " + std::to_string(shape.size()) +
                            " dimensions but strides has " + std::to_string(strides->size()) +
                            "; pass one stride (in elements) per dimension");
        const crt_device pinned = options.pinned_for.value_or(Device()).c();
        crt_blob_options o{};
        o.device = options.device.c();
        o.pinned_for = options.pinned_for ? &pinned : nullptr;
        o.deleter = deleter ? &detail::run_deleter : nullptr;
        o.deleter_ctx = deleter.get();
        o.flags = options.read_only ? CRT_BLOB_READ_ONLY : 0U;
        crt_tensor* out = nullptr;
        crt_error* err = nullptr;
        const crt_status status =
            crt_tensor_from_blob(data, shape.data(), shape.size(),
                                 strides != nullptr ? strides->data() : nullptr,
                                 static_cast<crt_dtype>(dtype), &o, &out, &err);
        // On success the runtime owns the deleter; on failure it was never called, and the
        // unique_ptr frees it here without calling it.
        if (status == CRT_STATUS_OK) static_cast<void>(deleter.release());
        detail::check(status, err);
        return Tensor(out);
    }

    std::unique_ptr<crt_tensor, detail::TensorFree> handle_;
};

inline std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.to_string(); }

namespace detail {
/// Calls `f(&out, &err)` and wraps the new handle (throws ClikaRT::Error on failure).
template <class F>
Tensor result(F&& f) {
    crt_tensor* out = nullptr;
    call([&](crt_error** err) { return f(&out, err); });
    return Tensor(out);
}
inline std::vector<const crt_tensor*> handles(const std::vector<Tensor>& tensors) {
    std::vector<const crt_tensor*> h;
    h.reserve(tensors.size());
    for (const Tensor& t : tensors) h.push_back(t.get());
    return h;
}
}  // namespace detail

/// Operations as free functions (mirroring the Rust `clika_rt::ops`). Each returns a new
/// runtime-owned tensor and leaves its inputs alone. Binary operations broadcast like numpy
/// and promote like numpy 2 / PyTorch (Bool < integers < floats; Int32 + Int64 is Int64,
/// UInt8 + Int8 is Int16, an integer + a float is the float; scalars are weak, see Scalar);
/// comparisons give Bool; div of integers gives Float32; integer arithmetic wraps.
namespace ops {

// ---- elementwise binary ----

/// `op(a, b)` (tensors), `op(a, s)` and `op(s, b)` (weak scalars).
inline Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_binary(static_cast<crt_binary_op>(op), a.get(), b.get(), out, err);
    });
}
inline Tensor binary(BinaryOp op, const Tensor& a, Scalar b) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_binary_scalar(static_cast<crt_binary_op>(op), a.get(), b.c(), out,
                                        err);
    });
}
inline Tensor binary(BinaryOp op, Scalar a, const Tensor& b) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_scalar_binary(static_cast<crt_binary_op>(op), a.c(), b.get(), out,
                                        err);
    });
}

#define CLIKA_RT_BINARY_OP_(name, Op)                                                         \
    inline Tensor name(const Tensor& a, const Tensor& b) { return binary(BinaryOp::Op, a, b); } \
    inline Tensor name(const Tensor& a, Scalar b) { return binary(BinaryOp::Op, a, b); }        \
    inline Tensor name(Scalar a, const Tensor& b) { return binary(BinaryOp::Op, a, b); }
CLIKA_RT_BINARY_OP_(add, Add)
CLIKA_RT_BINARY_OP_(sub, Sub)
CLIKA_RT_BINARY_OP_(mul, Mul)
CLIKA_RT_BINARY_OP_(div, Div)
CLIKA_RT_BINARY_OP_(pow, Pow)
CLIKA_RT_BINARY_OP_(maximum, Maximum)
CLIKA_RT_BINARY_OP_(minimum, Minimum)
CLIKA_RT_BINARY_OP_(eq, Eq)
CLIKA_RT_BINARY_OP_(ne, Ne)
CLIKA_RT_BINARY_OP_(lt, Lt)
CLIKA_RT_BINARY_OP_(le, Le)
CLIKA_RT_BINARY_OP_(gt, Gt)
CLIKA_RT_BINARY_OP_(ge, Ge)
// Python's `//` and `%` signs; integer division by zero throws (CRT_STATUS_INVALID_ARGUMENT).
CLIKA_RT_BINARY_OP_(atan2, Atan2)
CLIKA_RT_BINARY_OP_(hypot, Hypot)
CLIKA_RT_BINARY_OP_(fmod, Fmod)
CLIKA_RT_BINARY_OP_(remainder, Remainder)
CLIKA_RT_BINARY_OP_(floor_divide, FloorDivide)
CLIKA_RT_BINARY_OP_(bitwise_and, BitwiseAnd)
CLIKA_RT_BINARY_OP_(bitwise_or, BitwiseOr)
CLIKA_RT_BINARY_OP_(bitwise_xor, BitwiseXor)
CLIKA_RT_BINARY_OP_(bitwise_left_shift, BitwiseLeftShift)
CLIKA_RT_BINARY_OP_(bitwise_right_shift, BitwiseRightShift)
CLIKA_RT_BINARY_OP_(logical_and, LogicalAnd)
CLIKA_RT_BINARY_OP_(logical_or, LogicalOr)
CLIKA_RT_BINARY_OP_(logical_xor, LogicalXor)
#undef CLIKA_RT_BINARY_OP_

// ---- elementwise unary (neg/abs/relu keep the dtype; the rest give a float) ----

inline Tensor unary(UnaryOp op, const Tensor& t) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_unary(static_cast<crt_unary_op>(op), t.get(), out, err);
    });
}

#define CLIKA_RT_UNARY_OP_(name, Op) \
    inline Tensor name(const Tensor& t) { return unary(UnaryOp::Op, t); }
CLIKA_RT_UNARY_OP_(neg, Neg)
CLIKA_RT_UNARY_OP_(abs, Abs)
CLIKA_RT_UNARY_OP_(relu, Relu)
CLIKA_RT_UNARY_OP_(exp, Exp)
CLIKA_RT_UNARY_OP_(log, Log)
CLIKA_RT_UNARY_OP_(sqrt, Sqrt)
CLIKA_RT_UNARY_OP_(rsqrt, Rsqrt)
CLIKA_RT_UNARY_OP_(sin, Sin)
CLIKA_RT_UNARY_OP_(cos, Cos)
CLIKA_RT_UNARY_OP_(tanh, Tanh)
CLIKA_RT_UNARY_OP_(sigmoid, Sigmoid)
CLIKA_RT_UNARY_OP_(gelu, Gelu)
CLIKA_RT_UNARY_OP_(silu, Silu)
CLIKA_RT_UNARY_OP_(erf, Erf)
// Rounding and sign keep integer dtypes; isnan/isinf/isfinite/logical_not give Bool.
CLIKA_RT_UNARY_OP_(round, Round)
CLIKA_RT_UNARY_OP_(floor, Floor)
CLIKA_RT_UNARY_OP_(ceil, Ceil)
CLIKA_RT_UNARY_OP_(trunc, Trunc)
CLIKA_RT_UNARY_OP_(sign, Sign)
CLIKA_RT_UNARY_OP_(isnan, IsNan)
CLIKA_RT_UNARY_OP_(isinf, IsInf)
CLIKA_RT_UNARY_OP_(isfinite, IsFinite)
CLIKA_RT_UNARY_OP_(log1p, Log1p)
CLIKA_RT_UNARY_OP_(expm1, Expm1)
CLIKA_RT_UNARY_OP_(log2, Log2)
CLIKA_RT_UNARY_OP_(log10, Log10)
CLIKA_RT_UNARY_OP_(exp2, Exp2)
CLIKA_RT_UNARY_OP_(tan, Tan)
CLIKA_RT_UNARY_OP_(atan, Atan)
CLIKA_RT_UNARY_OP_(asin, Asin)
CLIKA_RT_UNARY_OP_(acos, Acos)
CLIKA_RT_UNARY_OP_(sinh, Sinh)
CLIKA_RT_UNARY_OP_(cosh, Cosh)
CLIKA_RT_UNARY_OP_(bitwise_not, BitwiseNot)
CLIKA_RT_UNARY_OP_(logical_not, LogicalNot)
#undef CLIKA_RT_UNARY_OP_

/// Rounds to `decimals` decimal places, halves to even (numpy's `round(x, decimals)`).
inline Tensor round(const Tensor& t, std::int32_t decimals) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_round_decimals(t.get(), decimals, out, err);
    });
}
/// The lower triangle of the last two dims (`col - row <= diagonal` kept).
inline Tensor tril(const Tensor& t, std::int64_t diagonal = 0) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_tril(t.get(), diagonal, out, err);
    });
}
/// The upper triangle of the last two dims (`col - row >= diagonal` kept).
inline Tensor triu(const Tensor& t, std::int64_t diagonal = 0) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_triu(t.get(), diagonal, out, err);
    });
}

// ---- reductions ----

/// `op` over `dims` (negative counts from the end; an empty list reduces nothing);
/// `keepdim` keeps them with size 1. `correction` is for Var/Std (1: unbiased, PyTorch's
/// default; 0: numpy's). ArgMax/ArgMin take exactly one dim.
inline Tensor reduce(ReduceOp op, const Tensor& t, const Shape& dims, bool keepdim = false,
                     std::size_t correction = 1) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_reduce(static_cast<crt_reduce_op>(op), t.get(), dims.data(),
                                 dims.size(), keepdim ? 1U : 0U, correction, out, err);
    });
}
/// `op` over every element: a 0-dimensional tensor (ArgMax/ArgMin: a flat index). Var/Std
/// use `correction` (a separate name, so `reduce(op, t, {0})` can only mean dims {0}).
inline Tensor reduce_all(ReduceOp op, const Tensor& t, std::size_t correction = 1) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_reduce_all(static_cast<crt_reduce_op>(op), t.get(), correction, out,
                                     err);
    });
}
/// `op` over every element (Var/Std unbiased).
inline Tensor reduce(ReduceOp op, const Tensor& t) { return reduce_all(op, t); }

/// Sum (floats keep their dtype; integers and bools give Int64, UInt64 gives UInt64).
inline Tensor sum(const Tensor& t) { return t.sum(); }
inline Tensor sum(const Tensor& t, const Shape& dims, bool keepdim = false) {
    return t.sum(dims, keepdim);
}
/// Mean (integers and bools give Float64).
inline Tensor mean(const Tensor& t) { return t.mean(); }
inline Tensor mean(const Tensor& t, const Shape& dims, bool keepdim = false) {
    return t.mean(dims, keepdim);
}
/// Product (dtypes as for sum).
inline Tensor prod(const Tensor& t) { return reduce(ReduceOp::Prod, t); }
inline Tensor prod(const Tensor& t, const Shape& dims, bool keepdim = false) {
    return reduce(ReduceOp::Prod, t, dims, keepdim);
}
/// Maximum (NaN-propagating; throws on no elements).
inline Tensor max(const Tensor& t) { return reduce(ReduceOp::Max, t); }
inline Tensor max(const Tensor& t, const Shape& dims, bool keepdim = false) {
    return reduce(ReduceOp::Max, t, dims, keepdim);
}
/// Minimum (NaN-propagating; throws on no elements).
inline Tensor min(const Tensor& t) { return reduce(ReduceOp::Min, t); }
inline Tensor min(const Tensor& t, const Shape& dims, bool keepdim = false) {
    return reduce(ReduceOp::Min, t, dims, keepdim);
}
/// Index (Int64) of the first maximum of the flattened tensor, or along `dim`.
inline Tensor argmax(const Tensor& t) { return reduce(ReduceOp::ArgMax, t); }
inline Tensor argmax(const Tensor& t, std::int64_t dim, bool keepdim = false) {
    return reduce(ReduceOp::ArgMax, t, Shape{dim}, keepdim);
}
/// Index (Int64) of the first minimum of the flattened tensor, or along `dim`.
inline Tensor argmin(const Tensor& t) { return reduce(ReduceOp::ArgMin, t); }
inline Tensor argmin(const Tensor& t, std::int64_t dim, bool keepdim = false) {
    return reduce(ReduceOp::ArgMin, t, Shape{dim}, keepdim);
}
/// Variance over every element (unbiased), or over `dims` with `correction` (1: unbiased,
/// PyTorch's default; 0: numpy's). Floats keep their dtype; integers give Float64. For every
/// element with another correction: reduce_all(ReduceOp::Var, t, correction).
inline Tensor var(const Tensor& t) { return reduce(ReduceOp::Var, t); }
inline Tensor var(const Tensor& t, const Shape& dims, std::size_t correction = 1,
                  bool keepdim = false) {
    return reduce(ReduceOp::Var, t, dims, keepdim, correction);
}
/// Standard deviation; see var.
inline Tensor std(const Tensor& t) { return reduce(ReduceOp::Std, t); }
inline Tensor std(const Tensor& t, const Shape& dims, std::size_t correction = 1,
                  bool keepdim = false) {
    return reduce(ReduceOp::Std, t, dims, keepdim, correction);
}
/// Softmax along `dim` (stable; integers compute in Float32).
inline Tensor softmax(const Tensor& t, std::int64_t dim) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_softmax(t.get(), dim, out, err);
    });
}
/// Log-softmax along `dim` (stable).
inline Tensor log_softmax(const Tensor& t, std::int64_t dim) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_log_softmax(t.get(), dim, out, err);
    });
}

// ---- linear algebra, joining, selection, copies ----

/// numpy's matmul: 1-D operands become a row (left) or column (right); batch dims broadcast.
/// Transposed and strided views are read in place.
inline Tensor matmul(const Tensor& a, const Tensor& b) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_matmul(a.get(), b.get(), out, err);
    });
}
/// Concatenates along `dim` (other dims must match; the result has the promoted dtype).
inline Tensor cat(const std::vector<Tensor>& tensors, std::int64_t dim = 0) {
    const std::vector<const crt_tensor*> h = detail::handles(tensors);
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_cat(h.data(), h.size(), dim, out, err);
    });
}
/// Stacks equally shaped tensors along a new dimension `dim`.
inline Tensor stack(const std::vector<Tensor>& tensors, std::int64_t dim = 0) {
    const std::vector<const crt_tensor*> h = detail::handles(tensors);
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_stack(h.data(), h.size(), dim, out, err);
    });
}
/// An operand that is a tensor or a number (a weak scalar), for the operations where both
/// mix (`where`, `clamp`), or absent (`std::nullopt`, for an optional clamp bound). It refers
/// to the tensor, which must outlive the call (a temporary lives to the end of the full
/// expression, so `where(c, x * 2, 0.5)` is fine).
class Operand {
public:
    Operand(const Tensor& t) noexcept : o_{t.get(), crt_scalar{}}, present_(true) {}  // NOLINT
    Operand(Scalar s) noexcept : o_{nullptr, s.c()}, present_(true) {}                 // NOLINT
    template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
    Operand(T v) noexcept : o_{nullptr, Scalar(v).c()}, present_(true) {}  // NOLINT
    /// No operand.
    Operand(std::nullopt_t) noexcept : o_{nullptr, crt_scalar{}}, present_(false) {}  // NOLINT
    /// A number, or no operand when `s` is empty.
    Operand(const std::optional<Scalar>& s) noexcept  // NOLINT: implicit
        : o_{nullptr, s ? s->c() : crt_scalar{}}, present_(s.has_value()) {}
    /// Whether there is an operand.
    bool has_value() const noexcept { return present_; }
    /// The C form (meaningful when `has_value()`).
    const crt_operand& c() const noexcept { return o_; }

private:
    crt_operand o_;
    bool present_;
};

/// `cond ? a : b` elementwise, broadcasting all three (cond: non-zero is true).
inline Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_where(cond.get(), a.get(), b.get(), out, err);
    });
}
/// `cond ? a : b` where either branch may be a number (a weak scalar: it takes the dtype it
/// promotes to against the other branch).
inline Tensor where(const Tensor& cond, const Operand& a, const Operand& b) {
    if (!a.has_value() || !b.has_value()) {
        throw Error(Status::InvalidArgument, "where: both branches need a value");
    }
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_where_operands(cond.get(), a.c(), b.c(), out, err);
    });
}
/// Limits every element to [min, max]: either bound absent (`std::nullopt`), a number (weak
/// scalar) or a tensor broadcast against `t` (elementwise bounds). NaN stays NaN.
inline Tensor clamp(const Tensor& t, const Operand& min, const Operand& max) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_clamp_operands(t.get(), min.has_value() ? &min.c() : nullptr,
                                         max.has_value() ? &max.c() : nullptr, out, err);
    });
}
/// The entries of `t` along `dim` at `indices` (an integer tensor of any shape; negative
/// indices count from the end): `dim` is replaced by `indices`' shape (a copy).
inline Tensor index_select(const Tensor& t, std::int64_t dim, const Tensor& indices) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_index_select(t.get(), dim, indices.get(), out, err);
    });
}
/// The elements of `t` where `mask` (broadcast to `t`'s shape) holds, as a 1-D copy.
inline Tensor masked_select(const Tensor& t, const Tensor& mask) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_masked_select(t.get(), mask.get(), out, err);
    });
}
/// The indices of `t`'s non-zero elements: Int64 `[count, ndim]`, rows in row-major order.
inline Tensor nonzero(const Tensor& t) {
    return detail::result(
        [&](crt_tensor** out, crt_error** err) { return crt_tensor_nonzero(t.get(), out, err); });
}
/// Sets the elements of `t` where `mask` holds to `value`, in place (through shared memory,
/// as `fill_`). Returns `t`.
inline const Tensor& masked_fill_(const Tensor& t, const Tensor& mask, Scalar value) {
    detail::call([&](crt_error** err) {
        return crt_tensor_masked_fill_(t.get(), mask.get(), value.c(), err);
    });
    return t;
}
/// The elements of `t` picked along `dim` by `index` (PyTorch's `gather`, numpy's
/// `take_along_axis`): `out[p] = t[p with p[dim] = index[p]]`; `index` has `t`'s rank and,
/// off `dim`, is no larger than `t`. A copy of `index`'s shape.
inline Tensor gather(const Tensor& t, std::int64_t dim, const Tensor& index) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_gather(t.get(), dim, index.get(), out, err);
    });
}
/// A copy of `t` with `src[p]` written at `p with p[dim] = index[p]` for every position `p`
/// of `index` (PyTorch's `scatter`); `src` is at least as large as `index` or 0-d. Repeated
/// targets: the last write in row-major order wins.
inline Tensor scatter(const Tensor& t, std::int64_t dim, const Tensor& index, const Tensor& src) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_scatter(t.get(), dim, index.get(), src.get(), 0, out, err);
    });
}
/// `scatter` that adds (PyTorch's `scatter_add`): repeated targets accumulate in row-major
/// order; integers wrap. A sum of at least 131,072 positions along the index's only dim longer
/// than 1 into a target under a quarter of its size (a histogram) adds up to 16 fixed blocks
/// of positions, each summed from zero, to the target in order: float results are the same
/// on any thread count and may differ from one pass in the last bits.
inline Tensor scatter_add(const Tensor& t, std::int64_t dim, const Tensor& index,
                          const Tensor& src) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_scatter(t.get(), dim, index.get(), src.get(), 1, out, err);
    });
}
/// `scatter` into `t` itself (through shared memory, as `fill_`). Returns `t`.
inline const Tensor& scatter_(const Tensor& t, std::int64_t dim, const Tensor& index,
                              const Tensor& src) {
    detail::call([&](crt_error** err) {
        return crt_tensor_scatter_(t.get(), dim, index.get(), src.get(), 0, err);
    });
    return t;
}
/// `scatter_add` into `t` itself (through shared memory, as `fill_`). Returns `t`.
inline const Tensor& scatter_add_(const Tensor& t, std::int64_t dim, const Tensor& index,
                                  const Tensor& src) {
    detail::call([&](crt_error** err) {
        return crt_tensor_scatter_(t.get(), dim, index.get(), src.get(), 1, err);
    });
    return t;
}
/// A copy of `t` with `alpha * source[..., i, ...]` added to `t[..., index[i], ...]` along
/// `dim` for every `i` of the 1-D integer `index` (PyTorch's `index_add`, numpy's
/// `np.add.at`); `source` is `t`'s shape but for `dim`, where it has `index`'s length.
/// Repeated indices accumulate. A float `source` or `alpha` for an integer `t` throws.
inline Tensor index_add(const Tensor& t, std::int64_t dim, const Tensor& index,
                        const Tensor& source, Scalar alpha = 1) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_index_add(t.get(), dim, index.get(), source.get(), alpha.c(), out, err);
    });
}
/// How often each value of the 1-D integer tensor `input` occurs (PyTorch's `bincount`,
/// numpy's `np.bincount`): `max(input) + 1` bins, or `minlength` if that is more; Int64.
/// With `weights` (one per element), each bin sums its elements' weights: Float32 for
/// Float32 weights, Float64 otherwise. Negative values, a float or bool `input` and a
/// negative `minlength` throw (`Status::InvalidArgument`); so do weights of another
/// length (`Status::InvalidShape`). A long input sums in parallel blocks, the same on
/// any thread count (see `scatter_add`).
inline Tensor bincount(const Tensor& input, const std::optional<Tensor>& weights = std::nullopt,
                       std::int64_t minlength = 0) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_bincount(input.get(), weights ? weights->get() : nullptr, minlength,
                                   out, err);
    });
}
/// A histogram of `input`'s values (PyTorch's `histc`): `bins` equal bins over `[min, max]`,
/// `max` itself in the last bin, values outside the range and NaN in none; the result has
/// `input`'s dtype, shape `{bins}`. Any shape, a float dtype. With `min == max` (the
/// default) the range is the data's own (one either side of a single value). `bins < 1`,
/// `min > max`, a non-float `input` or a range that is not finite throw
/// (`Status::InvalidArgument`).
inline Tensor histc(const Tensor& input, std::int64_t bins = 100, double min = 0,
                    double max = 0) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_histc(input.get(), bins, min, max, out, err);
    });
}
/// `index_add` into `t` itself (through shared memory, as `fill_`); on any error `t` is
/// unchanged. Returns `t`.
inline const Tensor& index_add_(const Tensor& t, std::int64_t dim, const Tensor& index,
                                const Tensor& source, Scalar alpha = 1) {
    detail::call([&](crt_error** err) {
        return crt_tensor_index_add_(t.get(), dim, index.get(), source.get(), alpha.c(), err);
    });
    return t;
}
/// How scatter_reduce combines the values that reach one target (PyTorch's names).
enum class ScatterReduce : crt_scatter_reduce {
    Sum = CRT_SCATTER_REDUCE_SUM,    ///< "sum" (integers wrap)
    Prod = CRT_SCATTER_REDUCE_PROD,  ///< "prod" (integers wrap)
    Mean = CRT_SCATTER_REDUCE_MEAN,  ///< "mean" (integers divide with the floor)
    Amax = CRT_SCATTER_REDUCE_AMAX,  ///< "amax" (a NaN wins)
    Amin = CRT_SCATTER_REDUCE_AMIN,  ///< "amin" (a NaN wins)
};
/// A copy of `t` with `src[p]` combined by `reduce` into `t[p with p[dim] = index[p]]` for
/// every position `p` of `index` (PyTorch's `scatter_reduce`). With `include_self` each
/// target's own value takes part; without, a target the index reaches ends as the reduction
/// of the values that reach it alone. Values combine in row-major order of `index`.
inline Tensor scatter_reduce(const Tensor& t, std::int64_t dim, const Tensor& index,
                             const Tensor& src, ScatterReduce reduce, bool include_self = true) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_scatter_reduce(t.get(), dim, index.get(), src.get(),
                                         static_cast<crt_scatter_reduce>(reduce),
                                         include_self ? 1 : 0, out, err);
    });
}
/// `scatter_reduce` into `t` itself (through shared memory, as `fill_`); on any error `t`
/// is left as it was. Returns `t`.
inline const Tensor& scatter_reduce_(const Tensor& t, std::int64_t dim, const Tensor& index,
                                     const Tensor& src, ScatterReduce reduce,
                                     bool include_self = true) {
    detail::call([&](crt_error** err) {
        return crt_tensor_scatter_reduce_(t.get(), dim, index.get(), src.get(),
                                          static_cast<crt_scatter_reduce>(reduce),
                                          include_self ? 1 : 0, err);
    });
    return t;
}
// ---- out= forms: the result written into an existing tensor (which may be a view: a
// Tensor is a handle, so `out` is const and its elements change), nothing allocated when
// `out` has the result's dtype (otherwise converted into it). Inputs may alias or overlap
// `out`. Returns `out`.

inline Tensor binary_into(BinaryOp op, const Tensor& a, const Tensor& b, const Tensor& out) {
    detail::call([&](crt_error** err) {
        return crt_tensor_binary_into(static_cast<crt_binary_op>(op), a.get(), b.get(),
                                      out.get(), err);
    });
    return out;
}
inline Tensor unary_into(UnaryOp op, const Tensor& t, const Tensor& out) {
    detail::call([&](crt_error** err) {
        return crt_tensor_unary_into(static_cast<crt_unary_op>(op), t.get(), out.get(), err);
    });
    return out;
}
inline Tensor add(const Tensor& a, const Tensor& b, const Tensor& out) {
    return binary_into(BinaryOp::Add, a, b, out);
}
inline Tensor sub(const Tensor& a, const Tensor& b, const Tensor& out) {
    return binary_into(BinaryOp::Sub, a, b, out);
}
inline Tensor mul(const Tensor& a, const Tensor& b, const Tensor& out) {
    return binary_into(BinaryOp::Mul, a, b, out);
}
inline Tensor div(const Tensor& a, const Tensor& b, const Tensor& out) {
    return binary_into(BinaryOp::Div, a, b, out);
}
/// `op` over `dims` written into `out`, which must have the reduction's shape (the values
/// are converted to its dtype; libtorch's `at::sum_out`). `t` may overlap `out`; on any
/// error `out` is left as it was. Returns `out`.
inline Tensor reduce_into(ReduceOp op, const Tensor& t, const Shape& dims, const Tensor& out,
                          bool keepdim = false, std::size_t correction = 1) {
    detail::call([&](crt_error** err) {
        return crt_tensor_reduce_into(static_cast<crt_reduce_op>(op), t.get(), dims.data(),
                                      dims.size(), keepdim ? 1U : 0U, correction, out.get(),
                                      err);
    });
    return out;
}
/// `op` over every element written into the 0-dimensional `out`. Returns `out`.
inline Tensor reduce_all_into(ReduceOp op, const Tensor& t, const Tensor& out,
                              std::size_t correction = 1) {
    detail::call([&](crt_error** err) {
        return crt_tensor_reduce_all_into(static_cast<crt_reduce_op>(op), t.get(), correction,
                                          out.get(), err);
    });
    return out;
}
/// matmul(a, b) written into `out`, which must have the result's shape (the values are
/// converted to its dtype); `out` may be `a` or `b`. Returns `out`.
inline Tensor matmul(const Tensor& a, const Tensor& b, const Tensor& out) {
    detail::call([&](crt_error** err) {
        return crt_tensor_matmul_into(a.get(), b.get(), out.get(), err);
    });
    return out;
}

/// The same tensor when already contiguous, else a compact row-major copy.
inline Tensor contiguous(const Tensor& t) { return t.contiguous(); }
/// Converted to `dtype` (floats → integers truncate and saturate; → Bool is "non-zero").
inline Tensor to_dtype(const Tensor& t, DataType dtype) { return t.to_dtype(dtype); }
}  // namespace ops

// ---- operators: tensors with tensors or arithmetic scalars (weak, as in Python) ----

namespace detail {
template <class S>
using if_arithmetic = std::enable_if_t<std::is_arithmetic<S>::value, int>;
}  // namespace detail

#define CLIKA_RT_OPERATOR_(sym, fn)                                                            \
    inline Tensor operator sym(const Tensor& a, const Tensor& b) { return ops::fn(a, b); }    \
    template <class S, detail::if_arithmetic<S> = 0>                                         \
    Tensor operator sym(const Tensor& a, S b) {                                               \
        return ops::fn(a, Scalar(b));                                                         \
    }                                                                                         \
    template <class S, detail::if_arithmetic<S> = 0>                                         \
    Tensor operator sym(S a, const Tensor& b) {                                               \
        return ops::fn(Scalar(a), b);                                                         \
    }
CLIKA_RT_OPERATOR_(+, add)
CLIKA_RT_OPERATOR_(-, sub)
CLIKA_RT_OPERATOR_(*, mul)
CLIKA_RT_OPERATOR_(/, div)
// Comparisons are elementwise and give Bool tensors (as in PyTorch), not a bool.
CLIKA_RT_OPERATOR_(==, eq)
CLIKA_RT_OPERATOR_(!=, ne)
CLIKA_RT_OPERATOR_(<, lt)
CLIKA_RT_OPERATOR_(<=, le)
CLIKA_RT_OPERATOR_(>, gt)
CLIKA_RT_OPERATOR_(>=, ge)
// The integer operators (Python's semantics: `%` takes the divisor's sign; floats are
// refused by the bitwise ones).
CLIKA_RT_OPERATOR_(%, remainder)
CLIKA_RT_OPERATOR_(&, bitwise_and)
CLIKA_RT_OPERATOR_(|, bitwise_or)
CLIKA_RT_OPERATOR_(^, bitwise_xor)
CLIKA_RT_OPERATOR_(<<, bitwise_left_shift)
CLIKA_RT_OPERATOR_(>>, bitwise_right_shift)
#undef CLIKA_RT_OPERATOR_

inline Tensor operator-(const Tensor& t) { return ops::neg(t); }
inline Tensor operator~(const Tensor& t) { return ops::bitwise_not(t); }

/// Device memory: the pool's statistics, giving its idle reserve back, the memory limit.
namespace device {

/// A snapshot of one device pool's statistics.
struct MemoryStats {
    std::uint64_t active_bytes = 0;        ///< in blocks handed out
    std::uint64_t cached_bytes = 0;        ///< reserved but idle
    std::uint64_t reserved_bytes = 0;      ///< reserved from the system
    std::uint64_t peak_active_bytes = 0;   ///< highest active_bytes since the last reset
    std::uint64_t requested_bytes = 0;     ///< requested by callers, before rounding
    std::uint64_t deferred_bytes = 0;      ///< freed, waiting on a completion event
    std::uint64_t allocation_count = 0;    ///< allocations served
    std::uint64_t cache_hit_count = 0;     ///< allocations served from the cache
    std::uint64_t os_reserve_count = 0;    ///< segments reserved from the system
    std::uint64_t os_release_count = 0;    ///< segments released to the system
    std::uint64_t oom_count = 0;           ///< requests that failed with out-of-memory
    std::uint64_t largest_free_block = 0;  ///< largest free block in the pool
    std::optional<std::uint64_t> limit_bytes;  ///< the memory limit, if any
    std::uint64_t imported_bytes = 0;  ///< host memory used in place (not pool memory)
};

}  // namespace device

namespace detail {
inline device::MemoryStats stats_from_c(const crt_memory_stats& c) {
    device::MemoryStats s;
    s.active_bytes = c.active_bytes;
    s.cached_bytes = c.cached_bytes;
    s.reserved_bytes = c.reserved_bytes;
    s.peak_active_bytes = c.peak_active_bytes;
    s.requested_bytes = c.requested_bytes;
    s.deferred_bytes = c.deferred_bytes;
    s.allocation_count = c.allocation_count;
    s.cache_hit_count = c.cache_hit_count;
    s.os_reserve_count = c.os_reserve_count;
    s.os_release_count = c.os_release_count;
    s.oom_count = c.oom_count;
    s.largest_free_block = c.largest_free_block;
    if (c.limit_bytes >= 0) s.limit_bytes = static_cast<std::uint64_t>(c.limit_bytes);
    return s;
}
}  // namespace detail

namespace device {

inline MemoryStats memory_stats(Device device = Device::cpu()) {
    crt_memory_stats c{};
    detail::call([&](crt_error** err) { return crt_device_memory_stats(device.c(), &c, err); });
    MemoryStats s = detail::stats_from_c(c);
    detail::call([&](crt_error** err) {
        return crt_device_imported_bytes(device.c(), &s.imported_bytes, err);
    });
    return s;
}

/// Statistics of the device's page-locked host pool (the memory behind Tensor::pin_memory).
/// Only CUDA devices have one; others throw.
inline MemoryStats pinned_memory_stats(Device device) {
    crt_memory_stats c{};
    detail::call([&](crt_error** err) {
        return crt_device_pinned_memory_stats(device.c(), &c, err);
    });
    return detail::stats_from_c(c);
}

/// Returns the idle page-locked segments of the device's pinned host pool to the system;
/// returns the bytes released.
inline std::size_t release_cached_pinned_memory(Device device) {
    std::size_t released = 0;
    detail::call([&](crt_error** err) {
        return crt_device_release_cached_pinned_memory(device.c(), &released, err);
    });
    return released;
}

/// Returns the device's idle reserve to the system; returns the bytes released. Memory in use,
/// or whose last use has not completed, is never touched.
inline std::size_t release_cached_memory(Device device = Device::cpu()) {
    std::size_t released = 0;
    detail::call([&](crt_error** err) {
        return crt_device_release_cached_memory(device.c(), &released, err);
    });
    return released;
}

/// Caps how many bytes the device's pool may reserve; std::nullopt removes the cap.
inline void set_memory_limit(Device device, std::optional<std::size_t> limit_bytes) {
    const std::int64_t limit = limit_bytes ? static_cast<std::int64_t>(*limit_bytes) : -1;
    detail::call([&](crt_error** err) {
        return crt_device_set_memory_limit(device.c(), limit, err);
    });
}

/// Resets peak_active_bytes to the current active_bytes.
inline void reset_peak_stats(Device device = Device::cpu()) {
    detail::call([&](crt_error** err) { return crt_device_reset_peak_stats(device.c(), err); });
}

/// Whether the one-time warning printed when Device::auto_() falls back to the CPU goes
/// to stderr (it does by default).
inline void set_fallback_warnings(bool enabled) noexcept {
    crt_device_set_fallback_warnings(enabled ? 1 : 0);
}

}  // namespace device

// ---- mapped files ----

/// Every tensor of a safetensors file, in file order, with its name: views into one
/// read-only mapping of the file (no copy; bytes are read when used), which stays mapped
/// until the last tensor drops. The file must not be truncated or rewritten meanwhile.
inline std::vector<std::pair<std::string, Tensor>> load_safetensors(const std::string& path) {
    struct ListFree {
        void operator()(crt_tensor_list* l) const noexcept { crt_tensor_list_free(l); }
    };
    crt_tensor_list* raw = nullptr;
    detail::call([&](crt_error** err) { return crt_load_safetensors(path.c_str(), &raw, err); });
    const std::unique_ptr<crt_tensor_list, ListFree> list(raw);
    std::vector<std::pair<std::string, Tensor>> out;
    const std::size_t n = crt_tensor_list_len(list.get());
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const char* name = nullptr;
        detail::call([&](crt_error** err) { return crt_tensor_list_name(list.get(), i, &name, err); });
        out.emplace_back(name, detail::result([&](crt_tensor** t, crt_error** err) {
                             return crt_tensor_list_get(list.get(), i, t, err);
                         }));
    }
    return out;
}

// ---- pieces ----

namespace detail {
struct ListFree {
    void operator()(crt_tensor_list* l) const noexcept { crt_tensor_list_free(l); }
};
inline std::vector<Tensor> pieces(const Tensor& t, std::uint32_t how, std::size_t n,
                                  std::int64_t dim) {
    crt_tensor_list* raw = nullptr;
    detail::call([&](crt_error** err) { return crt_tensor_split(t.get(), how, n, dim, &raw, err); });
    const std::unique_ptr<crt_tensor_list, ListFree> list(raw);
    std::vector<Tensor> out;
    const std::size_t count = crt_tensor_list_len(list.get());
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        out.push_back(detail::result([&](crt_tensor** p, crt_error** err) {
            return crt_tensor_list_get(list.get(), i, p, err);
        }));
    }
    return out;
}
}  // namespace detail

inline std::vector<Tensor> Tensor::split(std::size_t size, std::int64_t dim) const {
    return detail::pieces(*this, 0, size, dim);
}
inline std::vector<Tensor> Tensor::chunk(std::size_t chunks, std::int64_t dim) const {
    return detail::pieces(*this, 1, chunks, dim);
}
inline std::vector<Tensor> Tensor::unbind(std::int64_t dim) const {
    return detail::pieces(*this, 2, 0, dim);
}

// ---- custom operators ----

namespace ops {

/// A tensor's shape and dtype, as a rule sees its inputs and describes its output.
struct TensorSpec {
    Shape shape;
    DataType dtype = DataType::Float32;
};

/// Where a kernel puts its result (valid during the kernel call only): write into pooled(),
/// or hand over any tensor of the promised spec with set() (for example your own buffer
/// wrapped by Tensor::from_blob with a deleter).
class Output {
public:
    explicit Output(crt_op_output* o) noexcept : o_(o) {}
    /// The spec the rule promised.
    TensorSpec spec() const {
        crt_op_spec s{};
        detail::call([&](crt_error** err) { return crt_op_output_spec(o_, &s, err); });
        return TensorSpec{Shape(s.shape, s.shape + s.ndim), static_cast<DataType>(s.dtype)};
    }
    /// The output, allocated from the runtime's pool on the first call (the same memory on
    /// later calls); write every element through data_ptr().
    Tensor pooled() {
        return detail::result([&](crt_tensor** t, crt_error** err) {
            return crt_op_output_pooled(o_, t, err);
        });
    }
    /// Hands `t` over as the result.
    void set(const Tensor& t) {
        detail::call([&](crt_error** err) { return crt_op_output_set(o_, t.get(), err); });
    }

private:
    crt_op_output* o_;
};

/// Computes the output's spec from the inputs' specs (throw ClikaRT::Error to refuse).
using Rule = std::function<TensorSpec(const std::vector<TensorSpec>&)>;
/// Computes the output from read-only inputs.
using Kernel = std::function<void(const std::vector<Tensor>&, Output&)>;

namespace detail_op {
struct Op {
    Rule rule;
    Kernel kernel;
};

/// Runs `f`, turning any exception into a status and a C error (exceptions never cross into
/// the runtime).
template <class F>
crt_status guarded(crt_error** err, F&& f) noexcept {
    try {
        f();
        return CRT_STATUS_OK;
    } catch (const Error& e) {
        *err = crt_error_new(static_cast<crt_status>(e.status()), e.what());
        return static_cast<crt_status>(e.status());
    } catch (const std::exception& e) {
        *err = crt_error_new(CRT_STATUS_INTERNAL, e.what());
    } catch (...) {
        *err = crt_error_new(CRT_STATUS_INTERNAL, "a C++ exception of unknown type");
    }
    return CRT_STATUS_INTERNAL;
}

inline crt_status rule(void* user, const crt_op_spec* inputs, std::size_t n, crt_op_spec* output,
                       crt_error** err) noexcept {
    return guarded(err, [&] {
        std::vector<TensorSpec> specs;
        specs.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            specs.push_back(TensorSpec{Shape(inputs[i].shape, inputs[i].shape + inputs[i].ndim),
                                       static_cast<DataType>(inputs[i].dtype)});
        const TensorSpec out = static_cast<Op*>(user)->rule(specs);
        if (out.shape.size() > CRT_MAX_DIMS)
            throw Error(Status::InvalidShape, "rule: more than CRT_MAX_DIMS dimensions");
        output->dtype = static_cast<crt_dtype>(out.dtype);
        output->ndim = out.shape.size();
        for (std::size_t d = 0; d < out.shape.size(); ++d) output->shape[d] = out.shape[d];
    });
}

inline crt_status kernel(void* user, const crt_tensor* const* inputs, std::size_t n,
                         crt_op_output* output, crt_error** err) noexcept {
    return guarded(err, [&] {
        std::vector<Tensor> tensors;
        tensors.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            tensors.push_back(detail::result([&](crt_tensor** t, crt_error** e) {
                return crt_tensor_clone(inputs[i], t, e);
            }));
        Output out(output);
        static_cast<Op*>(user)->kernel(tensors, out);
    });
}

inline void drop(void* user) noexcept { delete static_cast<Op*>(user); }
}  // namespace detail_op

/// Registers a custom operator under `name` for the whole process (callable from C, C++
/// and Rust code in this library by name). Throws ClikaRT::Error if the name is taken. The
/// rule and kernel may run on any thread, several at once; an exception they throw becomes
/// the call's ClikaRT::Error (a ClikaRT::Error keeps its status).
inline void register_op(const std::string& name, Rule rule, Kernel kernel) {
    std::unique_ptr<detail_op::Op> op(new detail_op::Op{std::move(rule), std::move(kernel)});
    detail::call([&](crt_error** err) {
        return crt_op_register(name.c_str(), &detail_op::rule, &detail_op::kernel, op.get(),
                               &detail_op::drop, err);
    });
    static_cast<void>(op.release());  // registered: the runtime owns it now
}

/// The names of the registered operators, sorted.
inline std::vector<std::string> registered() {
    char* raw = nullptr;
    detail::call([&](crt_error** err) { return crt_op_registered(&raw, err); });
    const std::unique_ptr<char, detail::StringFree> text(raw);
    std::vector<std::string> names;
    std::string all(text.get());
    for (std::size_t start = 0; !all.empty() && start <= all.size();) {
        const std::size_t end = std::min(all.find('\n', start), all.size());
        names.push_back(all.substr(start, end - start));
        start = end + 1;
    }
    return names;
}

/// Unregisters `name`; returns whether it was registered.
inline bool unregister_op(const std::string& name) {
    std::uint8_t removed = 0;
    detail::call([&](crt_error** err) { return crt_op_unregister(name.c_str(), &removed, err); });
    return removed != 0;
}

/// Calls the custom operator `name` on `inputs`.
inline Tensor call(const std::string& name, const std::vector<Tensor>& inputs) {
    const std::vector<const crt_tensor*> h = detail::handles(inputs);
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_op_call(name.c_str(), h.data(), h.size(), out, err);
    });
}

}  // namespace ops

// ---- sorting, selection, scans, creation, random ----

/// Values and the Int64 indices they came from along a dim (PyTorch's return_types).
struct ValuesIndices {
    Tensor values;
    Tensor indices;
};

namespace detail {
template <class F>
ValuesIndices pair(F&& f) {
    crt_tensor* v = nullptr;
    crt_tensor* i = nullptr;
    call([&](crt_error** err) { return f(&v, &i, err); });
    return ValuesIndices{Tensor(v), Tensor(i)};
}
inline Tensor reduce_more(const Tensor& t, std::uint32_t which, double p, const Shape* dims,
                          bool keepdim) {
    return result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_reduce_more(t.get(), which, p, dims ? dims->data() : nullptr,
                                      dims ? dims->size() : 0, dims ? 0 : 1, keepdim, out, err);
    });
}
}  // namespace detail

/// A seedable counter-based random generator (Philox4x32-10): a call's values depend only on
/// the seed, the calls made since seeding and each element's index (never on threads).
class Generator {
public:
    explicit Generator(std::uint64_t seed) {
        crt_generator* g = nullptr;
        detail::call([&](crt_error** err) { return crt_generator_new(seed, &g, err); });
        handle_.reset(g);
    }
    /// Reseeds: the next calls repeat those after construction with `seed`.
    void manual_seed(std::uint64_t seed) { crt_generator_manual_seed(handle_.get(), seed); }
    crt_generator* get() const noexcept { return handle_.get(); }

private:
    struct Free {
        void operator()(crt_generator* g) const noexcept { crt_generator_free(g); }
    };
    std::unique_ptr<crt_generator, Free> handle_;
};

/// Seeds the process-wide default generator (used when no Generator is passed).
inline void manual_seed(std::uint64_t seed) { crt_generator_manual_seed(nullptr, seed); }

namespace ops {

/// Sorted along `dim` with the source indices (NaN last ascending; ties keep their order).
inline ValuesIndices sort(const Tensor& t, std::int64_t dim = -1, bool descending = false,
                          bool stable = false) {
    return detail::pair([&](crt_tensor** v, crt_tensor** i, crt_error** err) {
        return crt_tensor_sort(t.get(), dim, descending, stable, v, i, err);
    });
}
/// The indices that sort `t` along `dim`.
inline Tensor argsort(const Tensor& t, std::int64_t dim = -1, bool descending = false) {
    return sort(t, dim, descending).indices;
}
/// The `k` largest (or smallest) along `dim`.
inline ValuesIndices topk(const Tensor& t, std::int64_t k, std::int64_t dim = -1,
                          bool largest = true, bool sorted = true) {
    return detail::pair([&](crt_tensor** v, crt_tensor** i, crt_error** err) {
        return crt_tensor_topk(t.get(), k, dim, largest, sorted, v, i, err);
    });
}
/// The `k`-th smallest (1-based) along `dim`.
inline ValuesIndices kthvalue(const Tensor& t, std::int64_t k, std::int64_t dim = -1,
                              bool keepdim = false) {
    return detail::pair([&](crt_tensor** v, crt_tensor** i, crt_error** err) {
        return crt_tensor_kthvalue(t.get(), k, dim, keepdim, v, i, err);
    });
}
namespace detail_select {
inline ValuesIndices along(const Tensor& t, std::uint32_t which, std::int64_t dim,
                           bool keepdim) {
    return detail::pair([&](crt_tensor** v, crt_tensor** i, crt_error** err) {
        return crt_tensor_select_dim(t.get(), which, dim, keepdim, v, i, err);
    });
}
}  // namespace detail_select
/// The lower median of all elements (NaN when there is one).
inline Tensor median(const Tensor& t) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_median(t.get(), out, err);
    });
}
/// The lower median along `dim` and its index.
inline ValuesIndices median(const Tensor& t, std::int64_t dim, bool keepdim = false) {
    return detail_select::along(t, 0, dim, keepdim);
}
/// The maximum along `dim` and the index of its first occurrence (NaN propagates).
inline ValuesIndices max_dim(const Tensor& t, std::int64_t dim, bool keepdim = false) {
    return detail_select::along(t, 1, dim, keepdim);
}
/// The minimum along `dim` and the index of its first occurrence (NaN propagates).
inline ValuesIndices min_dim(const Tensor& t, std::int64_t dim, bool keepdim = false) {
    return detail_select::along(t, 2, dim, keepdim);
}
/// Whether any element (over `dims`; all when omitted) is non-zero.
inline Tensor any(const Tensor& t) { return detail::reduce_more(t, 0, 0, nullptr, false); }
inline Tensor any(const Tensor& t, const Shape& dims, bool keepdim = false) {
    return detail::reduce_more(t, 0, 0, &dims, keepdim);
}
/// Whether every element (over `dims`; all when omitted) is non-zero.
inline Tensor all(const Tensor& t) { return detail::reduce_more(t, 1, 0, nullptr, false); }
inline Tensor all(const Tensor& t, const Shape& dims, bool keepdim = false) {
    return detail::reduce_more(t, 1, 0, &dims, keepdim);
}
/// log(sum(exp(t))) computed stably (over `dims`; all when omitted).
inline Tensor logsumexp(const Tensor& t) { return detail::reduce_more(t, 2, 0, nullptr, false); }
inline Tensor logsumexp(const Tensor& t, const Shape& dims, bool keepdim = false) {
    return detail::reduce_more(t, 2, 0, &dims, keepdim);
}
/// The vector p-norm (p = 2, 1, ±infinity, 0 or any other p) over `dims` (all when omitted).
inline Tensor norm(const Tensor& t, double p = 2.0) {
    return detail::reduce_more(t, 3, p, nullptr, false);
}
inline Tensor norm(const Tensor& t, double p, const Shape& dims, bool keepdim = false) {
    return detail::reduce_more(t, 3, p, &dims, keepdim);
}
/// Running sum along `dim` (integers and bools give Int64).
inline Tensor cumsum(const Tensor& t, std::int64_t dim) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_cumulative(t.get(), 0, dim, out, err);
    });
}
/// Running product along `dim` (integers and bools give Int64).
inline Tensor cumprod(const Tensor& t, std::int64_t dim) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_cumulative(t.get(), 1, dim, out, err);
    });
}
/// Shifts along `dims` by `shifts`, wrapping (the flattened tensor when `dims` is empty).
inline Tensor roll(const Tensor& t, const Shape& shifts, const Shape& dims = {}) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_roll(t.get(), shifts.data(), shifts.size(), dims.data(), dims.size(),
                               out, err);
    });
}
/// The sorted distinct elements, the index of each input element's value, and the counts.
struct UniqueResult {
    Tensor values;
    Tensor inverse;
    Tensor counts;
};
inline UniqueResult unique(const Tensor& t) {
    crt_tensor* v = nullptr;
    crt_tensor* i = nullptr;
    crt_tensor* c = nullptr;
    detail::call([&](crt_error** err) { return crt_tensor_unique(t.get(), &v, &i, &c, err); });
    return UniqueResult{Tensor(v), Tensor(i), Tensor(c)};
}
/// The distinct slices along `dim`, in lexicographic order (numpy's `unique(axis=dim)`):
/// `values` keeps every dimension; `inverse` gives each input slice's index in `values`.
inline UniqueResult unique(const Tensor& t, std::int64_t dim) {
    crt_tensor* v = nullptr;
    crt_tensor* i = nullptr;
    crt_tensor* c = nullptr;
    detail::call(
        [&](crt_error** err) { return crt_tensor_unique_dim(t.get(), dim, &v, &i, &c, err); });
    return UniqueResult{Tensor(v), Tensor(i), Tensor(c)};
}
/// `steps` evenly spaced values from `start` to `end` inclusive.
inline Tensor linspace(double start, double end, std::int64_t steps,
                       DataType dtype = DataType::Float32) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_linspace(start, end, steps, 0.0, static_cast<crt_dtype>(dtype), out,
                                   err);
    });
}
/// `base ** linspace(start, end, steps)`.
inline Tensor logspace(double start, double end, std::int64_t steps, double base = 10.0,
                       DataType dtype = DataType::Float32) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_linspace(start, end, steps, base, static_cast<crt_dtype>(dtype), out,
                                   err);
    });
}
/// An `n x m` identity matrix (`m < 0`: square).
inline Tensor eye(std::int64_t n, std::int64_t m = -1, DataType dtype = DataType::Float32) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_eye(n, m < 0 ? n : m, static_cast<crt_dtype>(dtype), out, err);
    });
}
/// `t`'s shape and device, `dtype`, filled with `value`.
inline Tensor full_like(const Tensor& t, double value, DataType dtype) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_full_like(t.get(), value, static_cast<crt_dtype>(dtype), out, err);
    });
}
inline Tensor zeros_like(const Tensor& t) { return full_like(t, 0.0, t.dtype()); }
inline Tensor ones_like(const Tensor& t) { return full_like(t, 1.0, t.dtype()); }

namespace detail_random {
inline Tensor draw(Generator* g, std::uint32_t which, double a, double b, const Shape& shape,
                   DataType dtype) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_random(g ? g->get() : nullptr, which, a, b, shape.data(), shape.size(),
                                 static_cast<crt_dtype>(dtype), out, err);
    });
}
}  // namespace detail_random
/// Uniform in [0, 1) from `g` (nullptr: the default generator).
inline Tensor rand(const Shape& shape, DataType dtype = DataType::Float32,
                   Generator* g = nullptr) {
    return detail_random::draw(g, 0, 0.0, 1.0, shape, dtype);
}
/// Standard normal values.
inline Tensor randn(const Shape& shape, DataType dtype = DataType::Float32,
                    Generator* g = nullptr) {
    return detail_random::draw(g, 1, 0.0, 1.0, shape, dtype);
}
/// Uniform in [low, high).
inline Tensor uniform(double low, double high, const Shape& shape,
                      DataType dtype = DataType::Float32, Generator* g = nullptr) {
    return detail_random::draw(g, 0, low, high, shape, dtype);
}
/// Normal with `mean` and `std`.
inline Tensor normal(double mean, double std, const Shape& shape,
                     DataType dtype = DataType::Float32, Generator* g = nullptr) {
    return detail_random::draw(g, 1, mean, std, shape, dtype);
}
/// Integers uniform in [low, high).
inline Tensor randint(std::int64_t low, std::int64_t high, const Shape& shape,
                      DataType dtype = DataType::Int64, Generator* g = nullptr) {
    return detail_random::draw(g, 2, static_cast<double>(low), static_cast<double>(high), shape,
                               dtype);
}
/// Ones with probability `probs[i]`, zeros otherwise.
inline Tensor bernoulli(const Tensor& probs, Generator* g = nullptr) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_bernoulli(g ? g->get() : nullptr, probs.get(), out, err);
    });
}

}  // namespace ops

/// The library version, "MAJOR.MINOR.PATCH": crt_version(), the workspace version in Cargo.toml.
inline std::string version() { return crt_version(); }

}  // namespace ClikaRT

#include <ClikaRT/clika_rt_vision.h>  // conv2d, pooling, linear, pad

#endif  // CLIKA_RT_HPP
