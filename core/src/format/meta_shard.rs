//! A metadata shard: what results display for a run of pages and their chunks.

use super::Kind;
use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, FormatError, ShardError};
use crate::names::{hashed_name, read_file_name, NameList};

use super::TEXT_DIR;

/// API details of an operation page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ApiMeta {
    pub method: String,
    pub path: String,
    pub operation_id: String,
}

/// What a result shows for one chunk (section) of a page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChunkMeta {
    /// The element id Mintlify renders for the section's heading, empty for the page-summary chunk.
    pub anchor: String,
    pub title: String,
    pub heading_path: Vec<String>,
    /// The start of the chunk's text, for excerpts.
    pub excerpt: String,
}

/// What a result shows for a page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageMeta {
    pub id: String,
    pub url: String,
    pub title: String,
    pub kind: Option<Kind>,
    pub breadcrumb: Vec<String>,
    pub tags: Vec<String>,
    pub api: Option<ApiMeta>,
    pub chunks: Vec<ChunkMeta>,
    /// The page's section text file (`x/<h>.bin`, format v9), when the build wrote one.
    pub text: Option<String>,
}

/// Metadata of a contiguous run of pages.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MetaShard {
    pub first_page: u32,
    pub pages: Vec<PageMeta>,
}

impl MetaShard {
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.first_page as u64);
        w.varint(self.pages.len() as u64);
        for p in &self.pages {
            w.str(&p.id);
            w.str(&p.url);
            w.str(&p.title);
            w.u8(p.kind.unwrap_or(Kind::Docs) as u8);
            write_strs(&mut w, &p.breadcrumb);
            write_strs(&mut w, &p.tags);
            match &p.api {
                Some(a) => {
                    w.u8(1);
                    w.str(&a.method);
                    w.str(&a.path);
                    w.str(&a.operation_id);
                }
                None => w.u8(0),
            }
            w.varint(p.chunks.len() as u64);
            for c in &p.chunks {
                w.str(&c.anchor);
                w.str(&c.title);
                write_strs(&mut w, &c.heading_path);
                w.str(&c.excerpt);
            }
            // v9: the text file, as its 6 hash bytes when content-hashed (what the indexer writes).
            match p.text.as_deref() {
                None => w.u8(0),
                Some(name) => match hashed_name(TEXT_DIR, name) {
                    Some(hash) => {
                        w.u8(1);
                        w.raw(&hash);
                    }
                    None => {
                        w.u8(2);
                        w.str(name);
                    }
                },
            }
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Meta, &self.encode_payload())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        let version = envelope::read_header(file)?.version;
        Self::decode_versioned(&envelope::open(file, ShardKind::Meta)?, version)
    }

    /// Decodes an already verified and inflated payload of the current format version.
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        Self::decode_versioned(raw, envelope::FORMAT_VERSION)
    }

    /// Decodes an already verified and inflated payload (see [`envelope::check`]) written by format
    /// `version` (v9 adds each page's text file).
    pub fn decode_versioned(raw: &[u8], version: u16) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let first_page = r.varint_u32("first page")?;
        let n = r.count("page count", 8)?;
        let mut pages = Vec::with_capacity(n);
        for _ in 0..n {
            let id = r.str("page id")?.to_owned();
            let url = r.str("page url")?.to_owned();
            let title = r.str("page title")?.to_owned();
            let kind = Some(Kind::from_byte(r.u8("page kind")?)?);
            let breadcrumb = read_strs(&mut r, "breadcrumb")?;
            let tags = read_strs(&mut r, "tags")?;
            let api = match r.u8("api flag")? {
                0 => None,
                1 => Some(ApiMeta {
                    method: r.str("api method")?.to_owned(),
                    path: r.str("api path")?.to_owned(),
                    operation_id: r.str("operation id")?.to_owned(),
                }),
                _ => return Err(invalid("api flag", "not 0 or 1")),
            };
            let m = r.count("chunk count", 4)?;
            let mut chunks = Vec::with_capacity(m);
            for _ in 0..m {
                chunks.push(ChunkMeta {
                    anchor: r.str("chunk anchor")?.to_owned(),
                    title: r.str("chunk title")?.to_owned(),
                    heading_path: read_strs(&mut r, "heading path")?,
                    excerpt: r.str("excerpt")?.to_owned(),
                });
            }
            let text = if version < 9 {
                None
            } else {
                match r.u8("text flag")? {
                    0 => None,
                    1 => Some(NameList::Hashed(TEXT_DIR).read(&mut r)?),
                    2 => Some(read_file_name(&mut r)?),
                    _ => return Err(invalid("text flag", "not 0, 1 or 2")),
                }
            };
            pages.push(PageMeta {
                id,
                url,
                title,
                kind,
                breadcrumb,
                tags,
                api,
                chunks,
                text,
            });
        }
        r.finish("meta shard")?;
        Ok(MetaShard { first_page, pages })
    }
}

fn write_strs(w: &mut ByteWriter, list: &[String]) {
    w.varint(list.len() as u64);
    for s in list {
        w.str(s);
    }
}

fn read_strs(r: &mut ByteReader<'_>, what: &'static str) -> Result<Vec<String>, FormatError> {
    let n = r.count(what, 1)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(r.str(what)?.to_owned());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_shard_roundtrip() {
        let m = MetaShard {
            first_page: 4,
            pages: vec![PageMeta {
                id: "guides/auth".into(),
                url: "/guides/auth".into(),
                title: "Auth".into(),
                kind: Some(Kind::Api),
                breadcrumb: vec!["Guides".into()],
                tags: vec!["security".into()],
                api: Some(ApiMeta {
                    method: "POST".into(),
                    path: "/v1/users".into(),
                    operation_id: "createUser".into(),
                }),
                chunks: vec![ChunkMeta {
                    anchor: "tokens".into(),
                    title: "Tokens".into(),
                    heading_path: vec!["Tokens".into()],
                    excerpt: "x".into(),
                }],
                text: Some("x/0123456789ab.bin".into()),
            }],
        };
        assert_eq!(MetaShard::decode(&m.encode()).unwrap(), m);
    }

    /// Issue 22: a page names its text file as 6 hash bytes, any other name as a checked string,
    /// or none; a v8 payload has no such field.
    #[test]
    fn issue_22_meta_pages_name_their_text_files() {
        let page = |text: Option<&str>| PageMeta {
            id: "p".into(),
            kind: Some(Kind::Docs),
            text: text.map(str::to_owned),
            ..Default::default()
        };
        let m = MetaShard {
            first_page: 0,
            pages: vec![
                page(Some("x/0123456789ab.bin")),
                page(Some("x/named-by-hand.bin")),
                page(None),
            ],
        };
        let raw = m.encode_payload();
        assert_eq!(MetaShard::decode_payload(&raw).unwrap(), m);
        // The same pages as v8 wrote them: no text flag after the chunks.
        let v8 = MetaShard {
            first_page: 0,
            pages: vec![page(None)],
        };
        let mut raw8 = v8.encode_payload();
        assert_eq!(raw8.pop(), Some(0));
        assert_eq!(MetaShard::decode_versioned(&raw8, 8).unwrap(), v8);
        assert!(MetaShard::decode_versioned(&raw8, 9).is_err());
        // A name that could escape the index is refused.
        let mut bad = MetaShard {
            first_page: 0,
            pages: vec![page(Some("x/../../etc.bin"))],
        }
        .encode_payload();
        assert!(MetaShard::decode_payload(&bad).is_err());
        let flag = bad.len() - 1 - "x/../../etc.bin".len() - 1;
        bad[flag] = 3;
        assert!(MetaShard::decode_payload(&bad).is_err());
    }
}
