//! The sort order as unsigned integers, and a radix sort over them.
//!
//! Every sortable value maps to an unsigned key whose integer order is PyTorch's sort
//! order: NaN above every number (all NaNs one key), `-0.0` equal to `0.0`, signed integers
//! offset by their minimum. A row's elements become packed items `key · 2^w + index`
//! (`u64` with a 32-bit key and index, `u128` when either needs 64 bits), so plain integer
//! comparison orders by value and then by position: the unstable integer sorts and
//! selections of `std` give exactly the stable order, and the comparisons inline to one
//! integer compare (no per-comparison call or NaN test). Descending order uses the
//! complemented key with the index unchanged, so ties still keep their input order.
//!
//! A 64-bit integer type whose keys span less than 2^32 (labels, indices, counts) packs its
//! keys relative to the smallest into `u64` items, half the memory of `u128` ones, and
//! integer values are read back from the keys rather than gathered from the row.
//!
//! Long rows sort by key bytes, least significant first ([`radix_sort`]): a stable
//! counting pass per byte that differs anywhere in the row (bytes every key shares are
//! skipped, so small integers cost one or two passes whatever their type).

use crate::Element;

/// A value's position in the sort order as an unsigned integer.
pub(crate) trait SortKey: Element {
    /// Whether the key needs more than 32 bits.
    const WIDE: bool;
    /// Whether [`SortKey::unkey`] recovers every value (integers; a float's key loses the
    /// sign of zero and NaN payloads).
    const EXACT: bool;
    /// Whether the value is NaN.
    fn nan(self) -> bool;
    /// The key: integer order is the sort order (NaN largest, `-0.0 == 0.0`).
    fn key(self) -> u64;
    /// The value of a key, when [`SortKey::EXACT`].
    fn unkey(key: u64) -> Self;
}

/// The key of an `f32` (also used for the half types, widened exactly).
#[inline(always)]
fn f32_key(x: f32) -> u64 {
    if x.is_nan() {
        return u64::from(u32::MAX);
    }
    // `+ 0.0` turns `-0.0` into `0.0` (round-to-nearest), leaving every other value as is.
    let b = (x + 0.0).to_bits();
    u64::from(if b >> 31 == 1 { !b } else { b | 1 << 31 })
}

/// The key of an `f64`.
#[inline(always)]
fn f64_key(x: f64) -> u64 {
    if x.is_nan() {
        return u64::MAX;
    }
    let b = (x + 0.0).to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

macro_rules! float_key {
    ($($t:ty => $wide:expr, $key:expr;)*) => {$(
        impl SortKey for $t {
            const WIDE: bool = $wide;
            const EXACT: bool = false;
            #[inline(always)]
            fn nan(self) -> bool {
                self.is_nan()
            }
            fn unkey(_: u64) -> Self {
                unreachable!("float keys are not decoded")
            }
            #[inline(always)]
            fn key(self) -> u64 {
                #[allow(clippy::redundant_closure_call)]
                ($key)(self)
            }
        }
    )*};
}

float_key! {
    f32 => false, f32_key;
    f64 => true, f64_key;
    half::f16 => false, |x: half::f16| f32_key(crate::half_bits::f16_to_f32(x));
    half::bf16 => false, |x: half::bf16| f32_key(x.to_f32());
}

macro_rules! int_key {
    ($($t:ty => $wide:expr;)*) => {$(
        impl SortKey for $t {
            const WIDE: bool = $wide;
            const EXACT: bool = true;
            #[inline(always)]
            fn nan(self) -> bool {
                false
            }
            #[inline(always)]
            fn unkey(key: u64) -> Self {
                (key as i128 + <$t>::MIN as i128) as $t
            }
            #[inline(always)]
            fn key(self) -> u64 {
                // The distance from the type's minimum: order-preserving, and within the
                // type's width (so a 32-bit type's key fits 32 bits).
                (self as i128 - <$t>::MIN as i128) as u64
            }
        }
    )*};
}

int_key! {
    i8 => false; i16 => false; i32 => false; i64 => true;
    u8 => false; u16 => false; u32 => false; u64 => true;
}

/// A key and an index packed into one integer, key in the high half.
pub(crate) trait Item: Copy + Ord + Default + Send {
    /// Bytes of key.
    const KEY_BYTES: usize;
    /// The largest row this item can index.
    const MAX_LEN: usize;
    /// `key` (complemented when `descending`) above `index`.
    fn pack(key: u64, index: usize, descending: bool) -> Self;
    /// The index.
    fn index(self) -> usize;
    /// The key given to [`Item::pack`].
    fn packed_key(self, descending: bool) -> u64;
    /// Key byte `b` (0: least significant).
    fn byte(self, b: usize) -> usize;
}

impl Item for u64 {
    const KEY_BYTES: usize = 4;
    const MAX_LEN: usize = 1 << 32;
    #[inline(always)]
    fn pack(key: u64, index: usize, descending: bool) -> u64 {
        let key = if descending { !key & 0xffff_ffff } else { key };
        key << 32 | index as u64
    }
    #[inline(always)]
    fn index(self) -> usize {
        (self & 0xffff_ffff) as usize
    }
    #[inline(always)]
    fn packed_key(self, descending: bool) -> u64 {
        let k = self >> 32;
        if descending {
            !k & 0xffff_ffff
        } else {
            k
        }
    }
    #[inline(always)]
    fn byte(self, b: usize) -> usize {
        (self >> (32 + 8 * b)) as usize & 0xff
    }
}

impl Item for u128 {
    const KEY_BYTES: usize = 8;
    const MAX_LEN: usize = usize::MAX;
    #[inline(always)]
    fn pack(key: u64, index: usize, descending: bool) -> u128 {
        let key = if descending { !key } else { key };
        u128::from(key) << 64 | index as u128
    }
    #[inline(always)]
    fn index(self) -> usize {
        self as u64 as usize
    }
    #[inline(always)]
    fn packed_key(self, descending: bool) -> u64 {
        let k = (self >> 64) as u64;
        if descending {
            !k
        } else {
            k
        }
    }
    #[inline(always)]
    fn byte(self, b: usize) -> usize {
        (self >> (64 + 8 * b)) as usize & 0xff
    }
}

/// Sorts `items` by key, stably (equal keys keep their order; with packed indices in
/// ascending order that is also their integer order). `tmp` is scratch.
pub(crate) fn radix_sort<I: Item>(items: &mut Vec<I>, tmp: &mut Vec<I>) {
    let n = items.len();
    // All the byte histograms in one read of the row.
    let mut hist = [[0usize; 256]; 8];
    for &x in items.iter() {
        for (b, h) in hist.iter_mut().enumerate().take(I::KEY_BYTES) {
            h[x.byte(b)] += 1;
        }
    }
    tmp.clear();
    tmp.resize(n, I::default());
    for (b, h) in hist.iter().enumerate().take(I::KEY_BYTES) {
        if h.contains(&n) {
            continue; // every key has the same byte here: the order stands
        }
        let mut next = [0usize; 256];
        let mut at = 0;
        for (o, &c) in next.iter_mut().zip(h) {
            *o = at;
            at += c;
        }
        for &x in items.iter() {
            let d = x.byte(b);
            tmp[next[d]] = x;
            next[d] += 1;
        }
        std::mem::swap(items, tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_by_key<T: SortKey>(xs: &[T]) -> Vec<usize> {
        let mut items: Vec<u128> = (0..xs.len())
            .map(|i| u128::pack(xs[i].key(), i, false))
            .collect();
        radix_sort(&mut items, &mut Vec::new());
        items.into_iter().map(u128::index).collect()
    }

    #[test]
    fn keys_order_as_pytorch_sorts() {
        let xs = [
            f32::NAN,
            1.0,
            -0.0,
            f32::NEG_INFINITY,
            0.0,
            -1.5,
            f32::INFINITY,
            -f32::NAN,
            f32::MIN_POSITIVE,
        ];
        // Ties (the zeros, the NaNs) keep their input order.
        assert_eq!(sorted_by_key(&xs), [3, 5, 2, 4, 8, 1, 6, 0, 7]);
        let ys: Vec<f64> = xs.iter().map(|&x| f64::from(x)).collect();
        assert_eq!(sorted_by_key(&ys), [3, 5, 2, 4, 8, 1, 6, 0, 7]);
        assert_eq!(sorted_by_key(&[3i8, -128, 127, 0, -1]), [1, 4, 3, 0, 2]);
        assert_eq!(sorted_by_key(&[i64::MAX, i64::MIN, 0]), [1, 2, 0]);
        assert_eq!(sorted_by_key(&[u64::MAX, 0, 1 << 40]), [1, 2, 0]);
        for x in [i64::MIN, -1, 0, 5, i64::MAX] {
            assert_eq!(i64::unkey(x.key()), x);
            let p = u128::pack(x.key(), 3, true);
            assert_eq!((p.packed_key(true), p.index()), (x.key(), 3));
        }
        for x in [i8::MIN, -1, 0, i8::MAX] {
            let p = u64::pack(x.key(), 9, true);
            assert_eq!((i8::unkey(p.packed_key(true)), p.index()), (x, 9));
        }
    }

    #[test]
    fn radix_sort_matches_integer_sort() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        // (Under Miri, which interprets every step, the short rows and two spreads.)
        let (lens, spreads): (&[usize], &[u64]) = if cfg!(miri) {
            (&[0, 2, 300], &[3, u64::MAX])
        } else {
            (&[0, 1, 2, 300, 2000], &[1, 3, 1 << 20, u64::MAX])
        };
        for &n in lens {
            for &spread in spreads {
                let keys: Vec<u64> = (0..n).map(|_| next() % spread.max(1)).collect();
                for descending in [false, true] {
                    let narrow: Vec<u64> = keys.iter().map(|&k| k & 0xffff_ffff).collect();
                    let mut a: Vec<u64> = (0..n)
                        .map(|i| u64::pack(narrow[i], i, descending))
                        .collect();
                    let mut want = a.clone();
                    want.sort_unstable();
                    radix_sort(&mut a, &mut Vec::new());
                    assert_eq!(a, want);
                    let mut w: Vec<u128> =
                        (0..n).map(|i| u128::pack(keys[i], i, descending)).collect();
                    let mut want = w.clone();
                    want.sort_unstable();
                    radix_sort(&mut w, &mut Vec::new());
                    assert_eq!(w, want);
                }
            }
        }
    }
}
