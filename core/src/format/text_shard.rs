//! A page's section text (format v9): the full text of each of its chunks, as the chunker produced
//! it (paragraphs, then the section's code in a fence), in one file per page (`x/<h>.bin`) named by
//! the page's metadata. Fetched only when a caller asks for evidence (`SearchOptions::evidence`):
//! a search never reads one.

use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::ShardError;

/// Where section text files live.
pub const TEXT_DIR: &str = "x";

/// The text of every chunk of one page, in chunk order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageText {
    pub sections: Vec<String>,
}

impl PageText {
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.sections.len() as u64);
        for s in &self.sections {
            w.str(s);
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Text, &self.encode_payload())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Text)?)
    }

    /// Decodes an already verified and inflated payload (see [`envelope::check`]).
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let n = r.count("section count", 1)?;
        let mut sections = Vec::with_capacity(n);
        for _ in 0..n {
            sections.push(r.str("section text")?.to_owned());
        }
        r.finish("text shard")?;
        Ok(PageText { sections })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_22_page_text_roundtrips_and_rejects_damage() {
        let t = PageText {
            sections: vec![
                "Intro paragraph.".into(),
                String::new(),
                "Install it:\n\n```bash\nnpm i x\n```".into(),
            ],
        };
        let bytes = t.encode();
        assert_eq!(PageText::decode(&bytes).unwrap(), t);
        let raw = t.encode_payload();
        for cut in 0..raw.len() {
            assert!(
                PageText::decode_payload(&raw[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut long = raw.clone();
        long.push(0);
        assert!(PageText::decode_payload(&long).is_err());
        // A count no remaining bytes could hold is refused before allocating.
        assert!(PageText::decode_payload(&[0xff, 0xff, 0xff, 0x7f]).is_err());
        // Not UTF-8.
        assert!(PageText::decode_payload(&[1, 1, 0xff]).is_err());
        assert!(PageText::decode(&crate::format::MetaShard::default().encode()).is_err());
    }
}
