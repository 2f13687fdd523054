//! The stable JSON shape of search results, written by hand so that the CLI and the wasm module print
//! byte-identical text (and the wasm module carries no serde_json).
//!
//! ```text
//! {"id","url","title","kind","score","breadcrumb":[..],
//!  "sections":[{"anchor","title","url","score","excerpt"}],
//!  "api":{"method","path","operationId"}?,                     only for API pages
//!  "explain":{"bm25","terms":[..],"boosts":[..]}?}              only when asked
//! ```
//! Scores are rounded to 6 decimals: the two sides compare textually.

use crate::search::SearchResult;
use crate::text::push_uint;

/// Appends `s` as a JSON string literal.
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str("\\u");
                crate::text::push_hex(out, c as u64, 4);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends `x` rounded to 6 decimals, shortest form (`1.5`, `0.000123`, `2`). Integer arithmetic only,
/// so native and wasm print the same digits, and no float formatting code ends up in the wasm binary.
pub fn push_score(out: &mut String, x: f32) {
    if !x.is_finite() {
        out.push('0');
        return;
    }
    let micros = libm::round(x as f64 * 1e6);
    if micros < 0.0 {
        out.push('-');
    }
    let micros = libm::fabs(micros) as u64;
    push_uint(out, micros / 1_000_000);
    let mut frac = micros % 1_000_000;
    if frac != 0 {
        out.push('.');
        let mut width = 6;
        while frac.is_multiple_of(10) {
            frac /= 10;
            width -= 1;
        }
        let mut digits = [b'0'; 6];
        let mut f = frac;
        for d in digits[..width].iter_mut().rev() {
            *d = b'0' + (f % 10) as u8;
            f /= 10;
        }
        for &b in &digits[..width] {
            out.push(b as char);
        }
    }
}

/// A JSON writer that places the commas itself: values and keys written in order, containers
/// opened and closed. Not generic and without closures, so the wasm module carries one small copy.
pub struct JsonWriter<'a> {
    out: &'a mut String,
    /// A value was just completed at this level: the next key or value needs a comma first.
    comma: bool,
}

impl<'a> JsonWriter<'a> {
    pub fn new(out: &'a mut String) -> Self {
        JsonWriter { out, comma: false }
    }

    fn separate(&mut self) {
        if self.comma {
            self.out.push(',');
        }
    }

    fn open(&mut self, c: char) -> &mut Self {
        self.separate();
        self.out.push(c);
        self.comma = false;
        self
    }

    fn close(&mut self, c: char) -> &mut Self {
        self.out.push(c);
        self.comma = true;
        self
    }

    pub fn begin_object(&mut self) -> &mut Self {
        self.open('{')
    }
    pub fn end_object(&mut self) -> &mut Self {
        self.close('}')
    }
    pub fn begin_array(&mut self) -> &mut Self {
        self.open('[')
    }
    pub fn end_array(&mut self) -> &mut Self {
        self.close(']')
    }

    /// An object's key; its value follows.
    pub fn key(&mut self, k: &str) -> &mut Self {
        self.separate();
        push_str(self.out, k);
        self.out.push(':');
        self.comma = false;
        self
    }

    pub fn string(&mut self, s: &str) -> &mut Self {
        self.separate();
        push_str(self.out, s);
        self.comma = true;
        self
    }

    /// A score, rounded as [`push_score`] rounds it.
    pub fn score(&mut self, x: f32) -> &mut Self {
        self.separate();
        push_score(self.out, x);
        self.comma = true;
        self
    }

    pub fn uint(&mut self, v: u64) -> &mut Self {
        self.separate();
        push_uint(self.out, v);
        self.comma = true;
        self
    }

    pub fn bool(&mut self, v: bool) -> &mut Self {
        self.separate();
        self.out.push_str(if v { "true" } else { "false" });
        self.comma = true;
        self
    }

    pub fn null(&mut self) -> &mut Self {
        self.separate();
        self.out.push_str("null");
        self.comma = true;
        self
    }

    /// `"k":"v"`.
    pub fn string_field(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k).string(v)
    }

    /// `"k":score`.
    pub fn score_field(&mut self, k: &str, x: f32) -> &mut Self {
        self.key(k).score(x)
    }

    /// `["a","b"]`.
    pub fn strings<'s>(&mut self, items: impl Iterator<Item = &'s str>) -> &mut Self {
        self.begin_array();
        for s in items {
            self.string(s);
        }
        self.end_array()
    }
}

/// `"api":{"method","path","operationId"}` of an API page.
fn write_api(w: &mut JsonWriter, api: &crate::format::ApiMeta) {
    w.key("api")
        .begin_object()
        .string_field("method", &api.method)
        .string_field("path", &api.path)
        .string_field("operationId", &api.operation_id)
        .end_object();
}

/// Appends one result object.
pub fn push_result(out: &mut String, r: &SearchResult, explain: bool) {
    write_result(&mut JsonWriter::new(out), r, explain);
}

fn write_result(w: &mut JsonWriter, r: &SearchResult, explain: bool) {
    w.begin_object()
        .string_field("id", &r.id)
        .string_field("url", &r.url)
        .string_field("title", &r.title)
        .string_field("kind", r.kind.name())
        .score_field("score", r.score)
        .key("breadcrumb")
        .strings(r.breadcrumb.iter().map(String::as_str));
    w.key("sections").begin_array();
    for s in &r.sections {
        w.begin_object()
            .string_field("anchor", &s.anchor)
            .string_field("title", &s.title)
            .string_field("url", &s.url)
            .score_field("score", s.score)
            .string_field("excerpt", &s.excerpt)
            .end_object();
    }
    w.end_array();
    if let Some(api) = &r.api {
        write_api(w, api);
    }
    if let (true, Some(e)) = (cfg!(feature = "explain") && explain, &r.explanation) {
        w.key("explain")
            .begin_object()
            .score_field("bm25", e.bm25)
            .key("terms")
            .begin_array();
        for t in &e.terms {
            w.begin_object()
                .string_field("term", &t.term)
                .score_field("idf", t.idf)
                .score_field("weight", t.weight)
                .score_field("contribution", t.contribution)
                .key("fields")
                .begin_array();
            for (field, tf, len) in &t.fields {
                w.begin_object()
                    .string_field("field", field)
                    .key("tf")
                    .uint(u64::from(*tf))
                    .key("len")
                    .uint(u64::from(*len))
                    .end_object();
            }
            w.end_array().end_object();
        }
        w.end_array().key("boosts").begin_array();
        for (name, value) in &e.boosts {
            w.begin_object()
                .string_field("boost", name)
                .score_field("value", *value)
                .end_object();
        }
        w.end_array();
        if e.page != 0.0 {
            w.score_field("page", e.page);
        }
        // Vector and hybrid modes only, so lexical output is unchanged.
        if e.lexical_rank.is_some() || e.vector_rank.is_some() || e.similarity.is_some() {
            for (name, rank) in [
                ("lexical_rank", e.lexical_rank),
                ("vector_rank", e.vector_rank),
            ] {
                w.key(name);
                match rank {
                    Some(r) => w.uint(u64::from(r)),
                    None => w.null(),
                };
            }
            w.key("similarity");
            match e.similarity {
                Some(s) => w.score(s),
                None => w.null(),
            };
        }
        w.end_object();
    }
    w.end_object();
}

/// `["a","b"]`.
pub fn string_array(items: &[String]) -> String {
    let mut out = String::new();
    JsonWriter::new(&mut out).strings(items.iter().map(String::as_str));
    out
}

/// `[{"from":…,"to":…}]`: the typo corrections a search applied.
pub fn corrections_json(corrections: &[crate::typos::Correction]) -> String {
    let mut out = String::new();
    let mut w = JsonWriter::new(&mut out);
    w.begin_array();
    for c in corrections {
        w.begin_object()
            .string_field("from", &c.from)
            .string_field("to", &c.to)
            .end_object();
    }
    w.end_array();
    out
}

/// `{"kind":[["docs",12],["api",3]],"tag":[…],"group":[…],"language":[…],"version":[…]}`: a query's facet
/// counts, each facet's values by count then name.
pub fn facets_json(facets: &crate::search::Facets) -> String {
    let mut out = String::new();
    let mut w = JsonWriter::new(&mut out);
    w.begin_object();
    for (name, values) in [
        ("kind", &facets.kind),
        ("tag", &facets.tag),
        ("group", &facets.group),
        ("language", &facets.language),
        ("version", &facets.version),
    ] {
        w.key(name).begin_array();
        for (value, count) in values {
            w.begin_array()
                .string(value)
                .uint(u64::from(*count))
                .end_array();
        }
        w.end_array();
    }
    w.end_object();
    out
}

/// `{"query","budget","tokens","mode","corrected","excerpts_only","pieces":[…]}`: a query's evidence
/// (issue 22), each piece with its citation, text and estimated tokens (the budget bounds the
/// Markdown rendering, `search::evidence_markdown`).
///
/// ```text
/// {"n","page_id","title","section","heading_path":[..],"url","breadcrumb":[..],"kind",
///  "api":{"method","path","operationId"}?,"score","tokens","truncated","text"}
/// ```
#[cfg(feature = "evidence")]
pub fn evidence_json(query: &str, e: &crate::search::Evidence) -> String {
    let mut out = String::new();
    let mut w = JsonWriter::new(&mut out);
    w.begin_object()
        .string_field("query", query)
        .key("budget")
        .uint(u64::from(e.budget))
        .key("tokens")
        .uint(u64::from(e.tokens))
        .string_field("mode", e.mode.name())
        .key("corrected")
        .bool(e.corrected)
        .key("excerpts_only")
        .bool(e.excerpts_only)
        .key("pieces")
        .begin_array();
    for (n, p) in e.pieces.iter().enumerate() {
        w.begin_object()
            .key("n")
            .uint(n as u64 + 1)
            .string_field("page_id", &p.page_id)
            .string_field("title", &p.page_title)
            .string_field("section", &p.section)
            .key("heading_path")
            .strings(p.heading_path.iter().map(String::as_str))
            .string_field("url", &p.url)
            .key("breadcrumb")
            .strings(p.breadcrumb.iter().map(String::as_str))
            .string_field("kind", p.kind.name());
        if let Some(api) = &p.api {
            write_api(&mut w, api);
        }
        w.score_field("score", p.score)
            .key("tokens")
            .uint(u64::from(p.tokens))
            .key("truncated")
            .bool(p.truncated)
            .string_field("text", &p.text)
            .end_object();
    }
    w.end_array().end_object();
    out
}

/// The results of one query as a JSON array.
pub fn results_json(results: &[SearchResult], explain: bool) -> String {
    let mut out = String::with_capacity(256 * results.len() + 2);
    let mut w = JsonWriter::new(&mut out);
    w.begin_array();
    for r in results {
        write_result(&mut w, r, explain);
    }
    w.end_array();
    out
}

/// One line of the batch output both CLIs print: `{"query_id":..,"results":[..]}`.
pub fn batch_line(query_id: &str, results: &[SearchResult], explain: bool) -> String {
    let mut out = String::from("{\"query_id\":");
    push_str(&mut out, query_id);
    out.push_str(",\"results\":");
    out.push_str(&results_json(results, explain));
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(x: f32) -> String {
        let mut s = String::new();
        push_score(&mut s, x);
        s
    }

    #[test]
    fn scores_print_rounded_and_short() {
        assert_eq!(score(1.5), "1.5");
        assert_eq!(score(2.0), "2");
        assert_eq!(score(0.000123), "0.000123");
        assert_eq!(score(12.345_679), "12.345679");
        assert_eq!(score(-0.25), "-0.25");
        assert_eq!(score(0.0000004), "0");
        assert_eq!(score(f32::NAN), "0");
    }

    /// Issue 19: the writer places every comma, in nested and empty containers alike.
    #[test]
    fn issue_19_the_writer_places_the_commas() {
        let mut out = String::new();
        let mut w = JsonWriter::new(&mut out);
        w.begin_object()
            .string_field("a", "x")
            .key("b")
            .begin_array()
            .end_array()
            .key("c")
            .begin_array()
            .begin_object()
            .end_object()
            .begin_array()
            .uint(1)
            .null()
            .score(0.5)
            .end_array()
            .end_array()
            .score_field("d", 2.0)
            .key("e")
            .strings(["p", "q"].into_iter())
            .end_object();
        assert_eq!(
            out,
            r#"{"a":"x","b":[],"c":[{},[1,null,0.5]],"d":2,"e":["p","q"]}"#
        );
        assert_eq!(string_array(&[]), "[]");
        assert_eq!(corrections_json(&[]), "[]");
        assert_eq!(
            facets_json(&Default::default()),
            r#"{"kind":[],"tag":[],"group":[],"language":[],"version":[]}"#
        );
    }

    #[test]
    fn strings_escape_controls_and_quotes() {
        let mut s = String::new();
        push_str(&mut s, "a\"b\\c\nd\u{1}e\u{2028}é");
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\u0001e\\u2028é\"");
    }
}
