//! Indexing against a naive model: every advanced index is checked element by element with
//! index arithmetic written out, on contiguous, transposed and empty sources.

use clika_rt::ops::{self, TensorIndex as I};
use clika_rt::{DType, ErrorKind, Tensor};

fn iota(shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    Tensor::from_vec((0..n).map(|i| i as f32).collect(), shape).unwrap()
}

fn ints(v: &[i64]) -> Tensor {
    Tensor::from_vec(v.to_vec(), &[v.len()]).unwrap()
}

#[test]
fn integer_arrays_gather_with_numpys_placement() {
    let t = iota(&[3, 4, 5]);
    // t[:, [3, 0]] -> [3, 2, 5], adjacent: in place of dim 1.
    let r = ops::index(&t, &[I::FULL, I::Tensor(ints(&[3, 0]))]).unwrap();
    assert_eq!(r.shape(), &[3, 2, 5]);
    let v = r.contiguous().unwrap().to_vec::<f32>().unwrap();
    for i in 0..3 {
        for (j, &c) in [3usize, 0].iter().enumerate() {
            for k in 0..5 {
                assert_eq!(v[i * 10 + j * 5 + k], (i * 20 + c * 5 + k) as f32);
            }
        }
    }
    // t[0, :, [1, 2]] -> the int is an index array too; not adjacent: batch first, [2, 4].
    let r = ops::index(&t, &[I::Int(0), I::FULL, I::Tensor(ints(&[1, 2]))]).unwrap();
    assert_eq!(r.shape(), &[2, 4]);
    let v = r.contiguous().unwrap().to_vec::<f32>().unwrap();
    for (b, &c) in [1usize, 2].iter().enumerate() {
        for j in 0..4 {
            assert_eq!(v[b * 4 + j], (j * 5 + c) as f32);
        }
    }
    // Two arrays broadcast: t[[[0], [2]], [1, -1]] -> [2, 2, 5].
    let rows = Tensor::from_vec(vec![0i64, 2], &[2, 1]).unwrap();
    let r = ops::index(&t, &[I::Tensor(rows), I::Tensor(ints(&[1, -1]))]).unwrap();
    assert_eq!(r.shape(), &[2, 2, 5]);
    assert_eq!(
        r.select(0, 1)
            .unwrap()
            .select(0, 1)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()[0],
        55.0
    );
}

#[test]
fn masks_select_in_row_major_order_and_write_through() {
    let t = iota(&[2, 3]);
    let mask = ops::gt(&t, &Tensor::full(&[], 2.0, DType::Float32).unwrap()).unwrap();
    let r = ops::index(&t, &[I::Tensor(mask.clone())]).unwrap();
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![3.0, 4.0, 5.0]);
    assert_eq!(
        ops::nonzero(&mask).unwrap().to_vec::<i64>().unwrap(),
        vec![1, 0, 1, 1, 1, 2]
    );
    let mut w = t.contiguous_copy().unwrap();
    w.masked_fill_(&mask, ops::Scalar::Int(-1)).unwrap();
    assert_eq!(
        w.to_vec::<f32>().unwrap(),
        vec![0.0, 1.0, 2.0, -1.0, -1.0, -1.0]
    );
    // Through a transposed view, with a value broadcast to the selection.
    let mut u = iota(&[3, 2]).contiguous_copy().unwrap();
    let col = Tensor::from_vec(vec![7.0f32], &[1]).unwrap();
    ops::index_put_(&mut u, &[I::Tensor(ints(&[2, 0])), I::Int(1)], &col).unwrap();
    assert_eq!(
        u.to_vec::<f32>().unwrap(),
        vec![0.0, 7.0, 2.0, 3.0, 4.0, 7.0]
    );
    let tt = iota(&[3, 2]).t();
    let r = ops::index_select(&tt, 1, &ints(&[2])).unwrap();
    assert_eq!(
        r.contiguous().unwrap().to_vec::<f32>().unwrap(),
        vec![4.0, 5.0]
    );
}

#[test]
fn masks_over_inner_dims_of_a_permuted_view_beside_an_index_array() {
    // v = iota([2, 3, 4]) permuted to [4, 2, 3] (v[a, b, c] = t[b, c, a]); the mask covers
    // dims 1..3 of v, the index array (one value per hit) dim 0.
    let t = iota(&[2, 3, 4]);
    let v = t.permute(&[2, 0, 1]).unwrap();
    let flags = [true, false, true, false, true, true];
    let bools: Vec<u8> = flags.iter().map(|&f| u8::from(f)).collect();
    let mask = Tensor::from_vec(bools, &[2, 3])
        .unwrap()
        .to_dtype(DType::Bool)
        .unwrap();
    let hits: Vec<(usize, usize)> = (0..6)
        .filter(|&i| flags[i])
        .map(|i| (i / 3, i % 3))
        .collect();
    // v[:, mask] -> [4, hits]: the mask's dims in place of dims 1..3.
    let r = ops::index(&v, &[I::FULL, I::Tensor(mask.clone())]).unwrap();
    assert_eq!(r.shape(), &[4, hits.len()]);
    let got = r.contiguous().unwrap().to_vec::<f32>().unwrap();
    for a in 0..4 {
        for (h, &(b, c)) in hits.iter().enumerate() {
            assert_eq!(got[a * hits.len() + h], (b * 12 + c * 4 + a) as f32);
        }
    }
    // v[[3, 0, -1, 1], mask] -> [hits]: the array pairs with the hits one to one.
    let picks = [3i64, 0, -1, 1];
    let r = ops::index(&v, &[I::Tensor(ints(&picks)), I::Tensor(mask.clone())]).unwrap();
    let got = r.to_vec::<f32>().unwrap();
    for (h, &(b, c)) in hits.iter().enumerate() {
        let a = picks[h].rem_euclid(4) as usize;
        assert_eq!(got[h], (b * 12 + c * 4 + a) as f32);
    }
    // v[[2], mask] broadcasts the one index over the hits; writing through it lands there.
    let mut wv = t.contiguous_copy().unwrap().permute(&[2, 0, 1]).unwrap();
    let minus = Tensor::full(&[], -1.0, DType::Float32).unwrap();
    ops::index_put_(&mut wv, &[I::Tensor(ints(&[2])), I::Tensor(mask)], &minus).unwrap();
    let w = wv.permute(&[1, 2, 0]).unwrap().contiguous().unwrap();
    let got = w.to_vec::<f32>().unwrap();
    for (i, &g) in got.iter().enumerate() {
        let (b, c, a) = (i / 12, i / 4 % 3, i % 4);
        let hit = a == 2 && flags[b * 3 + c];
        assert_eq!(g, if hit { -1.0 } else { i as f32 }, "element {i}");
    }
}

#[test]
fn empty_and_out_of_range_indices() {
    let e = iota(&[0, 3]);
    let r = ops::index(&e, &[I::FULL, I::Tensor(ints(&[2, 0]))]).unwrap();
    assert_eq!(r.shape(), &[0, 2]);
    let none = ops::index(&iota(&[4]), &[I::Tensor(ints(&[]))]).unwrap();
    assert_eq!(none.shape(), &[0]);
    let err = ops::index(&iota(&[4]), &[I::Tensor(ints(&[4]))]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Index);
    let err = ops::index(
        &iota(&[4]),
        &[I::Tensor(Tensor::zeros(&[1], DType::Float32).unwrap())],
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    let read_only = Tensor::from_owner(
        std::sync::Arc::<[f32]>::from(vec![1.0f32; 4]),
        &[4],
        DType::Float32,
    )
    .unwrap();
    // SAFETY: nothing else touches `read_only`'s memory during the call.
    let err = unsafe { ops::index_put_shared(&read_only, &[I::Int(0)], &iota(&[])) }.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ReadOnly);
}

/// `t[mask] = v` with a full-shape boolean mask and one value, and `masked_fill_`, write in
/// place in one pass: through a transposed view (the mask follows the view's logical
/// order), with a broadcast mask, and with the value read from the target itself.
#[test]
fn full_masks_fill_in_place_through_any_layout() {
    // The only handle on its memory is the transposed view.
    let mut view = iota(&[3, 4]).contiguous_copy().unwrap().t();
    // view[i, j] = base[j, i]; mask the view where its value is odd.
    let vals = view.contiguous_copy().unwrap().to_vec::<f32>().unwrap();
    let odd: Vec<bool> = vals.iter().map(|&v| v as i64 % 2 == 1).collect();
    let mask = Tensor::from_vec(odd.clone(), &[4, 3]).unwrap();
    ops::index_put_(
        &mut view,
        &[I::Tensor(mask)],
        &Tensor::full(&[], -1.0, DType::Float32).unwrap(),
    )
    .unwrap();
    let mut base = view.t().contiguous_copy().unwrap();
    drop(view);
    let got = base.to_vec::<f32>().unwrap();
    for (k, &g) in got.iter().enumerate() {
        let want = if k % 2 == 1 { -1.0 } else { k as f32 };
        assert_eq!(g, want, "element {k}");
    }
    // A mask over the last dim only, broadcast over the rows.
    let row = Tensor::from_vec(vec![true, false, false, true], &[4]).unwrap();
    base.masked_fill_(&row, ops::Scalar::Float(9.0)).unwrap();
    let got = base.to_vec::<f32>().unwrap();
    for (k, &g) in got.iter().enumerate() {
        if k % 4 == 0 || k % 4 == 3 {
            assert_eq!(g, 9.0, "element {k}");
        }
    }
    // The value is an element of the target: read before anything is written.
    let t = iota(&[2, 2]).contiguous_copy().unwrap();
    let first = t.select(0, 1).unwrap().select(0, 1).unwrap();
    let all = Tensor::full(&[2, 2], 1.0, DType::Float32)
        .unwrap()
        .to_dtype(DType::Bool)
        .unwrap();
    // SAFETY: no other thread touches `t` (the value is a view of it, so `index_put_`'s
    // exclusive handle is not available).
    unsafe { ops::index_put_shared(&t, &[I::Tensor(all)], &first) }.unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), vec![3.0; 4]);
}

/// `t[:, idx, :]` on a source whose memory is in reversed dim order: the result is contiguous
/// in numpy's placement, and the write through the same key lands where the model says,
/// the last of a repeated column winning in every row.
#[test]
fn keys_with_dims_before_and_after_read_and_write_in_placed_order() {
    let (n0, n1, n2) = (3, 5, 4);
    // t[i, j, k] = 100·i + 10·j + k, stored as [k][j][i].
    let mut mem = vec![0f32; n0 * n1 * n2];
    for i in 0..n0 {
        for j in 0..n1 {
            for k in 0..n2 {
                mem[(k * n1 + j) * n0 + i] = (100 * i + 10 * j + k) as f32;
            }
        }
    }
    let mut t = Tensor::from_vec(mem, &[n2, n1, n0])
        .unwrap()
        .permute(&[2, 1, 0])
        .unwrap();
    let cols = [4i64, -5, 2, 4];
    let r = ops::index(&t, &[I::FULL, I::Tensor(ints(&cols)), I::FULL]).unwrap();
    assert_eq!(r.shape(), &[n0, cols.len(), n2]);
    assert!(r.is_contiguous());
    let got = r.to_vec::<f32>().unwrap();
    for i in 0..n0 {
        for (b, &c) in cols.iter().enumerate() {
            let j = c.rem_euclid(n1 as i64) as usize;
            for k in 0..n2 {
                let want = (100 * i + 10 * j + k) as f32;
                assert_eq!(got[(i * cols.len() + b) * n2 + k], want, "[{i}, {b}, {k}]");
            }
        }
    }
    // Write -(1000·i + 10·b + k) through the key: column 4 is picked at b = 0 and b = 3, and
    // b = 3's values stay.
    let v: Vec<f32> = (0..n0 * cols.len() * n2)
        .map(|p| {
            let (i, b, k) = (p / (cols.len() * n2), p / n2 % cols.len(), p % n2);
            -((1000 * i + 10 * b + k) as f32)
        })
        .collect();
    let v = Tensor::from_vec(v, &[n0, cols.len(), n2]).unwrap();
    ops::index_put_(&mut t, &[I::FULL, I::Tensor(ints(&cols)), I::FULL], &v).unwrap();
    let got = t.contiguous_copy().unwrap().to_vec::<f32>().unwrap();
    for i in 0..n0 {
        for j in 0..n1 {
            for k in 0..n2 {
                let last = cols
                    .iter()
                    .rposition(|&c| c.rem_euclid(n1 as i64) as usize == j);
                let want = match last {
                    Some(b) => -((1000 * i + 10 * b + k) as f32),
                    None => (100 * i + 10 * j + k) as f32,
                };
                assert_eq!(got[(i * n1 + j) * n2 + k], want, "[{i}, {j}, {k}]");
            }
        }
    }
}
