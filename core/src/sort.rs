//! The query path's one comparison sort (issue 21).
//!
//! The standard library's `sort_unstable_by` is compiled once per element type *and* comparator
//! (pattern-defeating quicksort with its small-sort networks: about 2 KB of wasm each), and the
//! query path sorted seven kinds of list that way: 16 KB of the module every reader downloads. This
//! heapsort is compiled once per element type (the comparator is a `dyn` call) in a few hundred
//! bytes, runs in O(n log n) whatever the input (no hostile index makes it quadratic), and sorts
//! only as far as the caller reads: the `k` least of `n` in O(n + k log n), which is what a ranked
//! list cut to its top `k` needs.
//!
//! It is unstable, as the sorts it replaced were: every caller orders by a total order (ties broken
//! by a unique key), so the result is the one any correct sort gives, natively and in wasm alike.
//! Sorts of plain integers keep `sort_unstable`: one copy serves every call, and it is faster on the
//! long lists of touched chunks.

/// Puts the `k` least elements of `v` under `is_less` (all of them when `k >= v.len()`) first, in
/// order; the rest follow in no particular order.
pub(crate) fn sort_least<T>(v: &mut [T], k: usize, is_less: &mut dyn FnMut(&T, &T) -> bool) {
    let len = v.len();
    if len < 2 {
        return;
    }
    // A binary min-heap laid out backwards from the slice's end: heap position `p` is `v[at(p)]`.
    // Popping the least then swaps it with the heap's last position, which is the next slot to fill
    // from the front, so the sorted prefix grows in place with no final reversal.
    let at = |p: usize| len - 1 - p;
    let mut sift_down = |v: &mut [T], mut p: usize, n: usize| loop {
        let mut c = 2 * p + 1;
        if c >= n {
            break;
        }
        if c + 1 < n && is_less(&v[at(c + 1)], &v[at(c)]) {
            c += 1;
        }
        if !is_less(&v[at(c)], &v[at(p)]) {
            break;
        }
        v.swap(at(p), at(c));
        p = c;
    };
    for p in (0..len / 2).rev() {
        sift_down(v, p, len);
    }
    // The last element left is in place once every other is: `len - 1` pops sort the whole slice.
    for i in 0..k.min(len - 1) {
        let n = len - i;
        v.swap(at(0), at(n - 1));
        sift_down(v, 0, n - 1);
    }
}

/// Sorts all of `v` under `cmp` (an unstable sort: `cmp` must be a total order for the result to be
/// unique).
pub(crate) fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> core::cmp::Ordering) {
    sort_least(v, usize::MAX, &mut |a, b| cmp(a, b).is_lt());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator: no test depends on a random seed.
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn sorts_like_the_standard_library_for_every_length_and_cut() {
        let mut seed = 7;
        for len in 0usize..70 {
            for round in 0..8 {
                // Few distinct values in some rounds: equal keys must not confuse the heap.
                let modulus = if round % 2 == 0 { 5 } else { 1 << 20 };
                let v: Vec<(u32, u32)> = (0..len)
                    .map(|i| ((lcg(&mut seed) % modulus) as u32, i as u32))
                    .collect();
                let mut want = v.clone();
                want.sort_unstable();
                for k in [0, 1, 2, len / 2, len.saturating_sub(1), len, len + 3] {
                    let mut got = v.clone();
                    sort_least(&mut got, k, &mut |a, b| a < b);
                    let k = k.min(len);
                    assert_eq!(got[..k], want[..k], "len {len} k {k}");
                    // The rest is the rest: a permutation, nothing lost or duplicated.
                    let mut rest = got[k..].to_vec();
                    rest.sort_unstable();
                    assert_eq!(rest, want[k..], "len {len} k {k}");
                }
                let mut got = v.clone();
                sort_by(&mut got, |a, b| a.cmp(b));
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn sorted_and_reversed_inputs() {
        let up: Vec<u32> = (0..1000).collect();
        let mut down = up.clone();
        down.reverse();
        for mut v in [up.clone(), down] {
            sort_by(&mut v, |a, b| a.cmp(b));
            assert_eq!(v, up);
        }
    }
}
