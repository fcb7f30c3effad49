//! `gather`, `scatter`, `scatter_add` and `index_add` along a dim against a model with the
//! coordinates written out: every element size, contiguous and transposed tensors, indices
//! smaller than the tensor off `dim`, negative and repeated indices, empty indices, `alpha`,
//! 0-d tensors, and the errors (nothing written on any).

#[path = "support/lcg.rs"]
mod lcg;
use clika_rt::ops::{self, Scalar};
use clika_rt::{DType, ErrorKind, Tensor};
use lcg::Lcg;
use proptest::prelude::*;

/// Row-major coordinates of flat position `i` in `shape`.
fn coords(shape: &[usize], mut i: usize) -> Vec<usize> {
    let mut c = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        c[d] = i % shape[d];
        i /= shape[d];
    }
    c
}

fn flat(shape: &[usize], c: &[usize]) -> usize {
    c.iter().zip(shape).fold(0, |a, (&x, &n)| a * n + x)
}

/// `vals` (row-major over `shape`) as `dtype`, transposed in memory when `transposed`: the
/// values are laid out reversed and viewed back through a permutation.
fn tensor(vals: &[f64], shape: &[usize], dtype: DType, transposed: bool) -> Tensor {
    let t = Tensor::from_data(vals, shape)
        .unwrap()
        .to_dtype(dtype)
        .unwrap();
    if !transposed || shape.len() < 2 {
        return t;
    }
    let rev: Vec<isize> = (0..shape.len() as isize).rev().collect();
    let stored = t.permute(&rev).unwrap().contiguous().unwrap();
    let v = stored.permute(&rev).unwrap();
    let trivial = shape.contains(&0) || shape.iter().filter(|&&n| n > 1).count() < 2;
    assert!(!v.is_contiguous() || trivial);
    v
}

/// `vals` (row-major over `shape`) as `dtype`, in a view that starts one element into its
/// memory (as `t[1:]`'s does).
fn offset_view(vals: &[f64], shape: &[usize], dtype: DType) -> Tensor {
    let padded: Vec<f64> = std::iter::once(3.0).chain(vals.iter().copied()).collect();
    let t = tensor(&padded, &[padded.len()], dtype, false)
        .narrow(0, 1, vals.len())
        .unwrap()
        .reshape(&shape.iter().map(|&n| n as isize).collect::<Vec<_>>())
        .unwrap();
    assert!(vals.is_empty() || t.layout().offset() == 1);
    t
}

/// A bool target ors; every other dtype adds (exactly, with these small values).
fn add(dtype: DType, a: f64, b: f64) -> f64 {
    if dtype == DType::Bool {
        f64::from(a != 0.0 || b != 0.0)
    } else {
        a + b
    }
}

fn dtype() -> impl Strategy<Value = DType> {
    prop::sample::select(vec![
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
        DType::Int8,
        DType::Int32,
        DType::Int64,
        DType::UInt8,
        DType::UInt16,
        DType::Bool,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 3 } else { 96 }))]

    #[test]
    fn gather_and_scatters_match_the_model(
        shape in prop::collection::vec(1usize..5, 1..4),
        dim in 0usize..3,
        shrink in prop::collection::vec(0usize..2, 3),
        along in 0usize..6,
        dtype in dtype(),
        layout in 0u8..3,
        seed in any::<u64>(),
    ) {
        // Contiguous, transposed in memory, or a view one element into its memory.
        let transposed = layout == 1;
        let at = |vals: &[f64], shape: &[usize], dtype: DType| {
            if layout == 2 { offset_view(vals, shape, dtype) } else { tensor(vals, shape, dtype, transposed) }
        };
        let nd = shape.len();
        let dim = dim % nd;
        // The index: off `dim` at most the tensor's size, along it any length.
        let ishape: Vec<usize> = (0..nd)
            .map(|k| if k == dim { along } else { shape[k] - shrink[k].min(shape[k] - 1) })
            .collect();
        let mut rng = Lcg::new(seed);
        let mut next = |m: u64| rng.below(m);
        let n: usize = shape.iter().product();
        let ni: usize = ishape.iter().product();
        let size = shape[dim] as i64;
        // Small values, exact in every dtype (a Bool holds 0 or 1).
        let top = if dtype == DType::Bool { 2 } else { 4 };
        let vals: Vec<f64> = (0..n).map(|_| next(top) as f64).collect();
        let idx: Vec<i64> = (0..ni).map(|_| next(2 * size as u64) as i64 - size).collect();
        // `src` is one longer than the index in dim 0: only its leading part is used.
        let mut sshape = ishape.clone();
        sshape[0] += 1;
        let ns: usize = sshape.iter().product();
        let svals: Vec<f64> = (0..ns).map(|_| next(top) as f64).collect();

        let t = at(&vals, &shape, dtype);
        let index = at(&idx.iter().map(|&i| i as f64).collect::<Vec<_>>(), &ishape, DType::Int64);
        let src = if layout == 2 { offset_view(&svals, &sshape, dtype) } else { tensor(&svals, &sshape, dtype, false) };
        let target = |p: usize| -> (Vec<usize>, usize) {
            let mut c = coords(&ishape, p);
            let j = idx[p];
            c[dim] = (if j < 0 { j + size } else { j }) as usize;
            let sc = c.clone();
            (sc.clone(), flat(&shape, &sc))
        };

        let d = dim as isize;
        let g = t.gather(d, &index).unwrap();
        prop_assert_eq!(g.shape(), &ishape[..]);
        prop_assert_eq!(g.dtype(), dtype);
        let want: Vec<f64> = (0..ni).map(|p| vals[target(p).1]).collect();
        prop_assert_eq!(g.to_f64_vec().unwrap(), want);

        let src_at = |p: usize| svals[flat(&sshape, &coords(&ishape, p))];
        let mut put = vals.clone();
        let mut acc = vals.clone();
        for p in 0..ni {
            let q = target(p).1;
            put[q] = src_at(p);
            acc[q] = add(dtype, acc[q], src_at(p));
        }
        let r = ops::scatter(&t, d, &index, &src).unwrap();
        prop_assert_eq!(r.to_f64_vec().unwrap(), put.clone());
        let r = ops::scatter_add(&t, d, &index, &src).unwrap();
        prop_assert_eq!(r.to_f64_vec().unwrap(), acc);
        // In place, through the transposed view: the same elements change.
        let mut inplace = at(&vals, &shape, dtype);
        inplace.scatter_(d, &index, &src).unwrap();
        prop_assert_eq!(inplace.to_f64_vec().unwrap(), put);
        // A 0-d value is written at every target.
        let one = Tensor::from_data(&[1.0f64], &[]).unwrap();
        let mut filled = vals.clone();
        for p in 0..ni {
            filled[target(p).1] = 1.0;
        }
        prop_assert_eq!(ops::scatter(&t, d, &index, &one).unwrap().to_f64_vec().unwrap(), filled);
    }
}

#[test]
fn repeated_targets_add_in_order_and_the_last_write_wins() {
    let t = Tensor::zeros(&[2, 3], DType::Int64).unwrap();
    let index = Tensor::from_data(&[2i64, 2, 0, 1, 1, 1], &[2, 3]).unwrap();
    let src = Tensor::from_data(&[1i64, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
    // Along dim 1, row 0 hits column 2 twice (1 then 2) and column 0 once.
    let r = ops::scatter(&t, 1, &index, &src).unwrap();
    assert_eq!(r.to_vec::<i64>().unwrap(), [3, 0, 2, 0, 6, 0]);
    let r = ops::scatter_add(&t, 1, &index, &src).unwrap();
    assert_eq!(r.to_vec::<i64>().unwrap(), [3, 0, 3, 0, 15, 0]);
    // Integers wrap.
    let bytes = Tensor::from_data(&[250u8], &[1]).unwrap();
    let ten = Tensor::from_data(&[10u8], &[1]).unwrap();
    let zero = Tensor::from_data(&[0i64], &[1]).unwrap();
    let r = ops::scatter_add(&bytes, 0, &zero, &ten).unwrap();
    assert_eq!(r.to_vec::<u8>().unwrap(), [4]);
}

#[test]
fn empty_and_zero_d_indices() {
    let t = Tensor::from_data(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    let none = Tensor::zeros(&[2, 0], DType::Int64).unwrap();
    assert_eq!(t.gather(1, &none).unwrap().shape(), &[2, 0]);
    assert_eq!(
        ops::scatter_add(&t, 1, &none, &t)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        [1.0, 2.0, 3.0, 4.0]
    );
    let s = Tensor::from_data(&[7.0f32], &[]).unwrap();
    let i = Tensor::from_data(&[0i64], &[]).unwrap();
    assert_eq!(s.gather(0, &i).unwrap().item::<f32>().unwrap(), 7.0);
    assert_eq!(s.gather(-1, &i).unwrap().shape(), &[] as &[usize]);
    // An empty dim cannot be indexed, but an empty index over it is fine.
    let e = Tensor::zeros(&[2, 0], DType::Float32).unwrap();
    assert_eq!(e.gather(1, &none).unwrap().shape(), &[2, 0]);
    let one = Tensor::zeros(&[2, 1], DType::Int64).unwrap();
    assert_eq!(e.gather(1, &one).unwrap_err().kind(), ErrorKind::Index);
}

#[test]
fn bad_indices_are_refused_naming_the_fix() {
    let t = Tensor::zeros(&[2, 3], DType::Float32).unwrap();
    let f = Tensor::zeros(&[2, 1], DType::Float32).unwrap();
    let e = t.gather(1, &f).unwrap_err();
    assert!(e.to_string().contains(".to(int64)"), "{e}");
    let flat = Tensor::zeros(&[2], DType::Int64).unwrap();
    let e = t.gather(1, &flat).unwrap_err();
    assert!(e.to_string().contains("unsqueeze"), "{e}");
    let tall = Tensor::zeros(&[3, 1], DType::Int64).unwrap();
    assert_eq!(
        t.gather(1, &tall).unwrap_err().kind(),
        ErrorKind::InvalidShape
    );
    let far = Tensor::from_data(&[3i64, -4], &[2, 1]).unwrap();
    assert_eq!(t.gather(1, &far).unwrap_err().kind(), ErrorKind::Index);
    assert_eq!(t.gather(2, &tall).unwrap_err().kind(), ErrorKind::Index);
    // A src smaller than the index, or of another rank.
    let index = Tensor::zeros(&[2, 2], DType::Int64).unwrap();
    let small = Tensor::zeros(&[2, 1], DType::Float32).unwrap();
    assert_eq!(
        ops::scatter(&t, 1, &index, &small).unwrap_err().kind(),
        ErrorKind::InvalidShape
    );
    let flat_src = Tensor::zeros(&[4], DType::Float32).unwrap();
    assert_eq!(
        ops::scatter_add(&t, 1, &index, &flat_src)
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidShape
    );
    // A failed scatter leaves the target as it was.
    let mut kept = Tensor::from_data(&[1.0f32, 2.0], &[1, 2]).unwrap();
    let bad = Tensor::from_data(&[0i64, 5], &[1, 2]).unwrap();
    assert!(kept.scatter_add_(1, &bad, &kept.clone()).is_err());
    assert_eq!(kept.to_vec::<f32>().unwrap(), [1.0, 2.0]);
}

#[test]
fn max_and_min_along_a_dim_are_the_values_at_their_indices() {
    let v = [3.0f32, f32::NAN, 1.0, 5.0, 5.0, -2.0];
    let t = Tensor::from_data(&v, &[2, 3]).unwrap();
    let r = ops::max_dim(&t, 1, false).unwrap();
    let (vals, idx) = (
        r.values.to_vec::<f32>().unwrap(),
        r.indices.to_vec::<i64>().unwrap(),
    );
    assert!(vals[0].is_nan() && vals[1] == 5.0, "{vals:?}");
    assert_eq!(idx, [1, 0]);
    let r = ops::min_dim(&t.t(), 0, true).unwrap();
    assert_eq!(r.values.shape(), &[1, 2]);
    assert_eq!(r.indices.to_vec::<i64>().unwrap(), [1, 2]);
    let s = Tensor::from_data(&[4i32], &[]).unwrap();
    let r = ops::max_dim(&s, 0, false).unwrap();
    assert_eq!(
        (
            r.values.item::<i32>().unwrap(),
            r.indices.item::<i64>().unwrap()
        ),
        (4, 0)
    );
    let empty = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    assert!(ops::max_dim(&empty, 0, false).is_err());
    assert_eq!(ops::max_dim(&empty, 1, false).unwrap().values.shape(), &[0]);
}

#[test]
fn extreme_index_values_are_refused_without_overflow() {
    let t = Tensor::zeros(&[2, 3], DType::Float32).unwrap();
    for v in [i64::MAX, i64::MIN, 3, -4] {
        let idx = Tensor::from_data(&[0i64, v], &[1, 2]).unwrap();
        let e = t.gather(1, &idx).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Index, "{v}: {e}");
        assert!(e.to_string().contains(&v.to_string()), "{e}");
    }
}

/// `nonzero` against the coordinates written out, for masks of several densities and
/// shapes (0-d, empty, one dim, rows long enough to span blocks, and enough rows to span
/// the kernel's parallel tasks), contiguous and transposed, of a float and a bool dtype.
#[test]
fn nonzero_lists_the_set_coordinates_in_row_major_order() {
    let mut shapes: Vec<Vec<usize>> = vec![
        vec![],
        vec![0],
        vec![3, 0, 2],
        vec![7],
        vec![2, 3],
        vec![2, 300],
        vec![2, 3, 4, 5],
    ];
    // Miri runs the small shapes (rows across the 256-position blocks included); natively,
    // enough elements for several parallel tasks too.
    if !cfg!(miri) {
        shapes.extend([vec![5, 600], vec![70_000], vec![3, 70_000], vec![600, 300]]);
    }
    let densities: &[f64] = if cfg!(miri) {
        &[0.0, 0.5]
    } else {
        &[0.0, 0.1, 0.5, 1.0]
    };
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for shape in &shapes {
        let n: usize = shape.iter().product();
        for &density in densities {
            let vals: Vec<f64> = (0..n)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    f64::from(u8::from(
                        ((seed >> 11) as f64 / (1u64 << 53) as f64) < density,
                    ))
                })
                .collect();
            let want: Vec<i64> = (0..n)
                .filter(|&i| vals[i] != 0.0)
                .flat_map(|i| coords(shape, i).into_iter().map(|c| c as i64))
                .collect();
            for (dtype, transposed) in [(DType::Float32, false), (DType::Bool, true)] {
                let t = tensor(&vals, shape, dtype, transposed);
                let got = ops::nonzero(&t).unwrap();
                let count = want.len() / shape.len().max(1);
                let count = if shape.is_empty() {
                    usize::from(vals[0] != 0.0)
                } else {
                    count
                };
                assert_eq!(got.shape(), &[count, shape.len()], "{shape:?} {density}");
                assert_eq!(got.dtype(), DType::Int64);
                assert_eq!(
                    got.to_vec::<i64>().unwrap(),
                    want,
                    "{shape:?} {density} {dtype}"
                );
            }
        }
    }
}

/// Inputs large enough for the kernels' parallel split, along each dim: a float
/// `scatter_add` whose result depends on the order of the additions (1e8 swallows a 1 added
/// after it, not one added before) matches a model that adds in row-major order, on any
/// thread count; `scatter` keeps the last write; `gather` matches. Index dtypes other than
/// Int64 give the same result.
#[test]
fn large_scatters_keep_row_major_order_on_every_thread() {
    let (rows, cols) = if cfg!(miri) { (3, 5) } else { (300, 700) };
    let shape = [rows, cols];
    let n = rows * cols;
    let mut rng = Lcg::new(7u64);
    let mut next = |m: u64| rng.below(m);
    let src: Vec<f32> = (0..n)
        .map(|_| if next(4) == 0 { 1e8 } else { 1.0 })
        .collect();
    let base: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let t = Tensor::from_data(&base, &shape).unwrap();
    let src_t = Tensor::from_data(&src, &shape).unwrap();
    for dim in 0..2 {
        let size = shape[dim] as u64;
        // Few distinct targets per line, so most are repeated.
        let idx: Vec<i64> = (0..n).map(|_| next(size.min(5)) as i64).collect();
        let index = Tensor::from_data(&idx, &shape).unwrap();
        let (mut put, mut acc) = (base.clone(), base.clone());
        let mut got = vec![0f32; n];
        for p in 0..n {
            let mut c = coords(&shape, p);
            c[dim] = idx[p] as usize;
            let q = flat(&shape, &c);
            put[q] = src[p];
            acc[q] += src[p];
            got[p] = base[q];
        }
        for dtype in [DType::Int64, DType::Int32, DType::Int16, DType::UInt8] {
            let index = index.to_dtype(dtype).unwrap();
            let d = dim as isize;
            assert_eq!(t.gather(d, &index).unwrap().to_vec::<f32>().unwrap(), got);
            let r = ops::scatter(&t, d, &index, &src_t).unwrap();
            assert_eq!(r.to_vec::<f32>().unwrap(), put, "scatter dim {dim} {dtype}");
            let r = ops::scatter_add(&t, d, &index, &src_t).unwrap();
            assert_eq!(
                r.to_vec::<f32>().unwrap(),
                acc,
                "scatter_add dim {dim} {dtype}"
            );
        }
    }
}

/// An index that is a view of the target is read before the target is written, and a
/// target whose elements overlap (an expanded view) takes the writes in row-major order.
#[test]
fn scatters_through_aliased_and_overlapping_views() {
    // The target transposed, as the index of a scatter along dim 1: the additions change
    // the values later positions read as their index, unless the index is read first.
    let t = Tensor::from_data(&[0i64, 1, 0, 1], &[2, 2]).unwrap();
    let index = t.t();
    let ones = Tensor::full(&[2, 2], 1.0, DType::Int64).unwrap();
    // SAFETY: nobody else uses `t` during the call.
    unsafe { ops::scatter_add_shared(&t, 1, &index, &ones).unwrap() };
    assert_eq!(t.to_vec::<i64>().unwrap(), [2, 1, 0, 3]);
    // Every row of the expanded view is the same memory: the last row's write wins.
    let row = Tensor::zeros(&[3], DType::Float32).unwrap();
    let wide = row.unsqueeze(0).unwrap().expand(&[4, 3]).unwrap();
    let index = Tensor::from_data(&[0i64, 1, 2, 0, 1, 2, 0, 1, 2, 2, 1, 0], &[4, 3]).unwrap();
    let vals: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let vals = Tensor::from_data(&vals, &[4, 3]).unwrap();
    // SAFETY: nobody else uses `row` during the call.
    unsafe { ops::scatter_shared(&wide, 1, &index, &vals).unwrap() };
    assert_eq!(row.to_vec::<f32>().unwrap(), [11.0, 10.0, 9.0]);
}

/// A histogram: a target much smaller than the index, here a strided view (every other
/// element of a buffer). The counts match the model, and an out-of-range value anywhere,
/// even last, leaves the target and its neighbours as they were.
#[test]
fn histograms_into_a_small_view_are_all_or_nothing() {
    let buf = Tensor::from_data(&[0.5f32; 10], &[5, 2]).unwrap();
    let bins = buf.select(1, 0).unwrap();
    // Large enough (outside Miri) to be summed in blocks on every thread.
    let n = if cfg!(miri) { 64 } else { 300_000 };
    let idx: Vec<i64> = (0..n).map(|i| (i * 7 % 10) as i64 - 5).collect();
    let index = Tensor::from_data(&idx, &[n]).unwrap();
    let ones = Tensor::full(&[n], 1.0, DType::Float32).unwrap();
    let mut want = [0.5f32; 10];
    for &i in &idx {
        want[(if i < 0 { i + 5 } else { i }) as usize * 2] += 1.0;
    }
    // SAFETY: nobody else uses `buf` during the calls.
    unsafe { ops::scatter_add_shared(&bins, 0, &index, &ones).unwrap() };
    assert_eq!(buf.to_vec::<f32>().unwrap(), want);
    let mut bad = idx.clone();
    *bad.last_mut().unwrap() = 5;
    let bad = Tensor::from_data(&bad, &[n]).unwrap();
    for write in [false, true] {
        // SAFETY: as above.
        let e = unsafe {
            if write {
                ops::scatter_shared(&bins, 0, &bad, &ones)
            } else {
                ops::scatter_add_shared(&bins, 0, &bad, &ones)
            }
        }
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Index);
        assert_eq!(buf.to_vec::<f32>().unwrap(), want);
    }
}

/// A sum into a target small beside an index with one dim longer than 1 is cut along it
/// into at most 16 blocks of at least 65,536 positions, each summed in row-major order from
/// zero; the target then adds the blocks' sums in order. Floats (here values whose sum
/// depends on the order) match that model bit for bit, a strided index too, integers the
/// one-pass model; an index with two rows keeps the one-pass order.
#[test]
fn large_histograms_sum_in_fixed_blocks() {
    if cfg!(miri) {
        return; // Hundreds of thousands of positions: the small cases above cover Miri.
    }
    let (n, bins) = (700_001usize, 1000usize);
    let mut rng = Lcg::new(11u64);
    let mut next = |m: u64| rng.below(m);
    let idx: Vec<i64> = (0..n).map(|_| next(bins as u64) as i64).collect();
    let vals: Vec<f32> = (0..n)
        .map(|_| if next(8) == 0 { 3e7 } else { 0.75 })
        .collect();
    let base: Vec<f32> = (0..bins).map(|b| b as f32 * 0.5).collect();
    // The blocked sum.
    let model = || {
        let per = n.div_ceil((n / 65_536).min(16));
        let mut want = base.clone();
        for chunk in idx.chunks(per).zip(vals.chunks(per)) {
            let mut part = vec![0f32; bins];
            for (&i, &v) in chunk.0.iter().zip(chunk.1) {
                part[i as usize] += v;
            }
            for (w, p) in want.iter_mut().zip(part) {
                *w += p;
            }
        }
        want
    };
    let want = model();
    let mut one_pass = base.clone();
    for (&i, &v) in idx.iter().zip(&vals) {
        one_pass[i as usize] += v;
    }
    let t = Tensor::from_data(&base, &[bins]).unwrap();
    let index = Tensor::from_data(&idx, &[n]).unwrap();
    let src = Tensor::from_data(&vals, &[n]).unwrap();
    let got = ops::scatter_add(&t, 0, &index, &src).unwrap();
    assert_eq!(got.to_vec::<f32>().unwrap(), want);
    // The order matters for these values: a one-pass sum differs somewhere.
    assert_ne!(one_pass, want);
    // Integers: exactly the one-pass sums (wrapping sums do not depend on the order).
    let ints: Vec<i64> = vals.iter().map(|&v| (v * 4.0) as i64).collect();
    let mut counts = vec![5i64; bins];
    for (&i, &v) in idx.iter().zip(&ints) {
        counts[i as usize] += v;
    }
    let ti = Tensor::full(&[bins], 5.0, DType::Int64).unwrap();
    let si = Tensor::from_data(&ints, &[n]).unwrap();
    let got = ops::scatter_add(&ti, 0, &index, &si).unwrap();
    assert_eq!(got.to_vec::<i64>().unwrap(), counts);
    // The index and values as strided views, along dim 1 of `[1, n]`: the same blocks.
    let strided = |t: &Tensor| {
        let two = ops::stack(&[t.clone(), t.clone()], 1).unwrap();
        two.select(1, 1).unwrap().unsqueeze(0).unwrap()
    };
    let (idx1, src1) = (strided(&index), strided(&src));
    assert!(!idx1.is_contiguous());
    let t1 = t.unsqueeze(0).unwrap();
    let got = ops::scatter_add(&t1, 1, &idx1, &src1).unwrap();
    assert_eq!(got.to_vec::<f32>().unwrap(), want);
    // Two rows of positions into two rows of bins: the split by rows runs them in
    // parallel, each in one pass, in row-major order.
    let stack = |t: &Tensor| ops::stack(&[t.clone(), t.clone()], 0).unwrap();
    let got = ops::scatter_add(&stack(&t), 1, &stack(&index), &stack(&src)).unwrap();
    let rows: Vec<f32> = one_pass.iter().chain(&one_pass).copied().collect();
    assert_eq!(got.to_vec::<f32>().unwrap(), rows);
}

/// The model of one reduction, PyTorch's rules: `vals` is the target's own value (when it
/// takes part) and the values reaching it, in order.
fn reduce_model(reduce: ops::ScatterReduce, dtype: DType, vals: &[f64]) -> f64 {
    use ops::ScatterReduce as R;
    let boolean = dtype == DType::Bool;
    match reduce {
        R::Sum if boolean => f64::from(vals.iter().any(|&v| v != 0.0)),
        R::Sum => vals.iter().sum(),
        R::Prod if boolean => f64::from(vals.iter().all(|&v| v != 0.0)),
        R::Prod => vals.iter().product(),
        R::Mean => {
            let m = vals.iter().sum::<f64>() / vals.len() as f64;
            if dtype.is_float() {
                m
            } else {
                m.floor()
            }
        }
        R::Amax => vals.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        R::Amin => vals.iter().copied().fold(f64::INFINITY, f64::min),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `scatter_reduce` for every reduction, with and without the target's own value, out of
    /// place and in place through a transposed view, against the model; values small enough
    /// that every sum and product is exact (at most 4 reach one target). Not under Miri (two
    /// cases took two minutes): `scatter_reduce_edges` runs every combining mode there.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn scatter_reduce_matches_the_model(
        shape in prop::collection::vec(1usize..4, 1..3),
        dim in 0usize..2,
        along in 0usize..5,
        dtype in prop::sample::select(vec![
            DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
            DType::Int32, DType::Int64, DType::UInt8, DType::Bool,
        ]),
        transposed in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let nd = shape.len();
        let dim = dim % nd;
        let mut ishape = shape.clone();
        ishape[dim] = along;
        let mut rng = Lcg::new(seed);
        let mut next = |m: u64| rng.below(m);
        let top = if dtype == DType::Bool { 2 } else { 4 };
        let n: usize = shape.iter().product();
        let ni: usize = ishape.iter().product();
        let vals: Vec<f64> = (0..n).map(|_| next(top) as f64).collect();
        let svals: Vec<f64> = (0..ni).map(|_| next(top) as f64).collect();
        let size = shape[dim] as i64;
        let idx: Vec<i64> = (0..ni).map(|_| next(size as u64) as i64).collect();
        let t = tensor(&vals, &shape, dtype, transposed);
        let index = tensor(&idx.iter().map(|&i| i as f64).collect::<Vec<_>>(), &ishape, DType::Int64, false);
        let src = tensor(&svals, &ishape, dtype, transposed);
        // What reaches each target, in row-major order of the index.
        let mut reach: Vec<Vec<f64>> = vec![Vec::new(); n];
        for p in 0..ni {
            let mut c = coords(&ishape, p);
            c[dim] = idx[p] as usize;
            reach[flat(&shape, &c)].push(svals[p]);
        }
        for reduce in ops::ScatterReduce::ALL {
            if reduce == ops::ScatterReduce::Mean && dtype == DType::Bool {
                let e = ops::scatter_reduce(&t, dim as isize, &index, &src, reduce, true).unwrap_err();
                prop_assert_eq!(e.kind(), ErrorKind::InvalidArgument);
                continue;
            }
            for include_self in [true, false] {
                let want: Vec<f64> = (0..n)
                    .map(|q| {
                        if reach[q].is_empty() {
                            return vals[q];
                        }
                        let mut all = if include_self { vec![vals[q]] } else { Vec::new() };
                        all.extend(&reach[q]);
                        reduce_model(reduce, dtype, &all)
                    })
                    .collect();
                let close = |got: &[f64]| {
                    got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 1e-2 * w.abs())
                };
                let r = ops::scatter_reduce(&t, dim as isize, &index, &src, reduce, include_self).unwrap();
                prop_assert_eq!(r.dtype(), dtype);
                let got = r.to_f64_vec().unwrap();
                prop_assert!(close(&got), "{} self={}: {:?} vs {:?}", reduce.name(), include_self, got, want);
                let mut inplace = tensor(&vals, &shape, dtype, transposed);
                inplace.scatter_reduce_(dim as isize, &index, &src, reduce, include_self).unwrap();
                let got = inplace.to_f64_vec().unwrap();
                prop_assert!(close(&got), "in place {} self={}: {:?}", reduce.name(), include_self, got);
            }
        }
    }
}

/// `scatter_reduce`'s edges: NaN wins a max and a min, integers wrap and floor, a bad
/// name or index is refused and an in-place reduction that fails leaves the target.
#[test]
fn scatter_reduce_edges() {
    use ops::ScatterReduce as R;
    let t = Tensor::from_data(&[0.0f32, 5.0], &[2]).unwrap();
    let index = Tensor::from_data(&[0i64, 0, 1], &[3]).unwrap();
    let src = Tensor::from_data(&[f32::NAN, 1.0, 7.0], &[3]).unwrap();
    for reduce in [R::Amax, R::Amin] {
        let r = ops::scatter_reduce(&t, 0, &index, &src, reduce, true).unwrap();
        let r = r.to_vec::<f32>().unwrap();
        assert!(r[0].is_nan(), "{}: {r:?}", reduce.name());
    }
    // Integer means floor (-3 / 2 is -2), products wrap.
    let t = Tensor::from_data(&[0i32, 1], &[2]).unwrap();
    let src = Tensor::from_data(&[-1i32, -2, 3], &[3]).unwrap();
    let r = ops::scatter_reduce(&t, 0, &index, &src, R::Mean, false).unwrap();
    assert_eq!(r.to_vec::<i32>().unwrap(), [-2, 3]);
    let bytes = Tensor::from_data(&[16u8], &[1]).unwrap();
    let zeros = Tensor::zeros(&[2], DType::Int64).unwrap();
    let sixteen = Tensor::from_data(&[16u8, 2], &[2]).unwrap();
    let r = ops::scatter_reduce(&bytes, 0, &zeros, &sixteen, R::Prod, true).unwrap();
    assert_eq!(r.to_vec::<u8>().unwrap(), [0]);
    // Unsigned minimum from the identity: the largest value, not a wrapped -1.
    let big = Tensor::from_data(&[9u64], &[1]).unwrap();
    let vals = Tensor::from_data(&[u64::MAX - 1, u64::MAX], &[2]).unwrap();
    let r = ops::scatter_reduce(&big, 0, &zeros, &vals, R::Amin, false).unwrap();
    assert_eq!(r.to_vec::<u64>().unwrap(), [u64::MAX - 1]);
    let e = R::parse("max").unwrap_err();
    assert!(e.to_string().contains("\"amax\""), "{e}");
    assert_eq!(R::parse("amin").unwrap(), R::Amin);
    let mut kept = Tensor::from_data(&[1.0f32, 2.0], &[2]).unwrap();
    let bad = Tensor::from_data(&[0i64, 2], &[2]).unwrap();
    let two = Tensor::from_data(&[3.0f32, 4.0], &[2]).unwrap();
    for include_self in [true, false] {
        let e = kept
            .scatter_reduce_(0, &bad, &two, R::Mean, include_self)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Index);
        assert_eq!(kept.to_vec::<f32>().unwrap(), [1.0, 2.0]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 3 } else { 128 }))]

    #[test]
    fn index_add_matches_the_model(
        shape in prop::collection::vec(1usize..6, 0..4),
        dim in 0usize..3,
        n in 0usize..9,
        dtype in prop::sample::select(vec![
            DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64,
            DType::UInt8, DType::Int8,
        ]),
        alpha in -2i64..4,
        t_transposed in any::<bool>(),
        s_transposed in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let nd = shape.len();
        let dim = if nd == 0 { 0 } else { dim % nd };
        let n = if nd == 0 { 1 } else { n };
        let mut rng = Lcg::new(seed);
        let mut next = |m: u64| rng.below(m);
        let size = if nd == 0 { 1 } else { shape[dim] as i64 };
        let mut sshape = shape.clone();
        if nd > 0 {
            sshape[dim] = n;
        }
        let total: usize = shape.iter().product();
        let stotal: usize = sshape.iter().product();
        // Small values, exact in every dtype (u8 results stay below 256).
        let vals: Vec<f64> = (0..total).map(|_| next(4) as f64).collect();
        let svals: Vec<f64> = (0..stotal).map(|_| next(4) as f64).collect();
        let idx: Vec<i64> = (0..n).map(|_| next(2 * size as u64) as i64 - size).collect();
        let alpha = if dtype == DType::UInt8 { alpha.abs() } else { alpha };

        let mut want = vals.clone();
        for (p, &v) in svals.iter().enumerate() {
            let mut c = coords(&sshape, p);
            if nd > 0 {
                let j = idx[c[dim]];
                c[dim] = (if j < 0 { j + size } else { j }) as usize;
            }
            want[flat(&shape, &c)] += alpha as f64 * v;
        }
        let t = tensor(&vals, &shape, dtype, t_transposed);
        let src = tensor(&svals, &sshape, dtype, s_transposed);
        let index = Tensor::from_data(&idx, &[n]).unwrap();
        let r = t.index_add(dim as isize, &index, &src, alpha).unwrap();
        prop_assert_eq!(r.shape(), &shape[..]);
        prop_assert_eq!(r.dtype(), dtype);
        prop_assert_eq!(r.to_f64_vec().unwrap(), want.clone());
        // The input is untouched; in place gives the same.
        prop_assert_eq!(t.to_f64_vec().unwrap(), vals);
        let mut u = t.contiguous_copy().unwrap();
        u.index_add_(dim as isize - nd.max(1) as isize, &index, &src, alpha).unwrap();
        prop_assert_eq!(u.to_f64_vec().unwrap(), want);
    }
}

#[test]
fn index_add_rows_of_a_large_tensor_accumulate_in_order() {
    // Rows long enough for the threaded split, with repeats: the vectorized row path.
    let (rows, cols, n) = (7usize, if cfg!(miri) { 20 } else { 3000 }, 40usize);
    let t = Tensor::zeros(&[rows, cols], DType::Float32).unwrap();
    let idx: Vec<i32> = (0..n as i32).map(|i| (i * 5) % rows as i32).collect();
    let src_vals: Vec<f32> = (0..n * cols).map(|i| (i % 13) as f32).collect();
    let src = Tensor::from_data(&src_vals, &[n, cols]).unwrap();
    let index = Tensor::from_data(&idx, &[n]).unwrap();
    let r = t.index_add(0, &index, &src, 0.5).unwrap();
    let mut want = vec![0f32; rows * cols];
    for (i, &row) in idx.iter().enumerate() {
        for c in 0..cols {
            want[row as usize * cols + c] += 0.5 * src_vals[i * cols + c];
        }
    }
    assert_eq!(r.as_slice::<f32>().unwrap(), &want[..]);
    // Along the last dim: the index varies along each row.
    let tt = Tensor::zeros(&[cols, rows], DType::Float32).unwrap();
    let st = src.permute(&[1, 0]).unwrap();
    let r = tt.index_add(1, &index, &st, 0.5).unwrap();
    let back = r.permute(&[1, 0]).unwrap().contiguous().unwrap();
    assert_eq!(back.as_slice::<f32>().unwrap(), &want[..]);
}

#[test]
fn index_add_refuses_bad_arguments_and_writes_nothing() {
    let base = Tensor::from_data(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    let src = Tensor::ones(&[2, 3], DType::Float32).unwrap();
    let i = |v: &[i64]| Tensor::from_data(v, &[v.len()]).unwrap();
    let kind = |r: clika_rt::Result<()>| r.unwrap_err().kind();
    let mut t = base.contiguous_copy().unwrap();
    // Out of range: nothing written, even after in-range values.
    assert_eq!(
        kind(t.index_add_(0, &i(&[0, 2]), &src, 1)),
        ErrorKind::Index
    );
    assert_eq!(
        kind(t.index_add_(0, &i(&[-3, 0]), &src, 1)),
        ErrorKind::Index
    );
    // The source's shape: the index's length along dim, the tensor's elsewhere.
    assert_eq!(
        kind(t.index_add_(0, &i(&[0]), &src, 1)),
        ErrorKind::InvalidShape
    );
    let wide = Tensor::ones(&[2, 4], DType::Float32).unwrap();
    assert_eq!(
        kind(t.index_add_(0, &i(&[0, 1]), &wide, 1)),
        ErrorKind::InvalidShape
    );
    // A 2-D or float index.
    let two = Tensor::from_data(&[0i64, 1], &[2, 1]).unwrap();
    assert_eq!(
        kind(t.index_add_(0, &two, &src, 1)),
        ErrorKind::InvalidArgument
    );
    let float = Tensor::from_data(&[0.0f32, 1.0], &[2]).unwrap();
    assert_eq!(
        kind(t.index_add_(0, &float, &src, 1)),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        kind(t.index_add_(2, &i(&[0, 1]), &src, 1)),
        ErrorKind::Index
    );
    assert_eq!(t.to_f64_vec().unwrap(), base.to_f64_vec().unwrap());
    // Floats into integers: the source and alpha.
    let mut ints = Tensor::zeros(&[2, 3], DType::Int32).unwrap();
    assert_eq!(
        kind(ints.index_add_(0, &i(&[0, 1]), &src, 1)),
        ErrorKind::DType
    );
    let isrc = Tensor::ones(&[2, 3], DType::Int32).unwrap();
    assert_eq!(
        kind(ints.index_add_(0, &i(&[0, 1]), &isrc, 0.5)),
        ErrorKind::DType
    );
    ints.index_add_(0, &i(&[1, 1]), &isrc, Scalar::Int(3))
        .unwrap();
    assert_eq!(ints.to_f64_vec().unwrap(), [0.0, 0.0, 0.0, 6.0, 6.0, 6.0]);
    // A wider float source is rounded into the tensor's float dtype (same kind).
    let f64src = Tensor::ones(&[2, 3], DType::Float64).unwrap();
    let r = ops::index_add(
        &base,
        1,
        &i(&[2, 0, 2]),
        &f64src.narrow(1, 0, 3).unwrap(),
        Scalar::Int(1),
    )
    .unwrap();
    assert_eq!(r.to_f64_vec().unwrap(), [2.0, 2.0, 5.0, 5.0, 5.0, 8.0]);
    // A source that shares the tensor's memory is read before any write.
    let mut s = Tensor::from_data(&[1.0f32, 2.0, 3.0], &[3]).unwrap();
    let view = s.clone();
    assert_eq!(
        kind(s.index_add_(0, &i(&[2, 1, 0]), &view, 1)),
        ErrorKind::ReadOnly
    );
    drop(view);
    let alias = s.clone();
    // SAFETY: no other thread touches `s`.
    unsafe { ops::index_add_shared(&s, 0, &i(&[2, 1, 0]), &alias, Scalar::Int(1)).unwrap() };
    assert_eq!(s.to_f64_vec().unwrap(), [4.0, 4.0, 4.0]);
}

/// `bincount` against a counting model: contiguous, strided, broadcast and empty inputs, any
/// integer dtype, `minlength`, weights (the result's dtype as PyTorch's), a long input (the
/// parallel blocks), and the errors, each naming the fix.
#[test]
fn bincount_counts_values_and_sums_weights() {
    let model = |vals: &[i64], w: Option<&[f64]>, minlength: usize| -> Vec<f64> {
        let bins = vals.iter().map(|&v| v as usize + 1).max().unwrap_or(0);
        let mut out = vec![0.0; bins.max(minlength)];
        for (k, &v) in vals.iter().enumerate() {
            out[v as usize] += w.map_or(1.0, |w| w[k]);
        }
        out
    };
    let vals: Vec<i64> = vec![3, 0, 3, 7, 1, 3, 0, 2];
    let t = Tensor::from_data(&vals, &[8]).unwrap();
    let got = ops::bincount(&t, None, 0).unwrap();
    assert_eq!(got.dtype(), DType::Int64);
    assert_eq!(got.to_f64_vec().unwrap(), model(&vals, None, 0));
    assert_eq!(
        ops::bincount(&t, None, 12).unwrap().to_f64_vec().unwrap(),
        model(&vals, None, 12)
    );
    // Strided (every other element) and broadcast (one element, stride 0), other dtypes.
    let every_other: Vec<i64> = vals.iter().step_by(2).copied().collect();
    for dtype in [DType::UInt8, DType::Int16, DType::Int32, DType::UInt64] {
        let s = t
            .to_dtype(dtype)
            .unwrap()
            .slice(0, Some(0), None, 2)
            .unwrap();
        assert!(!s.is_contiguous());
        assert_eq!(
            ops::bincount(&s, None, 0).unwrap().to_f64_vec().unwrap(),
            model(&every_other, None, 0),
            "{dtype}"
        );
    }
    let wide = t.narrow(0, 3, 1).unwrap().expand(&[5]).unwrap();
    assert_eq!(
        ops::bincount(&wide, None, 0).unwrap().to_f64_vec().unwrap(),
        model(&[7; 5], None, 0)
    );
    // Empty: `minlength` bins (none by default).
    let empty = Tensor::zeros(&[0], DType::Int32).unwrap();
    assert_eq!(ops::bincount(&empty, None, 0).unwrap().shape(), [0]);
    assert_eq!(
        ops::bincount(&empty, None, 4)
            .unwrap()
            .to_f64_vec()
            .unwrap(),
        [0.0; 4]
    );
    // Weights: Float32 stays Float32, every other dtype sums in Float64.
    let w: Vec<f64> = (0..8).map(|k| k as f64 * 0.25 - 0.5).collect();
    for (wdt, want_dt) in [
        (DType::Float32, DType::Float32),
        (DType::Float64, DType::Float64),
        (DType::Float16, DType::Float64),
        (DType::Int32, DType::Float64),
    ] {
        let ww: Vec<f64> = if wdt == DType::Int32 {
            w.iter().map(|v| v.trunc()).collect()
        } else {
            w.clone()
        };
        let wt = Tensor::from_data(&ww, &[8]).unwrap().to_dtype(wdt).unwrap();
        let got = ops::bincount(&t, Some(&wt), 0).unwrap();
        assert_eq!(got.dtype(), want_dt, "{wdt}");
        assert_eq!(
            got.to_f64_vec().unwrap(),
            model(&vals, Some(&ww), 0),
            "{wdt}"
        );
    }
    // A long input (the parallel blocks outside Miri): exact counts.
    let n = if cfg!(miri) { 300 } else { 400_003 };
    let long: Vec<i64> = (0..n).map(|i| (i as i64 * 7919) % 1009).collect();
    let lt = Tensor::from_data(&long, &[n]).unwrap();
    assert_eq!(
        ops::bincount(&lt, None, 0).unwrap().to_f64_vec().unwrap(),
        model(&long, None, 0)
    );
    // The counting kernel's shapes: a flipped (negative stride) UInt16 view into few bins
    // (interleaved tables), every third Int32 value into 5000 bins (one table), one value
    // repeated; lengths that the tables do not divide.
    let flipped = lt.to_dtype(DType::UInt16).unwrap().flip(&[0]).unwrap();
    let reversed: Vec<i64> = long.iter().rev().copied().collect();
    assert_eq!(
        ops::bincount(&flipped, None, 3)
            .unwrap()
            .to_f64_vec()
            .unwrap(),
        model(&reversed, None, 3)
    );
    let spread: Vec<i64> = (0..n).map(|i| (i as i64 * 7919) % 5003).collect();
    let third = Tensor::from_data(&spread, &[n])
        .unwrap()
        .to_dtype(DType::Int32)
        .unwrap()
        .slice(0, Some(1), None, 3)
        .unwrap();
    let every_third: Vec<i64> = spread.iter().skip(1).step_by(3).copied().collect();
    assert_eq!(
        ops::bincount(&third, None, 0)
            .unwrap()
            .to_f64_vec()
            .unwrap(),
        model(&every_third, None, 0)
    );
    let same = Tensor::full(&[n - 2], 4.0, DType::UInt8).unwrap();
    assert_eq!(
        ops::bincount(&same, None, 0).unwrap().to_f64_vec().unwrap(),
        model(&vec![4; n - 2], None, 0)
    );
    // Errors: negative values, a UInt64 past int64, floats, Bool, 2-D, wrong weights.
    let e = ops::bincount(&Tensor::from_data(&[1i64, -3], &[2]).unwrap(), None, 0).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    assert!(e.to_string().contains("negative value -3"), "{e}");
    let huge = Tensor::from_data(&[u64::MAX], &[1]).unwrap();
    let e = ops::bincount(&huge, None, 0).unwrap_err();
    assert!(e.to_string().contains("past int64"), "{e}");
    for bad in [
        Tensor::from_data(&[1.0f32], &[1]).unwrap(),
        Tensor::from_data(&[true], &[1]).unwrap(),
        t.reshape(&[2, 4]).unwrap(),
    ] {
        let e = ops::bincount(&bad, None, 0).unwrap_err();
        assert!(e.to_string().contains(".to(int64)"), "{e}");
    }
    let e = ops::bincount(&t, Some(&Tensor::ones(&[7], DType::Float32).unwrap()), 0).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidShape);
}

/// `histc` against a float64 model: strided 2-D, half-precision and empty inputs, the data's
/// own range (widened around one value), values on the edges, NaN and infinities outside an
/// explicit range, a long input (the parallel blocks), and the errors, each naming the fix.
#[test]
fn histc_counts_values_in_equal_bins() {
    let model = |x: &[f64], bins: usize, lo: f64, hi: f64| -> Vec<f64> {
        let mut out = vec![0.0; bins];
        for &v in x.iter().filter(|&&v| v >= lo && v <= hi) {
            out[(((v - lo) * bins as f64 / (hi - lo)) as usize).min(bins - 1)] += 1.0;
        }
        out
    };
    let x = Tensor::from_data(&[0.0f32, 1.0, 2.0, 3.0, 4.0], &[5]).unwrap();
    let got = ops::histc(&x, 4, 1.0, 3.0).unwrap();
    assert_eq!(got.dtype(), DType::Float32);
    assert_eq!(got.to_f64_vec().unwrap(), [1.0, 0.0, 1.0, 1.0]);
    // The data's range, and one either side of a single value.
    assert_eq!(
        ops::histc(&x, 2, 0.0, 0.0).unwrap().to_f64_vec().unwrap(),
        [2.0, 3.0]
    );
    let two = Tensor::from_data(&[2.0f64, 2.0], &[2]).unwrap();
    assert_eq!(
        ops::histc(&two, 4, 0.0, 0.0).unwrap().to_f64_vec().unwrap(),
        [0.0, 0.0, 2.0, 0.0]
    );
    // A transposed 2-D view in float16 and bfloat16: every element counts, the dtype stays.
    let vals: Vec<f64> = (0..24).map(|i| (i * 7 % 24) as f64 / 4.0 - 2.0).collect();
    for dtype in [DType::Float16, DType::BFloat16, DType::Float64] {
        let t = Tensor::from_data(&vals, &[4, 6])
            .unwrap()
            .to_dtype(dtype)
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        let got = ops::histc(&t, 5, -1.0, 2.5).unwrap();
        assert_eq!(got.dtype(), dtype);
        assert_eq!(
            got.to_f64_vec().unwrap(),
            model(&vals, 5, -1.0, 2.5),
            "{dtype}"
        );
    }
    // A broadcast input (one element, stride 0) counts once per position.
    let wide = x.narrow(0, 2, 1).unwrap().expand(&[3, 4]).unwrap();
    assert_eq!(
        ops::histc(&wide, 4, 1.0, 3.0)
            .unwrap()
            .to_f64_vec()
            .unwrap(),
        [0.0, 0.0, 12.0, 0.0]
    );
    // NaN and infinities count nowhere; an empty input gives zeros.
    let odd = Tensor::from_data(&[f32::NAN, 0.5, f32::INFINITY, -f32::INFINITY], &[4]).unwrap();
    assert_eq!(
        ops::histc(&odd, 2, 0.0, 1.0).unwrap().to_f64_vec().unwrap(),
        [0.0, 1.0]
    );
    let empty = Tensor::zeros(&[0], DType::Float32).unwrap();
    assert_eq!(
        ops::histc(&empty, 3, 0.0, 0.0)
            .unwrap()
            .to_f64_vec()
            .unwrap(),
        [0.0; 3]
    );
    // A long input (the parallel blocks outside Miri), strided, into few and many bins.
    let n = if cfg!(miri) { 301 } else { 400_003 };
    let mut rng = Lcg::new(17);
    let long: Vec<f64> = (0..n).map(|_| rng.unit() * 10.0 - 5.0).collect();
    let lt = Tensor::from_data(&long, &[n]).unwrap();
    let every_other: Vec<f64> = long.iter().step_by(2).copied().collect();
    let strided = lt.slice(0, Some(0), None, 2).unwrap();
    for (bins, lo, hi) in [(16, -4.0, 4.0), (5000, -5.0, 5.0)] {
        assert_eq!(
            ops::histc(&strided, bins, lo, hi)
                .unwrap()
                .to_f64_vec()
                .unwrap(),
            model(&every_other, bins, lo, hi)
        );
    }
    // Errors.
    for (t, bins, lo, hi, fix) in [
        (&x, 0, 0.0, 0.0, "at least 1"),
        (&x, 3, 2.0, 1.0, "swap them"),
        (&odd, 3, 0.0, 0.0, "not finite"),
    ] {
        let e = ops::histc(t, bins, lo, hi).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(e.to_string().contains(fix), "{e}");
    }
    let ints = Tensor::from_data(&[1i64, 2], &[2]).unwrap();
    let e = ops::histc(&ints, 3, 0.0, 0.0).unwrap_err();
    assert!(e.to_string().contains(".to(float32)"), "{e}");
}

/// Rows longer than the kernels' check block (512 positions): blocks whose values all lie in
/// `0..size` are read without a per-value check, blocks with a negative value take the
/// checked path, and an out-of-range value in a late block still fails the whole call with
/// nothing written. Gather and scatter-add against the model, contiguous and strided index.
#[test]
fn long_rows_mix_checked_and_unchecked_blocks() {
    let (n, bins) = (if cfg!(miri) { 1100 } else { 3000 }, 37usize);
    let mut rng = Lcg::new(5u64);
    let mut idx: Vec<i64> = (0..n).map(|_| rng.below(bins as u64) as i64).collect();
    // One negative value in the second and in the last block.
    idx[700] = -3;
    idx[n - 1] = -(bins as i64);
    let vals: Vec<f32> = (0..n).map(|i| (i % 13) as f32 * 0.25).collect();
    let base: Vec<f32> = (0..bins).map(|b| b as f32).collect();
    let wrap = |i: i64| (if i < 0 { i + bins as i64 } else { i }) as usize;
    let mut summed = base.clone();
    for (&i, &v) in idx.iter().zip(&vals) {
        summed[wrap(i)] += v;
    }
    let gathered: Vec<f32> = idx.iter().map(|&i| base[wrap(i)]).collect();
    let t = Tensor::from_data(&base, &[1, bins]).unwrap();
    let src = Tensor::from_data(&vals, &[1, n]).unwrap();
    let index = Tensor::from_data(&idx, &[1, n]).unwrap();
    // The same index as a strided view (every other element of a doubled row).
    let doubled: Vec<i64> = idx.iter().flat_map(|&i| [i, 0]).collect();
    let strided = Tensor::from_data(&doubled, &[1, 2 * n])
        .unwrap()
        .slice(1, None, None, 2)
        .unwrap();
    assert!(!strided.is_contiguous());
    for index in [&index, &strided] {
        let got = ops::scatter_add(&t, 1, index, &src).unwrap();
        assert_eq!(got.to_vec::<f32>().unwrap(), summed);
        let got = ops::gather(&t, 1, index).unwrap();
        assert_eq!(got.to_vec::<f32>().unwrap(), gathered);
    }
    // An out-of-range value in the last block: an error, the target as it was.
    let mut bad = idx.clone();
    bad[n - 2] = bins as i64;
    let bad = Tensor::from_data(&bad, &[1, n]).unwrap();
    assert_eq!(
        ops::gather(&t, 1, &bad).unwrap_err().kind(),
        ErrorKind::Index
    );
    // SAFETY: nobody else uses `t` during the call.
    let e = unsafe { ops::scatter_add_shared(&t, 1, &bad, &src) }.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Index);
    assert_eq!(t.to_vec::<f32>().unwrap(), base);
}
