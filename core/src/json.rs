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
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let v = c as u32;
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(HEX[((v >> shift) & 0xf) as usize] as char);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_uint(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(b as char);
    }
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

fn key(out: &mut String, k: &str) {
    push_str(out, k);
    out.push(':');
}

fn str_array<'a>(out: &mut String, items: impl Iterator<Item = &'a str>) {
    out.push('[');
    for (i, s) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, s);
    }
    out.push(']');
}

/// Appends one result object.
pub fn push_result(out: &mut String, r: &SearchResult, explain: bool) {
    out.push('{');
    key(out, "id");
    push_str(out, &r.id);
    out.push(',');
    key(out, "url");
    push_str(out, &r.url);
    out.push(',');
    key(out, "title");
    push_str(out, &r.title);
    out.push(',');
    key(out, "kind");
    push_str(out, r.kind.name());
    out.push(',');
    key(out, "score");
    push_score(out, r.score);
    out.push(',');
    key(out, "breadcrumb");
    str_array(out, r.breadcrumb.iter().map(String::as_str));
    out.push(',');
    key(out, "sections");
    out.push('[');
    for (i, s) in r.sections.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, "anchor");
        push_str(out, &s.anchor);
        out.push(',');
        key(out, "title");
        push_str(out, &s.title);
        out.push(',');
        key(out, "url");
        push_str(out, &s.url);
        out.push(',');
        key(out, "score");
        push_score(out, s.score);
        out.push(',');
        key(out, "excerpt");
        push_str(out, &s.excerpt);
        out.push('}');
    }
    out.push(']');
    if let Some(api) = &r.api {
        out.push(',');
        key(out, "api");
        out.push('{');
        key(out, "method");
        push_str(out, &api.method);
        out.push(',');
        key(out, "path");
        push_str(out, &api.path);
        out.push(',');
        key(out, "operationId");
        push_str(out, &api.operation_id);
        out.push('}');
    }
    if let (true, Some(e)) = (explain, &r.explanation) {
        out.push(',');
        key(out, "explain");
        out.push('{');
        key(out, "bm25");
        push_score(out, e.bm25);
        out.push(',');
        key(out, "terms");
        out.push('[');
        for (i, t) in e.terms.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('{');
            key(out, "term");
            push_str(out, &t.term);
            out.push(',');
            key(out, "idf");
            push_score(out, t.idf);
            out.push(',');
            key(out, "weight");
            push_score(out, t.weight);
            out.push(',');
            key(out, "contribution");
            push_score(out, t.contribution);
            out.push(',');
            key(out, "fields");
            out.push('[');
            for (j, (field, tf, len)) in t.fields.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                out.push('{');
                key(out, "field");
                push_str(out, field);
                out.push(',');
                key(out, "tf");
                push_uint(out, *tf as u64);
                out.push(',');
                key(out, "len");
                push_uint(out, *len as u64);
                out.push('}');
            }
            out.push_str("]}");
        }
        out.push(']');
        out.push(',');
        key(out, "boosts");
        out.push('[');
        for (i, (name, value)) in e.boosts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('{');
            key(out, "boost");
            push_str(out, name);
            out.push(',');
            key(out, "value");
            push_score(out, *value);
            out.push('}');
        }
        out.push(']');
        // Vector and hybrid modes only, so lexical output is unchanged.
        if e.lexical_rank.is_some() || e.vector_rank.is_some() || e.similarity.is_some() {
            for (name, rank) in [
                ("lexical_rank", e.lexical_rank),
                ("vector_rank", e.vector_rank),
            ] {
                out.push(',');
                key(out, name);
                match rank {
                    Some(r) => push_uint(out, r as u64),
                    None => out.push_str("null"),
                }
            }
            out.push(',');
            key(out, "similarity");
            match e.similarity {
                Some(s) => push_score(out, s),
                None => out.push_str("null"),
            }
        }
        out.push('}');
    }
    out.push('}');
}

/// The results of one query as a JSON array.
/// `["a","b"]`.
pub fn string_array(items: &[String]) -> String {
    let mut out = String::from("[");
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(&mut out, x);
    }
    out.push(']');
    out
}

/// `[{"from":…,"to":…}]`: the typo corrections a search applied.
pub fn corrections_json(corrections: &[crate::typos::Correction]) -> String {
    let mut out = String::from("[");
    for (i, c) in corrections.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"from\":");
        push_str(&mut out, &c.from);
        out.push_str(",\"to\":");
        push_str(&mut out, &c.to);
        out.push('}');
    }
    out.push(']');
    out
}

/// `{"kind":[["docs",12],["api",3]],"tag":[…],"group":[…],"language":[…],"version":[…]}`: a query's facet
/// counts, each facet's values by count then name.
pub fn facets_json(facets: &crate::search::Facets) -> String {
    let mut out = String::from("{");
    for (i, (name, values)) in [
        ("kind", &facets.kind),
        ("tag", &facets.tag),
        ("group", &facets.group),
        ("language", &facets.language),
        ("version", &facets.version),
    ]
    .into_iter()
    .enumerate()
    {
        if i > 0 {
            out.push(',');
        }
        push_str(&mut out, name);
        out.push_str(":[");
        for (j, (value, count)) in values.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            out.push('[');
            push_str(&mut out, value);
            out.push(',');
            push_uint(&mut out, u64::from(*count));
            out.push(']');
        }
        out.push(']');
    }
    out.push('}');
    out
}

pub fn results_json(results: &[SearchResult], explain: bool) -> String {
    let mut out = String::with_capacity(256 * results.len() + 2);
    out.push('[');
    for (i, r) in results.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_result(&mut out, r, explain);
    }
    out.push(']');
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

    #[test]
    fn strings_escape_controls_and_quotes() {
        let mut s = String::new();
        push_str(&mut s, "a\"b\\c\nd\u{1}e\u{2028}é");
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\u0001e\\u2028é\"");
    }
}
