//! Walking a strided layout.

use crate::layout::{Layout, MAX_DIMS};

/// Calls `f` with the absolute element offset of every element of `layout`, in row-major
/// (logical) order. Every offset passed is reachable, hence in bounds by L3.
pub(crate) fn for_each_offset(layout: &Layout, f: impl FnMut(usize)) {
    walk(layout.shape(), layout.strides(), layout.offset(), f);
}

/// Calls `f` with `start + Σ i_k · strides_k` for every index of `shape`, in row-major order.
/// When `shape`/`strides` are some dimensions of a valid layout and `start` the absolute
/// offset of an element whose remaining dimensions are fixed, every offset is reachable.
pub(crate) fn walk(shape: &[usize], strides: &[isize], start: usize, mut f: impl FnMut(usize)) {
    if shape.contains(&0) {
        return;
    }
    let nd = shape.len();
    if nd == 0 {
        f(start);
        return;
    }
    let (inner_n, inner_s) = (shape[nd - 1], strides[nd - 1]);
    let mut idx = [0usize; MAX_DIMS];
    let mut base = start as isize;
    loop {
        let mut o = base;
        for _ in 0..inner_n {
            f(o as usize);
            o = o.wrapping_add(inner_s);
        }
        let mut d = nd - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            base += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            base -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visits_row_major_order() {
        let l = Layout::contiguous(&[2, 3], 4)
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        let mut v = vec![];
        for_each_offset(&l, |o| v.push(o));
        assert_eq!(v, [0, 3, 1, 4, 2, 5]);
        let s = Layout::contiguous(&[5], 4)
            .unwrap()
            .slice(0, None, None, -2)
            .unwrap();
        let mut v = vec![];
        for_each_offset(&s, |o| v.push(o));
        assert_eq!(v, [4, 2, 0]);
    }
}
