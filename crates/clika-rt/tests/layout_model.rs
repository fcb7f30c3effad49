//! Layout math against a reference model: an n-d array stored as plain row-major values,
//! where every view operation is done by naive index mapping. Random chains of views must
//! give the same elements as the model, and every reachable offset must stay in bounds.

use clika_rt::{DType, Tensor};
use proptest::prelude::*;

/// Row-major values with a shape; views are computed by copying through index maps.
#[derive(Debug, Clone, PartialEq)]
struct Model {
    shape: Vec<usize>,
    vals: Vec<f64>,
}

fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = i % shape[d];
        i /= shape[d];
    }
    idx
}

fn ravel(idx: &[usize], shape: &[usize]) -> usize {
    idx.iter().zip(shape).fold(0, |acc, (&i, &d)| acc * d + i)
}

impl Model {
    fn build(shape: Vec<usize>, f: impl Fn(&[usize]) -> f64) -> Model {
        let n: usize = shape.iter().product();
        let vals = (0..n).map(|i| f(&unravel(i, &shape))).collect();
        Model { shape, vals }
    }
    fn at(&self, idx: &[usize]) -> f64 {
        self.vals[ravel(idx, &self.shape)]
    }
    fn permute(&self, p: &[usize]) -> Model {
        let shape = p.iter().map(|&d| self.shape[d]).collect();
        Model::build(shape, |idx| {
            let mut old = vec![0; idx.len()];
            for (i, &d) in p.iter().enumerate() {
                old[d] = idx[i];
            }
            self.at(&old)
        })
    }
    fn slice(&self, dim: usize, start: isize, stop: isize, step: isize) -> Model {
        let n = self.shape[dim] as isize;
        let norm = |v: isize| if v < 0 { v + n } else { v };
        let mut picks = vec![];
        if step > 0 {
            let (mut i, e) = (norm(start).clamp(0, n), norm(stop).clamp(0, n));
            while i < e {
                picks.push(i as usize);
                i += step;
            }
        } else {
            let (mut i, e) = (norm(start).clamp(-1, n - 1), norm(stop).clamp(-1, n - 1));
            while i > e {
                picks.push(i as usize);
                i += step;
            }
        }
        let mut shape = self.shape.clone();
        shape[dim] = picks.len();
        Model::build(shape, |idx| {
            let mut old = idx.to_vec();
            old[dim] = picks[idx[dim]];
            self.at(&old)
        })
    }
    fn select(&self, dim: usize, i: usize) -> Model {
        let mut shape = self.shape.clone();
        shape.remove(dim);
        Model::build(shape, |idx| {
            let mut old = idx.to_vec();
            old.insert(dim, i);
            self.at(&old)
        })
    }
    fn expand_front(&self, k: usize) -> Model {
        let mut shape = vec![k];
        shape.extend(&self.shape);
        Model::build(shape, |idx| self.at(&idx[1..]))
    }
    fn reshape(&self, shape: Vec<usize>) -> Model {
        Model {
            shape,
            vals: self.vals.clone(),
        }
    }
    fn sum_dim(&self, dim: usize) -> Model {
        let mut shape = self.shape.clone();
        shape.remove(dim);
        Model::build(shape, |idx| {
            (0..self.shape[dim])
                .map(|j| {
                    let mut old = idx.to_vec();
                    old.insert(dim, j);
                    self.at(&old)
                })
                .sum()
        })
    }
}

#[derive(Debug, Clone)]
enum Op {
    Permute(u64),
    Slice(u64, i8, i8, i8),
    Select(u64, u64),
    Expand(u8),
    Unsqueeze(u64),
    Squeeze,
    Reshape(u64),
    Contiguous,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        any::<u64>().prop_map(Op::Permute),
        (any::<u64>(), -6i8..6, -6i8..6, prop_oneof![-3i8..0, 1i8..4])
            .prop_map(|(a, b, c, d)| Op::Slice(a, b, c, d)),
        (any::<u64>(), any::<u64>()).prop_map(|(a, b)| Op::Select(a, b)),
        (1u8..3).prop_map(Op::Expand),
        any::<u64>().prop_map(Op::Unsqueeze),
        Just(Op::Squeeze),
        any::<u64>().prop_map(Op::Reshape),
        Just(Op::Contiguous),
    ]
}

/// A random permutation of `0..n` from `seed`.
fn perm(n: usize, mut seed: u64) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        p.swap(i, (seed % (i as u64 + 1)) as usize);
        seed /= i as u64 + 1;
    }
    p
}

/// Applies `op` to both; returns false when the op does not apply to this shape.
fn step(t: &mut Tensor, m: &mut Model, op: &Op) -> bool {
    let nd = m.shape.len();
    match *op {
        Op::Permute(s) => {
            let p = perm(nd, s);
            let pi: Vec<isize> = p.iter().map(|&d| d as isize).collect();
            *t = t.permute(&pi).unwrap();
            *m = m.permute(&p);
        }
        Op::Slice(d, a, b, s) if nd > 0 => {
            let d = (d % nd as u64) as usize;
            *t = t
                .slice(d as isize, Some(a as isize), Some(b as isize), s as isize)
                .unwrap();
            *m = m.slice(d, a as isize, b as isize, s as isize);
        }
        Op::Select(d, i) if nd > 0 => {
            let d = (d % nd as u64) as usize;
            if m.shape[d] == 0 {
                return false;
            }
            let i = (i % m.shape[d] as u64) as usize;
            *t = t.select(d as isize, i as isize).unwrap();
            *m = m.select(d, i);
        }
        Op::Expand(k) if nd < 5 => {
            let mut sizes = vec![k as isize];
            sizes.extend(m.shape.iter().map(|&v| v as isize));
            *t = t.unsqueeze(0).unwrap().expand(&sizes).unwrap();
            *m = m.expand_front(k as usize);
        }
        Op::Unsqueeze(d) if nd < 5 => {
            let d = (d % (nd as u64 + 1)) as usize;
            *t = t.unsqueeze(d as isize).unwrap();
            let mut shape = m.shape.clone();
            shape.insert(d, 1);
            *m = m.reshape(shape);
        }
        Op::Squeeze => {
            *t = t.squeeze(None).unwrap();
            let shape = m.shape.iter().copied().filter(|&d| d != 1).collect();
            *m = m.reshape(shape);
        }
        Op::Reshape(s) => {
            // Split the elements into a random factorisation, or flatten.
            let n = m.vals.len();
            let divs: Vec<usize> = (1..=n.max(1)).filter(|d| n.is_multiple_of(*d)).collect();
            let a = divs[(s % divs.len() as u64) as usize];
            let shape = if n == 0 { vec![0] } else { vec![a, n / a] };
            let si: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
            if let Ok(v) = t.view(&si) {
                assert!(v.storage().same_as(t.storage()), "view must not copy");
            }
            *t = t.reshape(&si).unwrap();
            *m = m.reshape(shape);
        }
        Op::Contiguous => {
            let c = t.contiguous().unwrap();
            assert!(c.is_contiguous());
            if t.is_contiguous() {
                assert!(c.storage().same_as(t.storage()));
            }
            *t = c;
        }
        _ => return false,
    }
    true
}

fn check(t: &Tensor, m: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(t.shape(), &m.shape[..]);
    prop_assert_eq!(&t.to_f64_vec().unwrap(), &m.vals);
    let elems = t.storage().nbytes() / t.dtype().size();
    prop_assert!(
        t.layout().check_within(elems),
        "L3 broken: {:?}",
        t.layout()
    );
    Ok(())
}

proptest! {
    #[test]
    fn view_chains_match_the_model(
        shape in proptest::collection::vec(0usize..5, 0..4),
        ops in proptest::collection::vec(op(), 0..8),
    ) {
        let n: usize = shape.iter().product();
        let vals: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let mut t = Tensor::from_vec(vals, &shape).unwrap();
        let mut m = Model::build(shape.clone(), |idx| ravel(idx, &shape) as f64);
        for o in &ops {
            if step(&mut t, &mut m, o) {
                check(&t, &m)?;
            }
        }
        // Reductions over each dimension of whatever view we ended on.
        for d in 0..m.shape.len() {
            let s = t.sum_dims(&[d as isize], false).unwrap();
            let want = m.sum_dim(d);
            prop_assert_eq!(s.shape(), &want.shape[..]);
            prop_assert_eq!(s.to_f64_vec().unwrap(), want.vals);
            let k = t.sum_dims(&[d as isize], true).unwrap();
            prop_assert_eq!(k.shape()[d], 1);
        }
        let total: f64 = m.vals.iter().sum();
        prop_assert_eq!(t.sum().unwrap().item::<f64>().unwrap(), total);
        let _ = DType::Float32;
    }
}
