//! Elementwise kernels over any layout: operands are coalesced, rows are walked with their
//! innermost strides, and large work is split across threads.
//!
//! Inner loops use raw pointers (never slices), because the output may be one of the inputs
//! (in-place ops and buffer reuse) and because `bool` inputs must be loaded as bytes.

use super::half_rows::half_row;
use super::iter::{for_each_item, for_each_piece, Coalesced, SendPtr};
use super::vmath::{avx2, dispatch, dispatch_avx2, SimdBody};
use crate::dtype::Element;
use crate::Tensor;

/// Typed pointer to a tensor's first element.
fn base<T>(t: &Tensor) -> SendPtr<T> {
    SendPtr(t.data_ptr().cast::<T>())
}

/// A same-dtype copy whose coalesced rows are contiguous on both sides, one `memmove` per
/// row piece (pieces threaded as `map1`'s); `false`, with nothing done, when a side's rows
/// are strided. Not for `Bool`, whose bytes `Element::load` normalises.
///
/// # Safety
/// As for [`map1`], with `src` and `out` of one dtype.
pub(crate) unsafe fn copy_rows(src: &Tensor, out: &Tensor) -> bool {
    debug_assert!(src.dtype() == out.dtype() && src.dtype() != crate::DType::Bool);
    let co = Coalesced::<2>::new(out.shape(), [src.strides(), out.strides()]);
    if co.inner_strides() != [1, 1] {
        return false;
    }
    let (ps, po) = (base::<u8>(src), base::<u8>(out));
    let size = src.dtype().size();
    for_each_piece(co.rows(), co.inner(), |row, start, len| {
        let [os, oo] = co.row_offsets(row);
        let (os, oo) = (os + start as isize, oo + start as isize);
        // SAFETY: elements `start..start + len` of row `row` are in bounds for both tensors
        // (L3) and contiguous (unit inner strides, checked), `size` bytes each; pieces are
        // disjoint, so each output byte has one writer; `std::ptr::copy` allows `out` to be
        // `src` itself.
        unsafe {
            std::ptr::copy(
                ps.get().offset(os * size as isize),
                po.get().offset(oo * size as isize),
                len * size,
            )
        };
    });
    true
}

/// `out[i] = f(a[i])` for every index of `out`'s shape; `a` has that shape (broadcast views
/// with stride 0 are fine).
///
/// # Safety
/// `a` and `out` must be host tensors of element types `A` and `O`, with `a.shape() ==
/// out.shape()`; `out` must be writable and not read or written by anyone else during the
/// call; `out` may be `a` itself (same layout) but must not otherwise overlap `a`.
pub(crate) unsafe fn map1<A: Element, O: Element>(
    a: &Tensor,
    out: &Tensor,
    f: impl Fn(A) -> O + Sync + Send,
) {
    debug_assert_eq!(a.shape(), out.shape());
    let co = Coalesced::<2>::new(out.shape(), [a.strides(), out.strides()]);
    let (pa, po) = (base::<A>(a), base::<O>(out));
    let [sa, so] = co.inner_strides();
    let simd = avx2();
    for_each_piece(co.rows(), co.inner(), |row, start, len| {
        let [oa, oo] = co.row_offsets(row);
        let s = start as isize;
        // SAFETY: row `row`, elements `start..start + len`, of both operands are in bounds
        // (L3 for each tensor's layout, which the coalesced strides walk exactly); pieces
        // are disjoint, so no two threads write the same output element.
        let (a0, o0) = unsafe { (pa.get().offset(oa + s * sa), po.get().offset(oo + s * so)) };
        let body = Row1 {
            a0,
            o0,
            sa,
            so,
            len,
            f: &f,
        };
        dispatch_avx2(simd, body);
    });
}

/// One row piece of [`map1`], compiled for AVX2 and for the baseline target.
struct Row1<'a, A, O, F> {
    a0: *const A,
    o0: *mut O,
    sa: isize,
    so: isize,
    len: usize,
    f: &'a F,
}

impl<A: Element, O: Element, F: Fn(A) -> O> SimdBody for Row1<'_, A, O, F> {
    #[inline(always)]
    fn run<const FMA: bool>(self) {
        let Row1 {
            a0,
            o0,
            sa,
            so,
            len,
            f,
        } = self;
        // SAFETY: built by `map1` for `len` in-bounds elements of each side at these strides.
        unsafe {
            // In place (`a` is `out`): read and write through one pointer. With two, LLVM's
            // overlap test before the vector loop fails for equal pointers and the scalar
            // loop runs.
            let in_place = size_of::<A>() == size_of::<O>() && a0.cast::<u8>() == o0.cast::<u8>();
            if sa == 1 && so == 1 && in_place {
                for i in 0..len {
                    let p = o0.add(i);
                    p.write(f(A::load(p.cast::<A>())));
                }
            } else if sa == 1 && so == 1 {
                for i in 0..len {
                    o0.add(i).write(f(A::load(a0.add(i))));
                }
            } else {
                for i in 0..len as isize {
                    o0.offset(i * so).write(f(A::load(a0.offset(i * sa))));
                }
            }
        }
    }
}

/// `out[i] = f(a[i], b[i])` for every index of `out`'s shape; `a` and `b` have that shape.
///
/// # Safety
/// As for [`map1`], for both inputs.
pub(crate) unsafe fn map2<A: Element, B: Element, O: Element>(
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
    f: impl Fn(A, B) -> O + Sync + Send,
) {
    debug_assert_eq!(a.shape(), out.shape());
    debug_assert_eq!(b.shape(), out.shape());
    let co = Coalesced::<3>::new(out.shape(), [a.strides(), b.strides(), out.strides()]);
    let (pa, pb, po) = (base::<A>(a), base::<B>(b), base::<O>(out));
    let [sa, sb, so] = co.inner_strides();
    let simd = avx2();
    for_each_piece(co.rows(), co.inner(), |row, start, len| {
        let [oa, ob, oo] = co.row_offsets(row);
        let s = start as isize;
        // SAFETY: as in `map1`: every offset walked is in bounds by L3 and pieces are
        // disjoint.
        let (a0, b0, o0) = unsafe {
            (
                pa.get().offset(oa + s * sa),
                pb.get().offset(ob + s * sb),
                po.get().offset(oo + s * so),
            )
        };
        let body = Row2 {
            a0,
            b0,
            o0,
            strides: (sa, sb, so),
            len,
            f: &f,
        };
        dispatch_avx2(simd, body);
    });
}

/// One row piece of [`map2`], compiled for AVX2 and for the baseline target.
struct Row2<'a, A, B, O, F> {
    a0: *const A,
    b0: *const B,
    o0: *mut O,
    strides: (isize, isize, isize),
    len: usize,
    f: &'a F,
}

impl<A: Element, B: Element, O: Element, F: Fn(A, B) -> O> SimdBody for Row2<'_, A, B, O, F> {
    #[inline(always)]
    fn run<const FMA: bool>(self) {
        let Row2 {
            a0,
            b0,
            o0,
            strides,
            len,
            f,
        } = self;
        // SAFETY: built by `map2` for `len` in-bounds elements of each operand at these
        // strides.
        unsafe {
            // In place (`a` is `out`): one pointer, as in `map1`.
            let in_place = size_of::<A>() == size_of::<O>() && a0.cast::<u8>() == o0.cast::<u8>();
            match strides {
                (1, 1, 1) if in_place => {
                    for i in 0..len {
                        let p = o0.add(i);
                        p.write(f(A::load(p.cast::<A>()), B::load(b0.add(i))));
                    }
                }
                (1, 1, 1) => {
                    for i in 0..len {
                        o0.add(i).write(f(A::load(a0.add(i)), B::load(b0.add(i))));
                    }
                }
                (1, 0, 1) if in_place => {
                    let bv = B::load(b0);
                    for i in 0..len {
                        let p = o0.add(i);
                        p.write(f(A::load(p.cast::<A>()), bv));
                    }
                }
                (1, 0, 1) => {
                    let bv = B::load(b0);
                    for i in 0..len {
                        o0.add(i).write(f(A::load(a0.add(i)), bv));
                    }
                }
                (0, 1, 1) => {
                    let av = A::load(a0);
                    for i in 0..len {
                        o0.add(i).write(f(av, B::load(b0.add(i))));
                    }
                }
                (sa, sb, so) => {
                    for i in 0..len as isize {
                        o0.offset(i * so)
                            .write(f(A::load(a0.offset(i * sa)), B::load(b0.offset(i * sb))));
                    }
                }
            }
        }
    }
}

/// `out[i] = f(c[i], a[i], b[i])` (for `where`); all four have the same shape. Each row
/// piece runs under the AVX2 dispatcher, with loops of their own for contiguous operands
/// and for `a` or `b` broadcast along the row (`where(mask, value, x)`), and for `b` being
/// `out` itself (`masked_fill_`), so those vectorise.
///
/// # Safety
/// As for [`map1`], for all three inputs (`out` may be `b` itself).
pub(crate) unsafe fn map3<C: Element, A: Element, B: Element, O: Element>(
    c: &Tensor,
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
    f: impl Fn(C, A, B) -> O + Sync + Send,
) {
    let co = Coalesced::<4>::new(
        out.shape(),
        [c.strides(), a.strides(), b.strides(), out.strides()],
    );
    let (pc, pa, pb, po) = (base::<C>(c), base::<A>(a), base::<B>(b), base::<O>(out));
    let [sc, sa, sb, so] = co.inner_strides();
    let simd = avx2();
    for_each_piece(co.rows(), co.inner(), |row, start, len| {
        let [oc, oa, ob, oo] = co.row_offsets(row);
        let (s, pc, pa, pb, po) = (start as isize, pc, pa, pb, po);
        // SAFETY: as in `map1`.
        let body = unsafe {
            Row3 {
                c0: pc.0.offset(oc + s * sc).cast_const(),
                a0: pa.0.offset(oa + s * sa).cast_const(),
                b0: pb.0.offset(ob + s * sb).cast_const(),
                o0: po.0.offset(oo + s * so),
                strides: (sc, sa, sb, so),
                len,
                f: &f,
            }
        };
        dispatch_avx2(simd, body);
    });
}

/// One row piece of [`map3`], compiled for AVX2 and for the baseline target.
struct Row3<'a, C, A, B, O, F> {
    c0: *const C,
    a0: *const A,
    b0: *const B,
    o0: *mut O,
    strides: (isize, isize, isize, isize),
    len: usize,
    f: &'a F,
}

impl<C: Element, A: Element, B: Element, O: Element, F: Fn(C, A, B) -> O> SimdBody
    for Row3<'_, C, A, B, O, F>
{
    #[inline(always)]
    fn run<const FMA: bool>(self) {
        let Row3 {
            c0,
            a0,
            b0,
            o0,
            strides,
            len,
            f,
        } = self;
        // SAFETY: built by `map3` for `len` in-bounds elements of each operand at these
        // strides.
        unsafe {
            // In place (`b` is `out`): one pointer, so the loop needs no alias check.
            let in_place = size_of::<B>() == size_of::<O>() && b0.cast::<u8>() == o0.cast::<u8>();
            match strides {
                (1, 0, 1, 1) if in_place => {
                    let av = A::load(a0);
                    for i in 0..len {
                        let p = o0.add(i);
                        p.write(f(C::load(c0.add(i)), av, B::load(p.cast::<B>())));
                    }
                }
                (1, 1, 1, 1) => {
                    for i in 0..len {
                        let v = f(C::load(c0.add(i)), A::load(a0.add(i)), B::load(b0.add(i)));
                        o0.add(i).write(v);
                    }
                }
                (1, 0, 1, 1) => {
                    let av = A::load(a0);
                    for i in 0..len {
                        o0.add(i)
                            .write(f(C::load(c0.add(i)), av, B::load(b0.add(i))));
                    }
                }
                (1, 1, 0, 1) => {
                    let bv = B::load(b0);
                    for i in 0..len {
                        o0.add(i)
                            .write(f(C::load(c0.add(i)), A::load(a0.add(i)), bv));
                    }
                }
                (sc, sa, sb, so) => {
                    for i in 0..len as isize {
                        let v = f(
                            C::load(c0.offset(i * sc)),
                            A::load(a0.offset(i * sa)),
                            B::load(b0.offset(i * sb)),
                        );
                        o0.offset(i * so).write(v);
                    }
                }
            }
        }
    }
}

/// One contiguous row of a converting copy: `len` elements from `src` to `dst` (disjoint).
struct CastRow<S, D> {
    src: *const S,
    dst: *mut D,
    len: usize,
}

impl<S: Element, D: Element> SimdBody for CastRow<S, D> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        for i in 0..self.len {
            // SAFETY: `CastRow` is built (in `copy_cast`) for `len` in-bounds elements of
            // each side.
            unsafe {
                let v = crate::dtype::cast::<S, D>(S::load(self.src.add(i)));
                self.dst.add(i).write(v);
            }
        }
    }
}

/// The contiguous-row conversion of one `S → D` pair, chosen once per copy: rows between
/// `f32` and the half types through F16C (`half_rows`), the others converted inside the SIMD
/// dispatch (the conversions, `f32 as f64 as i32`, `u8 as f64 as f32`…, vectorise under
/// AVX2/AVX-512 where the baseline target converts an element or two at a time). Floats to
/// integers take AVX-512 where the CPU has it: it converts to 64-bit integers in vectors
/// (AVX2 has no such instruction, so `f32 → i64` went an element at a time, 1.4× PyTorch's
/// time) and narrows to 8 or 16 bits in one instruction (AVX2 packs and permutes: `f32 → i8`
/// was 1.7× PyTorch's). The other pairs gain nothing from it and keep to two compiled copies.
struct RowCaster<S, D> {
    half: Option<super::half_rows::RowConvert>,
    simd: Option<super::vmath::Avx2>,
    arch: pulp::Arch,
    wide: bool,
    types: std::marker::PhantomData<fn(S) -> D>,
}

impl<S: Element, D: Element> RowCaster<S, D> {
    fn new() -> Self {
        RowCaster {
            half: half_row(S::DTYPE, D::DTYPE),
            simd: avx2(),
            arch: pulp::Arch::new(),
            wide: S::DTYPE.is_float() && !D::DTYPE.is_float(),
            types: std::marker::PhantomData,
        }
    }

    /// `dst[i] = cast(src[i])` for `i < len`.
    ///
    /// # Safety
    /// `src` / `dst` valid and aligned for `len` reads of `S` / writes of `D`, disjoint.
    #[inline]
    unsafe fn row(&self, src: *const S, dst: *mut D, len: usize) {
        match self.half {
            // SAFETY: the caller's contract; `half_row` chose `convert` for `S → D`.
            Some(convert) => unsafe { convert(src.cast(), dst.cast(), len) },
            None => {
                let body = CastRow { src, dst, len };
                if self.wide {
                    dispatch(self.arch, body);
                } else {
                    dispatch_avx2(self.simd, body);
                }
            }
        }
    }
}

/// Columns of the tiles a transposing copy moves at a time (a tile's rows are
/// [`BAND_BYTES`] of each source column): the source columns and the destination rows of a
/// tile stay in L1.
const TILE: usize = 32;

/// The bytes of each source column a transposing copy's band reads, for elements of up to
/// 4 bytes (at least [`TILE`] rows otherwise): a band visits a page per source column, so
/// 32 rows of 1- and 2-byte elements waited on the TLB (a transposed 4096×2441 `float16`
/// copied in 9.6 ms; 5.9 in bands of 64 rows).
const BAND_BYTES: usize = 128;

/// The bytes of a band's tile buffer: [`TILE`] columns of a band's rows of any element type.
const TILE_BYTES: usize = TILE
    * if BAND_BYTES > 8 * TILE {
        BAND_BYTES
    } else {
        8 * TILE
    };

/// `out[i] = cast(src[i])` where `out` is contiguous: rows are converted straight when the
/// source's innermost stride is 1, and in cache-sized tiles when the source is transposed
/// (its stride-1 dimension is not the innermost one), so neither side is read or written
/// with a large stride across a whole row. A tile is first transposed as raw elements (in
/// 8×8 AVX register blocks for 4-byte types), straight into the output when the types
/// match, else into a buffer whose rows then convert with the contiguous rows' kernel: every
/// pair of types takes the vectorised conversion, transposed or not (`to(float16)` of a
/// transposed 1024×976 `f32` took 0.83 ms through a per-element cast, 2.5× PyTorch's
/// transposing cast).
///
/// # Safety
/// As for [`map1`], with `out` contiguous and disjoint from `src`.
pub(crate) unsafe fn copy_cast<S: Element, D: Element>(src: &Tensor, out: &Tensor) {
    let co = Coalesced::<2>::new(out.shape(), [src.strides(), out.strides()]);
    let nd = co.shape.len();
    let (ps, po) = (base::<S>(src), base::<D>(out));
    let caster = RowCaster::<S, D>::new();
    let transposed = nd >= 2 && co.strides[0][nd - 2] == 1 && co.strides[0][nd - 1] != 1;
    if !transposed || co.shape[nd - 1] < TILE || co.shape[nd - 2] < TILE {
        if co.inner_strides() != [1, 1] {
            // SAFETY: forwarded from this function's contract.
            unsafe { map1::<S, D>(src, out, crate::dtype::cast::<S, D>) };
            return;
        }
        for_each_piece(co.rows(), co.inner(), |row, start, len| {
            let [os, oo] = co.row_offsets(row);
            let (os, oo) = (os + start as isize, oo + start as isize);
            // SAFETY: elements `start..start + len` of row `row` are in bounds for both
            // tensors (L3) and contiguous (unit inner strides, checked); `out` is disjoint
            // from `src` (this function's contract) and pieces are disjoint, so each output
            // element has one writer.
            unsafe { caster.row(ps.get().offset(os), po.get().offset(oo), len) };
        });
        return;
    }
    let (rows, cols) = (co.shape[nd - 2], co.shape[nd - 1]);
    let outer: usize = co.shape[..nd - 2].iter().product();
    let sc = co.strides[0][nd - 1];
    let (or, oc) = (co.strides[1][nd - 2], co.strides[1][nd - 1]);
    debug_assert_eq!(oc, 1, "copy_cast writes a contiguous output");
    // 4-byte elements of one type (not `Bool`, whose bytes the cast normalises) go straight
    // to the output in AVX register blocks. Element by element, the writes would go down
    // a column of the output, rows a multiple of 4 KiB apart in the same L1 set (a
    // transposed 1024×976 `f64` copied in 2.0 ms instead of 0.55): those tiles go through
    // the L1-resident buffer and leave it a row at a time.
    let direct = S::DTYPE == D::DTYPE && S::DTYPE != crate::DType::Bool && avx_blocks::<S>();
    // Bands of rows that read BAND_BYTES of each source column they cross.
    let band_rows = (BAND_BYTES / size_of::<S>()).max(TILE);
    let row_bands = rows.div_ceil(band_rows);
    // One item per band; bands are threaded when the copy is large.
    for_each_item(outer * row_bands, band_rows * cols, |band| {
        let (o, rb) = (band / row_bands, band % row_bands);
        let r0 = rb * band_rows;
        let nr = band_rows.min(rows - r0);
        let [os0, oo0] = co.row_offsets(o * rows + r0);
        // A band's tile, `nr` rows of TILE elements; `u64`s align every element type (of
        // at most 8 bytes). Left uninitialised: the direct path never touches it, and the
        // buffered one writes each element before reading it.
        let mut buf = [std::mem::MaybeUninit::<u64>::uninit(); TILE_BYTES / 8];
        debug_assert!(nr * TILE * size_of::<S>() <= 8 * buf.len() && align_of::<S>() <= 8);
        let tile = buf.as_mut_ptr().cast::<S>();
        for c0 in (0..cols).step_by(TILE) {
            let nc = TILE.min(cols - c0);
            let (s0, d0) = (os0 + c0 as isize * sc, oo0 + c0 as isize);
            // SAFETY: the tile's elements (o, r0 + i, c0 + j), i < nr, j < nc, are indices of
            // the copy, in bounds for both tensors (L3), reached from `s0` along the source's
            // unit stride (i) and `sc` (j), and from `d0` along the output's `or` (i) and
            // unit stride (j); `buf` holds `band_rows` × TILE elements of `S`, and the
            // caster reads only the `nr` × `nc` the transpose has just written (no
            // uninitialised byte is read); bands are disjoint, so each output element has one
            // writer, and `out` is disjoint from `src`.
            unsafe {
                let from = ps.get().offset(s0);
                if direct {
                    let to = po.get().cast::<S>().offset(d0);
                    transpose_tile::<S>(from, sc, to, or, nr, nc);
                } else {
                    transpose_tile::<S>(from, sc, tile, TILE as isize, nr, nc);
                    for i in 0..nr {
                        let row = tile.add(i * TILE).cast_const();
                        caster.row(row, po.get().offset(d0 + i as isize * or), nc);
                    }
                }
            }
        }
    });
}

/// Whether [`transpose_tile`] moves `S` in 8×8 AVX register blocks.
#[inline]
fn avx_blocks<S: Element>() -> bool {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    return size_of::<S>() == 4 && std::arch::is_x86_feature_detected!("avx");
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    false
}

/// `dst[i * ld + j] = src[j * ls + i]` for `i < nr`, `j < nc`, moving each element's bits
/// unchanged (a `Bool` byte is read as 0 or 1): in 8×8 AVX register blocks for 4-byte
/// types, element by element otherwise (down the destination's columns, so for a
/// destination that stays in L1).
///
/// # Safety
/// Every `src[j * ls + i]` / `dst[i * ld + j]` must be valid to read / write, the
/// destination not overlapping the source.
#[inline]
unsafe fn transpose_tile<S: Element>(
    src: *const S,
    ls: isize,
    dst: *mut S,
    ld: isize,
    nr: usize,
    nc: usize,
) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if avx_blocks::<S>() {
        // SAFETY: AVX is available (checked); 4-byte elements move as `f32` bit patterns,
        // which loads, shuffles and stores leave unchanged; the ranges are the caller's.
        unsafe { transpose_band_f32(src.cast(), ls, dst.cast(), ld, nr, nc) };
        return;
    }
    for j in 0..nc as isize {
        for i in 0..nr as isize {
            // SAFETY: `i < nr`, `j < nc`: in the caller's ranges.
            unsafe {
                dst.offset(i * ld + j)
                    .write(S::load(src.offset(j * ls + i)))
            };
        }
    }
}

/// Transposes an `nr`×`cols` band into `dst` (the output itself, or a band's tile buffer):
/// `dst[i * ld + c] = src[c * ls + i]`,
/// in 8×8 register blocks (AVX shuffles), with the ragged edges done element by element.
///
/// # Safety
/// AVX must be available, and every `src[c * ls + i]` / `dst[i * ld + c]` for `i < nr`,
/// `c < cols` must be valid to read / write, the destination not overlapping the source.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx")]
unsafe fn transpose_band_f32(
    src: *const f32,
    ls: isize,
    dst: *mut f32,
    ld: isize,
    nr: usize,
    cols: usize,
) {
    let (nr8, cols8) = (nr - nr % 8, cols - cols % 8);
    for c in (0..cols8).step_by(8) {
        for i in (0..nr8).step_by(8) {
            // SAFETY: rows c..c+8 and columns i..i+8 of the source, and the transposed
            // block of the destination, are inside the ranges the caller vouches for.
            unsafe {
                transpose_8x8_f32(
                    src.offset(c as isize * ls + i as isize),
                    ls,
                    dst.offset(i as isize * ld + c as isize),
                    ld,
                );
            }
        }
    }
    // The ragged edges: rows past the last full block of 8, then columns past it.
    for i in 0..nr {
        let from = if i < nr8 { cols8 } else { 0 };
        for c in from..cols {
            // SAFETY: `i < nr`, `c < cols`: in the caller's ranges.
            unsafe {
                let from = src.cast::<u32>().offset(c as isize * ls + i as isize);
                *dst.cast::<u32>().offset(i as isize * ld + c as isize) = *from;
            }
        }
    }
}

/// `dst[r * ld + k] = src[k * ls + r]` for an 8×8 block of `f32`.
///
/// # Safety
/// AVX must be available; the eight 8-element rows at `src + k * ls` must be readable and
/// the eight at `dst + r * ld` writable.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx")]
unsafe fn transpose_8x8_f32(src: *const f32, ls: isize, dst: *mut f32, ld: isize) {
    use std::arch::x86_64::{
        _mm256_loadu_ps, _mm256_permute2f128_ps, _mm256_shuffle_ps, _mm256_storeu_ps,
        _mm256_unpackhi_ps, _mm256_unpacklo_ps,
    };
    // SAFETY: the caller vouches for the eight source rows and eight destination rows.
    unsafe {
        let row = |k: isize| _mm256_loadu_ps(src.offset(k * ls));
        let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
        let (r4, r5, r6, r7) = (row(4), row(5), row(6), row(7));
        // Interleave pairs of rows, then pairs of pairs: each 128-bit lane then holds a
        // 4×4 transposed quarter; the lane permutes put the quarters in place.
        let (t0, t1) = (_mm256_unpacklo_ps(r0, r1), _mm256_unpackhi_ps(r0, r1));
        let (t2, t3) = (_mm256_unpacklo_ps(r2, r3), _mm256_unpackhi_ps(r2, r3));
        let (t4, t5) = (_mm256_unpacklo_ps(r4, r5), _mm256_unpackhi_ps(r4, r5));
        let (t6, t7) = (_mm256_unpacklo_ps(r6, r7), _mm256_unpackhi_ps(r6, r7));
        let (u0, u1) = (
            _mm256_shuffle_ps::<0x44>(t0, t2),
            _mm256_shuffle_ps::<0xEE>(t0, t2),
        );
        let (u2, u3) = (
            _mm256_shuffle_ps::<0x44>(t1, t3),
            _mm256_shuffle_ps::<0xEE>(t1, t3),
        );
        let (u4, u5) = (
            _mm256_shuffle_ps::<0x44>(t4, t6),
            _mm256_shuffle_ps::<0xEE>(t4, t6),
        );
        let (u6, u7) = (
            _mm256_shuffle_ps::<0x44>(t5, t7),
            _mm256_shuffle_ps::<0xEE>(t5, t7),
        );
        let out = |r: isize, v| _mm256_storeu_ps(dst.offset(r * ld), v);
        out(0, _mm256_permute2f128_ps::<0x20>(u0, u4));
        out(1, _mm256_permute2f128_ps::<0x20>(u1, u5));
        out(2, _mm256_permute2f128_ps::<0x20>(u2, u6));
        out(3, _mm256_permute2f128_ps::<0x20>(u3, u7));
        out(4, _mm256_permute2f128_ps::<0x31>(u0, u4));
        out(5, _mm256_permute2f128_ps::<0x31>(u1, u5));
        out(6, _mm256_permute2f128_ps::<0x31>(u2, u6));
        out(7, _mm256_permute2f128_ps::<0x31>(u3, u7));
    }
}
