//! MDX to plain Markdown: frontmatter split off and parsed, `import`/`export` lines removed, snippets
//! inlined, JSX components reduced to their human text and title-like attributes, JSX expressions
//! dropped, code fences kept verbatim. The result goes to pulldown-cmark (see `chunk`).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use crate::model::Visibility;
use crate::visibility::{allowed, check_nesting, Declared, Refusal, SiteRoot, VisibilityRules};

/// The most text one page may expand to through snippets, and the most snippets it may inline:
/// past either, further snippets are left out (one warning), so an include "bomb" costs seconds.
pub const MAX_EXPANDED_BYTES: usize = 4 << 20;
pub const MAX_INCLUSIONS: usize = 2_000;

/// Attributes whose values are human text worth indexing (`<Card title="...">`, `<ParamField path="id">`).
const TEXT_ATTRIBUTES: &[&str] = &[
    "title",
    "sidebartitle",
    "name",
    "label",
    "path",
    "query",
    "body",
    "header",
    "cookie",
    "field",
    "description",
    "alt",
    "tip",
];

/// Parsed frontmatter fields we use.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Frontmatter {
    pub title: Option<String>,
    pub sidebar_title: Option<String>,
    pub description: Option<String>,
    pub tags: Vec<String>,
    pub openapi: Option<String>,
    pub noindex: bool,
    pub hidden: bool,
    /// Every `visibility` key, read without regard to case (see [`Declared::from_yaml`]).
    pub visibility: Declared,
    /// `lang:` (or `language:`): the page's language, over the navigation's.
    pub language: Option<String>,
}

/// An error at a line of a file (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MdxError {
    pub line: usize,
    pub message: String,
}

/// Splits `---` frontmatter from the body. Returns (frontmatter, body, line number where the body starts).
pub fn split_frontmatter(src: &str) -> Result<(Frontmatter, &str, usize), MdxError> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let mut lines = src.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return Ok((Frontmatter::default(), src, 1));
    }
    let mut offset = first.len();
    let mut yaml_end = None;
    for (i, line) in lines.enumerate() {
        if line.trim_end() == "---" {
            yaml_end = Some((offset, offset + line.len(), i + 2));
            break;
        }
        offset += line.len();
    }
    let Some((yaml_stop, body_start, closing_line)) = yaml_end else {
        return Err(MdxError {
            line: 1,
            message: "frontmatter opened with `---` is never closed: add a closing `---` line"
                .into(),
        });
    };
    let yaml = &src[first.len()..yaml_stop];
    let fm = parse_frontmatter(yaml)?;
    Ok((fm, &src[body_start..], closing_line + 1))
}

fn parse_frontmatter(yaml: &str) -> Result<Frontmatter, MdxError> {
    if yaml.trim().is_empty() {
        return Ok(Frontmatter::default());
    }
    check_nesting(yaml).map_err(|m| MdxError {
        line: 2,
        message: format!("frontmatter {m}"),
    })?;
    let mut value: serde_yaml::Value = serde_yaml::from_str(yaml).map_err(|e| MdxError {
        line: e.location().map_or(1, |l| l.line() + 1),
        message: format!("invalid YAML frontmatter: {e}"),
    })?;
    // `<<: *defaults` carries keys (a visibility among them) like any other.
    value.apply_merge().map_err(|e| MdxError {
        line: 2,
        message: format!("invalid YAML frontmatter: {e}"),
    })?;
    let serde_yaml::Value::Mapping(map) = value else {
        return Err(MdxError {
            line: 2,
            message: "frontmatter is not a `key: value` mapping".into(),
        });
    };
    let get = |k: &str| map.get(serde_yaml::Value::String(k.into()));
    let string = |k: &str| -> Option<String> {
        match get(k)? {
            serde_yaml::Value::String(s) => Some(s.clone()),
            serde_yaml::Value::Number(n) => Some(n.to_string()),
            serde_yaml::Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    };
    let flag = |k: &str| {
        matches!(get(k), Some(serde_yaml::Value::Bool(true)))
            || string(k).as_deref() == Some("true")
    };
    let tags = match get("tags").or_else(|| get("keywords")) {
        Some(serde_yaml::Value::Sequence(seq)) => seq
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        Some(serde_yaml::Value::String(s)) => s
            .split(',')
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .collect(),
        _ => Vec::new(),
    };
    Ok(Frontmatter {
        title: string("title"),
        sidebar_title: string("sidebarTitle"),
        description: string("description"),
        tags,
        openapi: string("openapi"),
        noindex: flag("noindex"),
        hidden: flag("hidden"),
        visibility: Declared::from_yaml(&map),
        language: string("lang").or_else(|| string("language")),
    })
}

/// What a page's includes are checked against: the site, its globs and the build's audience.
#[derive(Clone, Copy)]
pub struct IncludePolicy<'a> {
    pub site: &'a SiteRoot,
    pub rules: &'a VisibilityRules,
    pub audience: Visibility,
}

/// Resolves and reads the files a page includes (`/snippets/x.mdx`, relative imports), each only when
/// it lies inside the site and its own visibility (its globs and frontmatter, most restrictive) is
/// allowed in the build. Refusals are reported as warnings, never fatal; every file read is recorded
/// with its content hash, so that a cached page is parsed again when one of them changes.
pub struct SnippetResolver<'a> {
    policy: IncludePolicy<'a>,
    pub warnings: Vec<String>,
    /// (canonical site-relative path, blake3 of its bytes) of every included file, sorted, unique.
    pub includes: Vec<(String, String)>,
    expanded: usize,
    inclusions: usize,
    capped: bool,
}

impl<'a> SnippetResolver<'a> {
    pub fn new(policy: IncludePolicy<'a>) -> Self {
        SnippetResolver {
            policy,
            warnings: Vec::new(),
            includes: Vec::new(),
            expanded: 0,
            inclusions: 0,
            capped: false,
        }
    }

    /// The file `spec` names, its text and body offset, or `None` with a warning.
    fn load(&mut self, spec: &str, from_dir: &Path) -> Option<(PathBuf, String, usize)> {
        let spec = spec.trim();
        let root = &self.policy.site.root;
        let base = if let Some(rest) = spec.strip_prefix('/') {
            root.join(rest)
        } else {
            from_dir.join(spec)
        };
        let candidates = [
            base.clone(),
            base.with_extension("mdx"),
            base.with_extension("md"),
        ];
        let mut found = None;
        for c in candidates {
            match self.policy.site.resolve(&c) {
                Ok(f) => {
                    found = Some(f);
                    break;
                }
                Err(Refusal::Missing) => {}
                Err(e) => {
                    self.warn(format!(
                        "snippet `{spec}` is not read: {e}; its text is left out"
                    ));
                    return None;
                }
            }
        }
        let Some(file) = found else {
            self.warn(format!(
                "snippet `{spec}` not found under the site root; its text is left out"
            ));
            return None;
        };
        let src = match self.policy.site.read(&file) {
            Ok(s) => s,
            Err(e) => {
                self.warn(format!(
                    "snippet `{spec}` is not read: {e}; its text is left out"
                ));
                return None;
            }
        };
        let hash = blake3::hash(src.as_bytes()).to_hex().to_string();
        if let Err(pos) = self.includes.binary_search_by(|(r, _)| r.cmp(&file.rel)) {
            self.includes.insert(pos, (file.rel.clone(), hash));
        }
        let (declared, body_start) = match split_frontmatter(&src) {
            Ok((fm, body, _)) => (fm.visibility, src.len() - body.len()),
            Err(e) => (
                Declared::Unreadable(format!("its frontmatter does not parse ({})", e.message)),
                0,
            ),
        };
        let declared = declared.combine(Declared::from_glob(self.policy.rules.for_path(&file.rel)));
        let v = declared.visibility();
        if !allowed(v, self.policy.audience) {
            let why = declared
                .problem()
                .map(str::to_owned)
                .unwrap_or_else(|| format!("it is {}", format!("{v:?}").to_lowercase()));
            self.warn(format!(
                "snippet `{spec}` ({}) is withheld: {why}; its text is left out",
                file.rel
            ));
            return None;
        }
        Some((file.path, src, body_start))
    }

    /// Records a warning once: an include repeated a thousand times says so once.
    fn warn(&mut self, message: String) {
        if !self.warnings.contains(&message) {
            self.warnings.push(message);
        }
    }

    /// Counts an inclusion of `len` bytes against the page's budget; false (one warning) past it.
    fn admit(&mut self, len: usize) -> bool {
        if self.capped {
            return false;
        }
        self.inclusions += 1;
        self.expanded += len;
        if self.inclusions > MAX_INCLUSIONS || self.expanded > MAX_EXPANDED_BYTES {
            self.capped = true;
            self.warn(format!(
                "snippets expand this page past {MAX_INCLUSIONS} inclusions or {} MB of text; the rest are left out",
                MAX_EXPANDED_BYTES >> 20
            ));
            return false;
        }
        true
    }
}

/// Converts an MDX body to Markdown. `from_dir` resolves relative snippet imports.
pub fn mdx_to_markdown(body: &str, from_dir: &Path, snippets: &mut SnippetResolver<'_>) -> String {
    let mut seen = HashSet::new();
    convert(body, from_dir, snippets, &mut seen, 0)
}

fn convert(
    body: &str,
    from_dir: &Path,
    snippets: &mut SnippetResolver<'_>,
    seen: &mut HashSet<PathBuf>,
    depth: usize,
) -> String {
    // Pass 1: import/export lines, code fences protected.
    let mut imports: BTreeMap<String, String> = BTreeMap::new();
    let mut kept = String::with_capacity(body.len());
    let mut fence: Option<(String, usize)> = None;
    let mut export_depth: i32 = 0;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some((marker, fence_indent)) = &fence {
            let t = trimmed.trim_end();
            let stripped = strip_indent(line, *fence_indent);
            kept.push_str(stripped);
            if t.starts_with(marker.as_str())
                && t.chars().all(|c| c == marker.chars().next().unwrap_or('`'))
            {
                fence = None;
            }
            continue;
        }
        if export_depth > 0 {
            export_depth += brace_balance(line);
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            let ch = trimmed.chars().next().unwrap_or('`');
            let n = trimmed.chars().take_while(|&c| c == ch).count();
            fence = Some((ch.to_string().repeat(n), indent));
            kept.push_str(&line[indent..]);
            continue;
        }
        if indent == 0 && trimmed.starts_with("import ") {
            // Only Markdown imports are content snippets; `.jsx`/`.js` imports are components, whose
            // tags are reduced like any other component.
            if let Some((names, spec)) = parse_import(trimmed)
                .filter(|(_, spec)| spec.ends_with(".mdx") || spec.ends_with(".md"))
            {
                for n in names {
                    imports.insert(n, spec.clone());
                }
            }
            continue;
        }
        if indent == 0 && trimmed.starts_with("export ") {
            export_depth = brace_balance(line).max(0);
            continue;
        }
        // MDX has no indented code blocks: dedent so Markdown does not invent them.
        if indent >= 4 {
            kept.push_str(trimmed);
        } else {
            kept.push_str(line);
        }
    }

    // Pass 2: JSX tags and expressions, outside code.
    let mut out = String::with_capacity(kept.len());
    let bytes = kept.as_bytes();
    let mut i = 0;
    let mut in_fence = false;
    let mut line_start = true;
    while i < bytes.len() {
        if line_start {
            let rest = &kept[i..];
            if rest.starts_with("```") || rest.starts_with("~~~") {
                in_fence = !in_fence;
            }
        }
        if in_fence {
            let end = kept[i..].find('\n').map_or(kept.len(), |p| i + p + 1);
            out.push_str(&kept[i..end]);
            i = end;
            line_start = true;
            continue;
        }
        let c = bytes[i];
        line_start = false;
        match c {
            b'\n' => {
                out.push('\n');
                i += 1;
                line_start = true;
            }
            b'`' => {
                // Inline code: copied verbatim up to the matching run of backticks on the same line.
                let run = kept[i..].bytes().take_while(|&b| b == b'`').count();
                let marker = &kept[i..i + run];
                let line_end = kept[i..].find('\n').map_or(kept.len(), |p| i + p);
                match kept[i + run..line_end].find(marker) {
                    Some(p) => {
                        let end = i + run + p + run;
                        out.push_str(&kept[i..end]);
                        i = end;
                    }
                    None => {
                        out.push_str(marker);
                        i += run;
                    }
                }
            }
            b'{' => {
                i = skip_balanced(bytes, i);
            }
            // An HTML comment, of any length: readers never see it (an unclosed one runs to the end).
            b'<' if kept[i..].starts_with("<!--") => {
                i = kept[i + 4..]
                    .find("-->")
                    .map_or(kept.len(), |p| i + 4 + p + 3);
                out.push('\n');
            }
            b'<' if bytes
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'/' || *b == b'>') =>
            {
                let end = tag_end(bytes, i);
                let tag = &kept[i..end];
                i = end;
                let parsed = parse_tag(tag);
                if parsed.closing {
                    out.push('\n');
                    continue;
                }
                if let Some(spec) = imports.get(&parsed.name) {
                    if let Some(text) = inline_snippet(spec, from_dir, snippets, seen, depth) {
                        out.push('\n');
                        out.push_str(&text);
                        out.push('\n');
                    }
                    continue;
                }
                if parsed.name == "Snippet" {
                    if let Some(file) = parsed
                        .attrs
                        .iter()
                        .find(|(k, _)| k == "file")
                        .map(|(_, v)| v.clone())
                    {
                        let spec = format!("/snippets/{}", file.trim_start_matches('/'));
                        if let Some(text) = inline_snippet(&spec, from_dir, snippets, seen, depth) {
                            out.push('\n');
                            out.push_str(&text);
                            out.push('\n');
                        }
                    }
                    continue;
                }
                let texts: Vec<&str> = parsed
                    .attrs
                    .iter()
                    .filter(|(k, v)| {
                        TEXT_ATTRIBUTES.contains(&k.to_ascii_lowercase().as_str())
                            && !v.trim().is_empty()
                    })
                    .map(|(_, v)| v.as_str())
                    .collect();
                if !texts.is_empty() {
                    out.push_str("\n\n");
                    out.push_str(&texts.join(" — "));
                    out.push_str("\n\n");
                } else if is_block_tag(&parsed.name) {
                    out.push('\n');
                }
            }
            _ => {
                let ch_len = utf8_len(c);
                out.push_str(&kept[i..i + ch_len]);
                i += ch_len;
            }
        }
    }
    out
}

fn inline_snippet(
    spec: &str,
    from_dir: &Path,
    snippets: &mut SnippetResolver<'_>,
    seen: &mut HashSet<PathBuf>,
    depth: usize,
) -> Option<String> {
    if snippets.capped {
        return None;
    }
    let (path, src, body_start) = snippets.load(spec, from_dir)?;
    if depth >= 8 || !seen.insert(path.clone()) {
        snippets.warn(format!("snippet `{spec}` includes itself (directly or through other snippets), or nests deeper than 8; the cycle is cut"));
        return None;
    }
    let body = &src[body_start..];
    if !snippets.admit(body.len()) {
        seen.remove(&path);
        return None;
    }
    let dir = path.parent().unwrap_or(from_dir).to_path_buf();
    let text = convert(body, &dir, snippets, seen, depth + 1);
    seen.remove(&path);
    Some(text)
}

fn strip_indent(line: &str, n: usize) -> &str {
    let ws = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[ws.min(n)..]
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

fn brace_balance(line: &str) -> i32 {
    line.chars().fold(0, |d, c| match c {
        '{' | '[' | '(' => d + 1,
        '}' | ']' | ')' => d - 1,
        _ => d,
    })
}

/// `import A, { B as C } from "/snippets/x.mdx"` → (["A", "C"], "/snippets/x.mdx").
fn parse_import(line: &str) -> Option<(Vec<String>, String)> {
    let rest = line.strip_prefix("import ")?;
    let from = rest.rfind(" from ")?;
    let names_part = &rest[..from];
    let spec = rest[from + 6..]
        .trim()
        .trim_end_matches(';')
        .trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .to_owned();
    let mut names = Vec::new();
    for raw in names_part.split([',', '{', '}']) {
        let n = raw.trim();
        if n.is_empty() {
            continue;
        }
        let alias = n.rsplit(" as ").next().unwrap_or(n).trim();
        if alias
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        {
            names.push(alias.to_owned());
        }
    }
    Some((names, spec))
}

/// Skips a `{ ... }` expression, respecting nested braces and string literals. Returns the index after it.
fn skip_balanced(b: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
        } else {
            match c {
                b'"' | b'\'' | b'`' => quote = Some(c),
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    b.len()
}

/// The index after the `>` that closes the tag starting at `start` (quotes and `{}` respected).
fn tag_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' | b'\'' => quote = Some(c),
            b'{' => {
                i = skip_balanced(b, i);
                continue;
            }
            b'>' => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

struct Tag {
    name: String,
    closing: bool,
    attrs: Vec<(String, String)>,
}

fn parse_tag(tag: &str) -> Tag {
    let inner = tag
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim_end_matches('/');
    let closing = inner.starts_with('/');
    let inner = inner.trim_start_matches('/');
    let name_end = inner
        .find(|c: char| c.is_whitespace())
        .unwrap_or(inner.len());
    let name = inner[..name_end].to_owned();
    let mut attrs = Vec::new();
    let rest = &inner[name_end..];
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let key_start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'=' {
            if b[i] == b'{' {
                i = skip_balanced(b, i);
            } else {
                i += 1;
            }
        }
        let key = rest[key_start..i].to_owned();
        if i < b.len() && b[i] == b'=' {
            i += 1;
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                let q = b[i];
                let vs = i + 1;
                let mut j = vs;
                while j < b.len() && b[j] != q {
                    j += 1;
                }
                attrs.push((key, rest[vs..j.min(b.len())].to_owned()));
                i = j + 1;
            } else if i < b.len() && b[i] == b'{' {
                let end = skip_balanced(b, i);
                let expr = rest[i + 1..end.saturating_sub(1).max(i + 1)].trim();
                // A string literal in braces is still text: title={"Quick start"}.
                let lit = expr.trim_matches(|c| c == '"' || c == '\'' || c == '`');
                if expr.len() >= 2 && lit.len() + 2 == expr.len() {
                    attrs.push((key, lit.to_owned()));
                }
                i = end;
            } else {
                while i < b.len() && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
            }
        } else if !key.is_empty() {
            attrs.push((key, String::new()));
        }
    }
    Tag {
        name,
        closing,
        attrs,
    }
}

fn is_block_tag(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        || matches!(
            name,
            "div" | "p" | "br" | "table" | "tr" | "li" | "ul" | "ol" | "section"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(src: &str) -> String {
        let root = std::env::temp_dir();
        let site = SiteRoot::new(&root, 1 << 20).unwrap();
        let rules = VisibilityRules::default();
        let mut r = SnippetResolver::new(IncludePolicy {
            site: &site,
            rules: &rules,
            audience: Visibility::Public,
        });
        mdx_to_markdown(src, &root, &mut r)
    }

    #[test]
    fn frontmatter_fields_and_errors() {
        let (fm, body, line) =
            split_frontmatter("---\ntitle: Hello\ntags: [a, b]\nnoindex: true\n---\n# Body\n")
                .unwrap();
        assert_eq!(fm.title.as_deref(), Some("Hello"));
        assert_eq!(fm.tags, ["a", "b"]);
        assert!(fm.noindex);
        assert_eq!(body, "# Body\n");
        assert_eq!(line, 6);
        let err = split_frontmatter("---\ntitle: [unclosed\n---\n").unwrap_err();
        assert!(err.message.contains("invalid YAML"), "{}", err.message);
        assert!(split_frontmatter("---\ntitle: x\n").is_err());
    }

    #[test]
    fn components_become_text_and_expressions_vanish() {
        let out = md("import X from '/snippets/none.mdx'\nexport const a = {\n  b: 1,\n}\n\n<Card title=\"Quick start\" href=\"/q\">\n  Read **this** {props.x}\n</Card>\n<ParamField path=\"userId\" type=\"string\" required>\nThe id.\n</ParamField>\n");
        assert!(out.contains("Quick start"));
        assert!(out.contains("Read **this**"));
        assert!(out.contains("userId"));
        assert!(!out.contains("props.x"));
        assert!(!out.contains("export"));
        assert!(!out.contains("href"));
    }

    #[test]
    fn issue_18_comments_and_expressions_are_not_indexed() {
        let out = md("Seen.\n<!-- hidden one\nhidden two\n\nhidden three -->\nAlso seen.\n{/* mdx comment */}\n{secret.expression}\n<!-- unclosed\nhidden four\n");
        assert!(out.contains("Seen.") && out.contains("Also seen."), "{out}");
        for w in ["hidden", "mdx comment", "expression"] {
            assert!(!out.contains(w), "{w} in {out}");
        }
        assert!(md("Use `<!-- x -->` in HTML.").contains("<!-- x -->"));
    }

    #[test]
    fn component_imports_are_not_snippets() {
        let out = md("import { PreviewButton } from \"/snippets/previewbutton.jsx\"\n\n<PreviewButton href=\"https://x\">Open the llms.txt file.</PreviewButton>\n");
        assert!(out.contains("Open the llms.txt file."), "{out}");
    }

    #[test]
    fn code_is_kept_verbatim_even_when_indented_in_components() {
        let out = md("<CodeGroup>\n    ```bash\n    curl {url} <b>\n    ```\n</CodeGroup>\nUse `{braces}` inline.\n");
        assert!(out.contains("```bash\ncurl {url} <b>\n```"), "{out}");
        assert!(out.contains("`{braces}`"));
    }
}
