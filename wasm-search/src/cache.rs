//! A byte-bounded least-recently-used cache of decoded shards.
//!
//! The cost of an entry is its inflated payload size, a stable proxy for what the decoded shard holds in
//! wasm memory. Inserting never evicts: the engine calls [`ShardCache::trim`] once a search has used its
//! shards, so a search whose shards alone exceed the bound still completes, and the bound holds between
//! searches.

use aidocs_core::{FileRef, Shard};

struct Entry {
    shard: Shard,
    cost: usize,
    last_used: u64,
}

/// Decoded shards keyed by what they are.
pub struct ShardCache {
    limit: usize,
    used: usize,
    clock: u64,
    /// Sorted by key, looked up by binary search: a hash map's code would cost every reader's
    /// module more than the few thousand entries of a cache cost in time.
    entries: Vec<(FileRef, Entry)>,
    evictions: u64,
}

impl ShardCache {
    pub fn new(limit: usize) -> Self {
        ShardCache {
            limit,
            used: 0,
            clock: 0,
            entries: Vec::new(),
            evictions: 0,
        }
    }

    fn find(&self, id: FileRef) -> Result<usize, usize> {
        self.entries.binary_search_by_key(&id, |e| e.0)
    }

    pub fn contains(&self, id: FileRef) -> bool {
        self.find(id).is_ok()
    }

    /// The shard, marked as just used.
    pub fn get(&mut self, id: FileRef) -> Option<Shard> {
        self.clock += 1;
        let at = self.find(id).ok()?;
        let e = &mut self.entries[at].1;
        e.last_used = self.clock;
        Some(e.shard.clone())
    }

    pub fn insert(&mut self, id: FileRef, shard: Shard, cost: usize) {
        self.clock += 1;
        let entry = Entry {
            shard,
            cost,
            last_used: self.clock,
        };
        match self.find(id) {
            Ok(at) => {
                self.used -= self.entries[at].1.cost;
                self.entries[at].1 = entry;
            }
            Err(at) => self.entries.insert(at, (id, entry)),
        }
        self.used += cost;
    }

    /// Evicts least recently used entries until the bound holds.
    pub fn trim(&mut self) {
        while self.used > self.limit {
            let Some(victim) = (0..self.entries.len()).min_by_key(|&i| self.entries[i].1.last_used)
            else {
                break;
            };
            let (_, e) = self.entries.remove(victim);
            self.used -= e.cost;
            self.evictions += 1;
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.used = 0;
    }

    pub fn used(&self) -> usize {
        self.used
    }
    pub fn limit(&self) -> usize {
        self.limit
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    pub fn evictions(&self) -> u64 {
        self.evictions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    use aidocs_core::MetaShard;

    fn meta() -> Shard {
        Shard::Meta(Rc::new(MetaShard {
            first_page: 0,
            pages: Vec::new(),
        }))
    }

    #[test]
    fn evicts_least_recently_used_within_the_bound() {
        let mut c = ShardCache::new(100);
        c.insert(FileRef::Meta(1), meta(), 40);
        c.insert(FileRef::Meta(2), meta(), 40);
        assert!(c.get(FileRef::Meta(1)).is_some()); // 2 is now the oldest
        c.insert(FileRef::Meta(3), meta(), 40);
        assert_eq!(c.used(), 120, "inserting never evicts");
        c.trim();
        assert!(
            c.contains(FileRef::Meta(1))
                && c.contains(FileRef::Meta(3))
                && !c.contains(FileRef::Meta(2))
        );
        assert_eq!(c.used(), 80);
        assert_eq!(c.evictions(), 1);
    }

    #[test]
    fn an_entry_larger_than_the_bound_is_kept_until_trimmed() {
        let mut c = ShardCache::new(10);
        c.insert(FileRef::Meta(1), meta(), 5);
        c.insert(FileRef::Meta(2), meta(), 50);
        assert!(c.contains(FileRef::Meta(1)) && c.contains(FileRef::Meta(2)));
        c.trim();
        assert_eq!((c.len(), c.used()), (0, 0));
        c.insert(FileRef::Meta(2), meta(), 8);
        c.insert(FileRef::Meta(2), meta(), 9);
        assert_eq!(c.used(), 9);
    }
}
