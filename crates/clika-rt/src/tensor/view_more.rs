//! More views (PyTorch's and numpy's names): reversing, moving and swapping dims, the
//! transposed matrix, diagonals, splitting into pieces; and `repeat`/`tile`, which copy.

use super::Tensor;
use crate::error::{Error, Result};
use crate::layout::{normalize_dim, DimVec};

impl Tensor {
    /// Reverses the order of the entries along each of `dims` (a view with negative
    /// strides; numpy's `flip`; PyTorch's `flip` copies).
    pub fn flip(&self, dims: &[isize]) -> Result<Tensor> {
        let mut seen: DimVec<usize> = DimVec::new();
        let mut out = self.clone();
        for &d in dims {
            let n = normalize_dim(d, self.ndim())?;
            if seen.contains(&n) {
                return Err(Error::DuplicateDim {
                    dim: n,
                    dims: dims.iter().map(|&v| v as i64).collect(),
                });
            }
            seen.push(n);
            out = out.slice(n as isize, None, None, -1)?;
        }
        Ok(out)
    }

    /// Moves dim `source` to position `destination`, keeping the others in order (a view).
    pub fn movedim(&self, source: isize, destination: isize) -> Result<Tensor> {
        let nd = self.ndim();
        let (s, d) = (normalize_dim(source, nd)?, normalize_dim(destination, nd)?);
        let mut order: Vec<isize> = (0..nd as isize).filter(|&i| i != s as isize).collect();
        order.insert(d, s as isize);
        self.permute(&order)
    }

    /// The last two dims swapped (a view): PyTorch's `.mT`, numpy's `.mT`.
    pub fn mt(&self) -> Result<Tensor> {
        if self.ndim() < 2 {
            return Err(Error::InvalidArgument {
                what: format!(
                    "mT needs at least 2 dimensions, the tensor has {}",
                    self.ndim()
                ),
            });
        }
        self.transpose(-2, -1)
    }

    /// The diagonal of the matrices in dims `dim1`/`dim2` (a view): offset 0 is the main
    /// diagonal, positive above it, negative below; the diagonal becomes the last dim.
    pub fn diagonal(&self, offset: isize, dim1: isize, dim2: isize) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.diagonal(offset, dim1, dim2)?))
    }

    /// Splits `dim` into pieces of `size` entries (the last may be shorter): views.
    pub fn split(&self, size: usize, dim: isize) -> Result<Vec<Tensor>> {
        let d = normalize_dim(dim, self.ndim())?;
        if size == 0 {
            return Err(Error::InvalidArgument {
                what: "split size must be positive".to_string(),
            });
        }
        let n = self.shape()[d];
        (0..n.max(1))
            .step_by(size)
            .map(|start| self.narrow(d as isize, start as isize, size.min(n - start)))
            .collect()
    }

    /// Splits `dim` into `chunks` pieces of equal size (the last may be smaller; fewer
    /// pieces when `dim` is short, as PyTorch): views.
    pub fn chunk(&self, chunks: usize, dim: isize) -> Result<Vec<Tensor>> {
        let d = normalize_dim(dim, self.ndim())?;
        if chunks == 0 {
            return Err(Error::InvalidArgument {
                what: "chunk count must be positive".to_string(),
            });
        }
        self.split(self.shape()[d].div_ceil(chunks).max(1), dim)
    }

    /// Every entry along `dim`, with `dim` removed: views.
    pub fn unbind(&self, dim: isize) -> Result<Vec<Tensor>> {
        let d = normalize_dim(dim, self.ndim())?;
        (0..self.shape()[d] as isize)
            .map(|i| self.select(d as isize, i))
            .collect()
    }

    /// The tensor repeated `reps[i]` times along each dim (PyTorch's `repeat`: `reps` has
    /// at least `ndim` entries; extra leading ones add dims). A copy.
    pub fn repeat(&self, reps: &[usize]) -> Result<Tensor> {
        if reps.len() < self.ndim() {
            return Err(Error::InvalidArgument {
                what: format!(
                    "repeat needs at least one count per dimension ({} for this tensor), got {}; \
                     use tile for numpy's rule",
                    self.ndim(),
                    reps.len()
                ),
            });
        }
        let lead = reps.len() - self.ndim();
        let mut base: Vec<isize> = vec![1; lead];
        base.extend(self.shape().iter().map(|&d| d as isize));
        let src = self.reshape(&base)?;
        // [r0, s0, r1, s1, …] by expanding a unit dim before each, then merging the pairs.
        let mut unsq = src.clone();
        let mut sizes: Vec<isize> = Vec::new();
        for (i, (&r, &s)) in reps.iter().zip(&base).enumerate() {
            unsq = unsq.unsqueeze(2 * i as isize)?;
            sizes.extend([r as isize, s]);
        }
        let out: Vec<isize> = reps
            .iter()
            .zip(&base)
            .map(|(&r, &s)| r as isize * s)
            .collect();
        unsq.expand(&sizes)?.contiguous()?.reshape(&out)
    }

    /// numpy's `tile`: like [`repeat`](Tensor::repeat), but fewer counts than dims repeat
    /// the trailing dims (the missing leading counts are 1).
    pub fn tile(&self, reps: &[usize]) -> Result<Tensor> {
        let mut full = vec![1usize; self.ndim().saturating_sub(reps.len())];
        full.extend_from_slice(reps);
        self.repeat(&full)
    }
}
