//! A metadata shard: what results display for a run of pages and their chunks.

use super::Kind;
use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, FormatError, ShardError};

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
    /// GitHub-style anchor, empty for the page-summary chunk.
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
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Meta, &self.encode_payload())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Meta)?)
    }

    /// Decodes an already verified and inflated payload (see [`envelope::check`]).
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
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
            pages.push(PageMeta {
                id,
                url,
                title,
                kind,
                breadcrumb,
                tags,
                api,
                chunks,
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
            }],
        };
        assert_eq!(MetaShard::decode(&m.encode()).unwrap(), m);
    }
}
