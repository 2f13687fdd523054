//! Here is a site configuration (`docs.json`, `mint.json`) as parsed, give me the configuration
//! Mintlify reads: every `{"$ref": "file.json"}` at any level replaced by that file's content
//! (`resolveRefs` in `@mintlify/validation`, which Mintlify's build runs on the whole file before
//! it reads any key).
//!
//! - A reference is resolved against the folder of the file that holds it, and read through the
//!   site's policy (inside the site root, a regular file, not ignored, bounded in size).
//! - A referenced object takes the referencing object's other keys on top of it (they win); a
//!   referenced array or value replaces the object, its other keys dropped.
//! - A reference Mintlify would fail the build on (a missing or unreadable file, one outside the
//!   site, invalid JSON, a cycle) fails this build too, naming the file: a configuration read in
//!   part could lose the declaration (a `public`, a `hidden`) that withholds a page.
//! - Bounded: at most [`MAX_REFS`] references followed, [`MAX_NODES`] values and [`MAX_BYTES`] of
//!   referenced files copied (a file referenced twice in each of twenty files cannot expand a
//!   million-fold), nesting at most [`MAX_DEPTH`] deep; past a bound the build fails, naming it.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::document::Diagnostic;
use crate::visibility::SiteRoot;

/// The most `$ref`s one configuration may follow.
pub const MAX_REFS: usize = 10_000;
/// The most bytes of referenced files one configuration may copy in (a file counts each time it
/// is referenced).
pub const MAX_BYTES: usize = 256 << 20;
/// The most JSON values the resolved configuration may hold.
pub const MAX_NODES: usize = 2_000_000;
/// The deepest the resolved configuration may nest.
pub const MAX_DEPTH: usize = 256;

/// Resolves the `$ref`s of `value`, the parsed content of the site-relative file `file`; `Err`
/// names the reference that cannot be followed, or the bound passed.
pub fn resolve(site: &SiteRoot, value: Value, file: &str) -> Result<Value, Diagnostic> {
    let mut r = Resolver {
        site,
        files: HashMap::new(),
        refs: 0,
        nodes: 0,
        bytes: 0,
    };
    let mut chain = vec![file.to_owned()];
    r.value(value, &mut chain, 0)
}

struct Resolver<'a> {
    site: &'a SiteRoot,
    /// Each referenced file, parsed once: its value, number of values and size in bytes.
    files: HashMap<String, (Value, usize, usize)>,
    refs: usize,
    nodes: usize,
    bytes: usize,
}

fn error(file: &str, message: String) -> Diagnostic {
    Diagnostic {
        file: file.to_owned(),
        line: None,
        message,
    }
}

impl Resolver<'_> {
    /// `v` (held by the last file of `chain`) resolved, at nesting `depth`.
    fn value(
        &mut self,
        v: Value,
        chain: &mut Vec<String>,
        depth: usize,
    ) -> Result<Value, Diagnostic> {
        self.nodes += 1;
        if self.nodes > MAX_NODES || depth > MAX_DEPTH {
            return Err(error(
                chain.last().map_or("", String::as_str),
                format!("the configuration holds more than {MAX_NODES} values or nests deeper than {MAX_DEPTH} levels (its `$ref`s resolved); it is not read"),
            ));
        }
        Ok(match v {
            Value::Array(items) => Value::Array(
                items
                    .into_iter()
                    .map(|i| self.value(i, chain, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(o) => match o.get("$ref").and_then(Value::as_str).map(str::to_owned) {
                Some(reference) => self.reference(&reference, o, chain, depth)?,
                None => Value::Object(
                    o.into_iter()
                        .map(|(k, v)| Ok((k, self.value(v, chain, depth + 1)?)))
                        .collect::<Result<_, Diagnostic>>()?,
                ),
            },
            other => other,
        })
    }

    /// The object `o`, which says `$ref: reference`, resolved.
    fn reference(
        &mut self,
        reference: &str,
        mut o: Map<String, Value>,
        chain: &mut Vec<String>,
        depth: usize,
    ) -> Result<Value, Diagnostic> {
        let from = chain.last().cloned().unwrap_or_default();
        self.refs += 1;
        if self.refs > MAX_REFS {
            return Err(error(
                &from,
                format!("the configuration follows more than {MAX_REFS} `$ref`s; it is not read"),
            ));
        }
        let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let Some(rel) = crate::site::join_rel(dir, reference) else {
            return Err(error(
                &from,
                format!("`$ref: {reference}` is not a path inside the site (Mintlify fails the build on it too)"),
            ));
        };
        if chain.contains(&rel) {
            return Err(error(
                &from,
                format!(
                    "`$ref: {reference}` refers back to itself ({} → {rel}; Mintlify fails the build on it too)",
                    chain.join(" → ")
                ),
            ));
        }
        let (n, len) = self.load(&rel).map_err(|d| Diagnostic {
            message: format!(
                "{} (from `$ref: {reference}` in {from}; Mintlify fails the build on it too)",
                d.message
            ),
            ..d
        })?;
        // Copied only within the bounds (a large file referenced a thousand times is not).
        self.bytes += len;
        if self.nodes + n > MAX_NODES || self.bytes > MAX_BYTES {
            return Err(error(
                &from,
                format!("the configuration's `$ref`s copy in more than {MAX_NODES} values or {} MB; it is not read", MAX_BYTES >> 20),
            ));
        }
        let loaded = self.files[&rel].0.clone();
        chain.push(rel);
        let resolved = self.value(loaded, chain, depth + 1)?;
        chain.pop();
        Ok(match resolved {
            Value::Object(mut base) => {
                o.remove("$ref");
                for (k, v) in o {
                    let v = self.value(v, chain, depth + 1)?;
                    base.insert(k, v);
                }
                Value::Object(base)
            }
            other => other,
        })
    }

    /// Reads and parses the site-relative file `rel` once: its number of values and its size.
    fn load(&mut self, rel: &str) -> Result<(usize, usize), Diagnostic> {
        if let Some((_, n, len)) = self.files.get(rel) {
            return Ok((*n, *len));
        }
        let (src, v) = crate::site::read_json(self.site, rel, "configuration `$ref`")?;
        let (n, len) = (count(&v), src.len());
        self.files.insert(rel.to_owned(), (v, n, len));
        Ok((n, len))
    }
}

/// The number of values in `v` (itself included).
fn count(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(count).sum::<usize>(),
        Value::Object(o) => 1 + o.values().map(count).sum::<usize>(),
        _ => 1,
    }
}
