//! Per-term-shard binary-fuse filters: "is this term in the index?" answered from the manifest alone,
//! so a query for absent words (typos, words the site never uses) fetches no term shard.
//!
//! Stored in xorf's DMA form (20-byte descriptor + fingerprints) because xorf's serde form does not
//! round-trip through length-prefixed codecs. The descriptor is validated before use: xorf indexes the
//! fingerprints without bounds checks of its own, so a tampered descriptor must never reach it.

use crate::bytes::{ByteReader, ByteWriter};
use crate::error::FormatError;
use xorf::{BinaryFuse8, BinaryFuse8Ref, DmaSerializable, Filter, FilterRef};

const DESCRIPTOR_LEN: usize = 20;

/// A binary-fuse filter over the hashes of a shard's terms (false-positive rate about 0.4%).
#[derive(Clone, PartialEq, Eq)]
pub struct TermFilter {
    descriptor: [u8; DESCRIPTOR_LEN],
    fingerprints: Vec<u8>,
}

impl core::fmt::Debug for TermFilter {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "TermFilter({} fingerprints)", self.fingerprints.len())
    }
}

/// The 64-bit key of a term: FNV-1a followed by a SplitMix64 finalizer. Defined here so that both sides
/// hash identically.
pub fn term_hash(term: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in term.as_bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

impl TermFilter {
    /// Builds a filter over `terms`; `None` when there are no terms or construction fails (then readers
    /// simply fetch the shard).
    pub fn build<'a>(terms: impl IntoIterator<Item = &'a str>) -> Option<Self> {
        let mut keys: Vec<u64> = terms.into_iter().map(term_hash).collect();
        keys.sort_unstable();
        keys.dedup();
        if keys.is_empty() {
            return None;
        }
        let filter = BinaryFuse8::try_from(&keys).ok()?;
        let mut descriptor = [0u8; DESCRIPTOR_LEN];
        filter.dma_copy_descriptor_to(&mut descriptor);
        Some(TermFilter {
            descriptor,
            fingerprints: filter.dma_fingerprints().to_vec(),
        })
    }

    pub fn byte_len(&self) -> usize {
        DESCRIPTOR_LEN + self.fingerprints.len()
    }

    /// `false` means the term is certainly absent from the shard.
    pub fn may_contain(&self, term: &str) -> bool {
        BinaryFuse8Ref::from_dma(&self.descriptor, &self.fingerprints).contains(&term_hash(term))
    }

    pub fn encode(&self, w: &mut ByteWriter) {
        w.raw(&self.descriptor);
        w.bytes(&self.fingerprints);
    }

    pub fn decode(r: &mut ByteReader<'_>) -> Result<Self, FormatError> {
        let d = r.take(DESCRIPTOR_LEN, "filter descriptor")?;
        let mut descriptor = [0u8; DESCRIPTOR_LEN];
        descriptor.copy_from_slice(d);
        let fingerprints = r.bytes("filter fingerprints")?.to_vec();
        let u32_at = |i: usize| u32::from_le_bytes([d[i], d[i + 1], d[i + 2], d[i + 3]]) as u64;
        let (seg_len, seg_mask, seg_count_len) = (u32_at(8), u32_at(12), u32_at(16));
        // xorf reads fingerprints[h] with h < segment_count_length + 2 * segment_length when the
        // segment length is a power of two dividing segment_count_length.
        let valid = seg_len.is_power_of_two()
            && seg_mask == seg_len - 1
            && seg_count_len % seg_len == 0
            && seg_count_len + 2 * seg_len <= fingerprints.len() as u64
            && seg_count_len + 2 * seg_len <= u32::MAX as u64;
        if !valid {
            return Err(FormatError::Invalid {
                what: "filter descriptor",
                detail: "segment geometry does not fit the fingerprints",
            });
        }
        Ok(TermFilter {
            descriptor,
            fingerprints,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_false_negatives_and_few_false_positives() {
        let terms: Vec<String> = (0..5000).map(|i| format!("term{i}")).collect();
        let f = TermFilter::build(terms.iter().map(|s| s.as_str())).unwrap();
        assert!(terms.iter().all(|t| f.may_contain(t)));
        let fp = (0..10_000)
            .filter(|i| f.may_contain(&format!("absent{i}")))
            .count();
        assert!(fp < 100, "{fp} false positives in 10,000");
    }

    #[test]
    fn tampered_descriptors_are_rejected() {
        let f = TermFilter::build(["a", "b", "c"]).unwrap();
        let mut w = ByteWriter::new();
        f.encode(&mut w);
        let good = w.into_inner();
        assert!(TermFilter::decode(&mut ByteReader::new(&good)).is_ok());
        for byte in 8..20 {
            let mut bad = good.clone();
            bad[byte] = bad[byte].wrapping_add(0x40);
            if let Ok(t) = TermFilter::decode(&mut ByteReader::new(&bad)) {
                // Accepted geometry must still be in bounds.
                let _ = t.may_contain("anything");
            }
        }
    }
}
