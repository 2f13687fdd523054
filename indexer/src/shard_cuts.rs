//! Where runs of sorted items (terms, pages, typo keys) are cut into shards: content-defined, so that
//! an edit seldom moves a boundary but its own shard's (issue 25).
//!
//! Cutting at running byte counts (a shard ends once it holds `target` bytes) ties every boundary to
//! all the bytes before it: one posting more near the start shifts every later cut, and every later
//! shard is renamed. Here a run may end after an item only once it holds `min` bytes, and then ends
//! after an item with a probability proportional to the item's bytes, decided by the hash of the
//! item's own key (a Poisson process over bytes, as content-defined chunking does over byte streams).
//! A change inside one shard moves at most that shard's end, and the next cut falls where it fell
//! before unless a cut point lies within the few bytes the edit moved: later shards keep their bytes,
//! and so their names.

/// Decides the cuts of one run of items, in order.
pub(crate) struct ContentCuts {
    min: usize,
    gap: usize,
    max: usize,
    bytes: usize,
}

impl ContentCuts {
    /// Shards of about `target` bytes on average: at least 3/4 of it (so that the shards a query
    /// fetches are no bigger, size-weighted, than 1.07× `target`), a cut point every `target/4`
    /// bytes after that, and a forced cut at 4× `target` (reached by chance with probability e^-13).
    pub(crate) fn new(target: usize) -> Self {
        let target = target.max(4);
        ContentCuts {
            min: target * 3 / 4,
            gap: target / 4,
            max: target * 4,
            bytes: 0,
        }
    }

    /// Adds an item of `bytes` whose key is `key`; whether the shard ends after it.
    pub(crate) fn end_after(&mut self, key: &[u8], bytes: usize) -> bool {
        self.bytes += bytes;
        let cut = self.bytes >= self.max
            || (self.bytes >= self.min && {
                let h = blake3::hash(key);
                let h = u64::from_le_bytes(h.as_bytes()[..8].try_into().unwrap_or_default());
                // P(cut) = bytes / gap: h / 2^64 < bytes / gap.
                u128::from(h) * (self.gap as u128) < (bytes as u128) << 64
            });
        if cut {
            self.bytes = 0;
        }
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cuts(items: &[(String, usize)], target: usize) -> Vec<usize> {
        let mut c = ContentCuts::new(target);
        (items.iter().enumerate())
            .filter(|(_, (k, b))| c.end_after(k.as_bytes(), *b))
            .map(|(i, _)| i)
            .collect()
    }

    #[test]
    fn issue_25_an_edit_moves_no_later_cut() {
        let items: Vec<(String, usize)> = (0..20_000)
            .map(|i| (format!("term{i:05}"), 8 + (i * 7919) % 40))
            .collect();
        let before = cuts(&items, 4096);
        let total: usize = items.iter().map(|i| i.1).sum();
        let mean = total / (before.len() + 1);
        assert!((3500..4700).contains(&mean), "mean shard {mean} bytes");
        // One item grows (a posting more), one is inserted (a new word): the cuts after the shard
        // of the change are where they were (shifted by the insertion's index).
        let mut edited = items.clone();
        edited[5_000].1 += 4;
        edited.insert(9_000, ("term09000a".into(), 20));
        let after = cuts(&edited, 4096);
        let later = |cs: &[usize], from: usize, shift: usize| -> Vec<usize> {
            cs.iter()
                .filter(|&&c| c > from)
                .map(|&c| c - shift)
                .collect()
        };
        let a = later(&after, 9_100, 1);
        let b = later(&before, 9_100, 0);
        assert_eq!(a, b);
        // In the old numbering (the inserted item at 9,000 shifts every later index by one).
        let after_old: Vec<usize> = (after.iter())
            .map(|&c| if c > 9_000 { c - 1 } else { c })
            .collect();
        let differing = before.iter().filter(|c| !after_old.contains(c)).count();
        assert!(differing <= 4, "{differing} cuts moved");
    }

    #[test]
    fn a_huge_item_ends_its_shard() {
        let mut c = ContentCuts::new(100);
        assert!(c.end_after(b"x", 1_000));
        assert!(!c.end_after(b"y", 1));
    }
}
