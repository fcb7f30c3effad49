//! flip, movedim, mT, diagonal, split/chunk/unbind and repeat/tile against index arithmetic
//! written out; views are checked to share the source's storage.

use clika_rt::{DType, Tensor};

fn iota(shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    Tensor::from_vec((0..n).map(|i| i as i32).collect(), shape).unwrap()
}

fn values(t: &Tensor) -> Vec<i32> {
    t.contiguous().unwrap().to_vec::<i32>().unwrap()
}

#[test]
fn flip_movedim_mt_diagonal_are_views_with_the_right_values() {
    let t = iota(&[2, 3, 4]);
    let f = t.flip(&[0, -1]).unwrap();
    assert!(f.storage().same_as(t.storage()));
    let v = values(&f);
    for i in 0..2 {
        for j in 0..3 {
            for k in 0..4 {
                assert_eq!(
                    v[i * 12 + j * 4 + k],
                    ((1 - i) * 12 + j * 4 + (3 - k)) as i32
                );
            }
        }
    }
    assert!(t.flip(&[0, 0]).is_err());
    let m = t.movedim(0, 2).unwrap();
    assert_eq!(m.shape(), &[3, 4, 2]);
    assert_eq!(values(&m)[1], 12);
    assert_eq!(t.mt().unwrap().shape(), &[2, 4, 3]);
    assert!(iota(&[3]).mt().is_err());
    // Diagonals of each 3×4 matrix: offset 1 is (0,1),(1,2),(2,3).
    let d = t.diagonal(1, 1, 2).unwrap();
    assert_eq!(d.shape(), &[2, 3]);
    assert_eq!(values(&d), vec![1, 6, 11, 13, 18, 23]);
    assert_eq!(values(&t.diagonal(-2, 1, 2).unwrap()), vec![8, 20]);
    assert_eq!(t.diagonal(5, 1, 2).unwrap().shape(), &[2, 0]);
    // A diagonal of a flipped view walks negative strides.
    assert_eq!(
        values(&iota(&[3, 3]).flip(&[1]).unwrap().diagonal(0, 0, 1).unwrap()),
        vec![2, 4, 6]
    );
}

#[test]
fn pieces_and_repeats() {
    let t = iota(&[5, 2]);
    let parts = t.split(2, 0).unwrap();
    assert_eq!(
        parts.iter().map(|p| p.shape()[0]).collect::<Vec<_>>(),
        vec![2, 2, 1]
    );
    assert_eq!(values(&parts[2]), vec![8, 9]);
    assert_eq!(t.chunk(2, 0).unwrap().len(), 2);
    assert_eq!(t.chunk(9, 0).unwrap().len(), 5);
    let cols = t.unbind(1).unwrap();
    assert_eq!(values(&cols[1]), vec![1, 3, 5, 7, 9]);
    let r = iota(&[2]).repeat(&[2, 3]).unwrap();
    assert_eq!(r.shape(), &[2, 6]);
    assert_eq!(values(&r), vec![0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    assert_eq!(
        values(&iota(&[2, 2]).tile(&[2]).unwrap()),
        vec![0, 1, 0, 1, 2, 3, 2, 3]
    );
    assert!(iota(&[2, 2]).repeat(&[2]).is_err());
    let e = Tensor::zeros(&[0, 3], DType::Int32).unwrap();
    assert_eq!(e.split(2, 1).unwrap().len(), 2);
    assert!(e.unbind(0).unwrap().is_empty());
}

#[test]
fn nbytes_counts_the_elements_a_view_shows() {
    let t = Tensor::zeros(&[3, 4], DType::Float64).unwrap();
    assert_eq!((t.nbytes(), t.element_size()), (96, 8));
    // numpy's and PyTorch's rule: a strided view counts its own elements, a broadcast view
    // every element it shows, an empty tensor none; the storage's size does not matter.
    let strided = t.narrow(1, 0, 2).unwrap();
    assert_eq!(strided.nbytes(), 48);
    let wide = Tensor::zeros(&[1, 4], DType::Int16)
        .unwrap()
        .expand(&[5, 4])
        .unwrap();
    assert_eq!((wide.nbytes(), wide.element_size()), (40, 2));
    assert_eq!(Tensor::zeros(&[0, 3], DType::UInt8).unwrap().nbytes(), 0);
    assert_eq!(Tensor::zeros(&[], DType::BFloat16).unwrap().nbytes(), 2);
}
