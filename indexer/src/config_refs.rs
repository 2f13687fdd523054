//! Here is a site configuration (`docs.json`, `mint.json`) as parsed, give me the configuration
//! Mintlify reads: every `{"$ref": "file.json"}` at any level replaced by that file's content
//! (`resolveRefs` in `@mintlify/validation`, which Mintlify's build runs on the whole file before
//! it reads any key).
//!
//! - A reference is resolved against the folder of the file that holds it, and read through the
//!   site's policy (inside the site root, a regular file, not ignored, bounded in size).
//! - A referenced object takes the referencing object's other keys on top of it (they win); a
//!   referenced array or value replaces the object, its other keys dropped.
//! - A reference Mintlify would fail the build on (a missing or unreadable file, invalid JSON, a
//!   cycle) is warned about, naming the file, and the object holding it reads as absent (`null`):
//!   a navigation element that cannot be read lists nothing, so its pages stay out.
//! - Bounded: at most [`MAX_REFS`] references followed and [`MAX_NODES`] values produced (a file
//!   referenced twice in each of twenty files cannot expand a million-fold), nesting at most
//!   [`MAX_DEPTH`] deep; past a bound, the rest read as absent, with one warning.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::document::Diagnostic;
use crate::visibility::SiteRoot;

/// The most `$ref`s one configuration may follow.
pub const MAX_REFS: usize = 1_000;
/// The most JSON values the resolved configuration may hold.
pub const MAX_NODES: usize = 2_000_000;
/// The deepest the resolved configuration may nest.
pub const MAX_DEPTH: usize = 256;

/// Resolves the `$ref`s of `value`, the parsed content of the site-relative file `file`.
pub fn resolve(site: &SiteRoot, value: Value, file: &str) -> (Value, Vec<Diagnostic>) {
    let mut r = Resolver {
        site,
        root_file: file.to_owned(),
        files: HashMap::new(),
        refs: 0,
        nodes: 0,
        capped: false,
        warnings: Vec::new(),
    };
    let mut chain = vec![file.to_owned()];
    let out = r.value(value, &mut chain, 0);
    (out, r.warnings)
}

struct Resolver<'a> {
    site: &'a SiteRoot,
    root_file: String,
    /// Each referenced file, parsed once, with the number of values it holds (or why it cannot
    /// be read).
    files: HashMap<String, Result<(Value, usize), Diagnostic>>,
    refs: usize,
    nodes: usize,
    capped: bool,
    warnings: Vec<Diagnostic>,
}

impl Resolver<'_> {
    /// `v` (held by the last file of `chain`) resolved, at nesting `depth`.
    fn value(&mut self, v: Value, chain: &mut Vec<String>, depth: usize) -> Value {
        self.nodes += 1;
        if self.nodes > MAX_NODES || depth > MAX_DEPTH {
            self.cap(format!(
                "the configuration resolves to more than {MAX_NODES} values or nests deeper than {MAX_DEPTH} levels through `$ref`s; the rest is read as absent"
            ));
            return Value::Null;
        }
        match v {
            Value::Array(items) => Value::Array(
                items
                    .into_iter()
                    .map(|i| self.value(i, chain, depth + 1))
                    .collect(),
            ),
            Value::Object(o) => match o.get("$ref").and_then(Value::as_str).map(str::to_owned) {
                Some(reference) => self.reference(&reference, o, chain, depth),
                None => Value::Object(
                    o.into_iter()
                        .map(|(k, v)| {
                            let v = self.value(v, chain, depth + 1);
                            (k, v)
                        })
                        .collect(),
                ),
            },
            other => other,
        }
    }

    /// The object `o`, which says `$ref: reference`, resolved.
    fn reference(
        &mut self,
        reference: &str,
        mut o: Map<String, Value>,
        chain: &mut Vec<String>,
        depth: usize,
    ) -> Value {
        let from = chain.last().cloned().unwrap_or_default();
        self.refs += 1;
        if self.refs > MAX_REFS {
            self.cap(format!(
                "the configuration follows more than {MAX_REFS} `$ref`s; the rest are read as absent"
            ));
            return Value::Null;
        }
        let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let Some(rel) = crate::site::join_rel(dir, reference) else {
            self.warn(
                &from,
                format!("`$ref: {reference}` is not a path inside the site; it is read as absent"),
            );
            return Value::Null;
        };
        if chain.contains(&rel) {
            self.warn(
                &from,
                format!(
                    "`$ref: {reference}` refers back to itself ({} → {rel}); it is read as absent",
                    chain.join(" → ")
                ),
            );
            return Value::Null;
        }
        let loaded = match self.load(&rel) {
            // Copied only within the bound (a large file referenced a thousand times is not).
            Ok((_, n)) if self.nodes + n > MAX_NODES => {
                self.cap(format!(
                    "the configuration resolves to more than {MAX_NODES} values through `$ref`s; the rest is read as absent"
                ));
                return Value::Null;
            }
            Ok((v, _)) => v,
            Err(d) => {
                self.warnings.push(Diagnostic {
                    message: format!(
                        "{} (from `$ref: {reference}` in {from}); it is read as absent",
                        d.message
                    ),
                    ..d
                });
                return Value::Null;
            }
        };
        chain.push(rel);
        let resolved = self.value(loaded, chain, depth + 1);
        chain.pop();
        match resolved {
            Value::Object(mut base) => {
                o.remove("$ref");
                for (k, v) in o {
                    let v = self.value(v, chain, depth + 1);
                    base.insert(k, v);
                }
                Value::Object(base)
            }
            other => other,
        }
    }

    /// The parsed content of the site-relative file `rel` (read once) and its number of values.
    fn load(&mut self, rel: &str) -> Result<(Value, usize), Diagnostic> {
        if !self.files.contains_key(rel) {
            let parsed =
                crate::site::read_json(self.site, rel, "configuration `$ref`").map(|(_, v)| {
                    let n = count(&v);
                    (v, n)
                });
            self.files.insert(rel.to_owned(), parsed);
        }
        self.files[rel].clone()
    }

    fn warn(&mut self, file: &str, message: String) {
        self.warnings.push(Diagnostic {
            file: file.to_owned(),
            line: None,
            message,
        });
    }

    /// One warning for the first bound passed.
    fn cap(&mut self, message: String) {
        if !std::mem::replace(&mut self.capped, true) {
            let file = self.root_file.clone();
            self.warn(&file, message);
        }
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
