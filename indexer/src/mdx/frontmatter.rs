//! A page's frontmatter: where its body starts, and the metadata Mintlify applies to it.

use std::ops::Range;

use crate::heading_id::{js_space, js_trim};
use crate::visibility::{check_nesting, Declared, Flag};

/// Parsed frontmatter fields we use.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Frontmatter {
    pub title: Option<String>,
    pub sidebar_title: Option<String>,
    pub description: Option<String>,
    pub tags: Vec<String>,
    pub openapi: Option<String>,
    /// `noindex` or `searchable: false`: Mintlify's search leaves the page out, hidden or not.
    pub noindex: bool,
    /// `hidden`: `Set(false)` puts a page under a hidden navigation element back into search.
    pub hidden: Flag,
    /// Every `visibility` key, read without regard to case (see [`Declared::from_yaml`]).
    pub visibility: Declared,
    /// Every `public` key: any truthy one says the site is behind authentication; on such a site
    /// only `public_true` opens the page, any other `public` keeps it behind sign-in.
    pub public: Flag,
    /// The key `public` is the boolean true (what Mintlify reads).
    pub public_true: bool,
    /// A `groups` key (whatever its value): only signed-in readers of those groups see the page.
    pub groups: bool,
    /// `lang:` (or `language:`): the page's language, over the navigation's.
    pub language: Option<String>,
    /// `mode: custom` or `mode: frame`: Mintlify gives the page's headings no ids.
    pub headings_without_ids: bool,
}

/// An error at a line of a file (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MdxError {
    pub line: usize,
    pub message: String,
}

/// Splits frontmatter from the body and reads it as Mintlify does, which reads a page twice:
/// - the body its MDX compiler renders starts after the `---` (YAML) or `+++` (TOML) block that
///   opens the file (`remark-frontmatter`: spaces may follow a fence);
/// - the metadata it applies (title, `hidden`, `noindex`, `public`, ...) comes from the block the
///   `front-matter` package finds (`metadata_block`). That is the same block but for hostile or
///   unusual files: `= yaml =` fences, a `...` closer, a `--- ` opener with trailing spaces, or a
///   first line that merely contains `---`, after which the first `---` pair anywhere is read.
///
/// Where the two differ, both are read: every declaration that withholds counts (most
/// restrictive), and what only opens a page (`hidden: false`, `public: true`) or names it comes
/// from the block Mintlify applies. Returns (frontmatter, body, line number where the body starts).
pub fn split_frontmatter(src: &str) -> Result<(Frontmatter, &str, usize), MdxError> {
    // `front-matter` reads the text as Node reads the file, its BOM kept (its expression allows
    // one before a fence); micromark skips one BOM.
    let read = src;
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let yaml_fence = fenced_block(src, "---");
    if yaml_fence.is_none()
        && markdown_lines(src)
            .next()
            .is_some_and(|(l, _)| is_fence(l, "---"))
    {
        return Err(MdxError {
            line: 1,
            message: "frontmatter opened with `---` is never closed: add a closing `---` line"
                .into(),
        });
    }
    let (body_start, body_line) = match &yaml_fence {
        Some(f) => (f.body_start, f.body_line),
        None => fenced_block(src, "+++").map_or((0, 1), |f| (f.body_start, f.body_line)),
    };
    let rendered = yaml_fence.as_ref().map(|f| &src[f.yaml.clone()]);
    let applied = metadata_block(read).map(|a| (&read[a.clone()], line_of(read, a.start) - 1));
    let ours = rendered.map(|y| parse_frontmatter(y, 1)).transpose()?;
    let fm = match (rendered, applied) {
        (Some(r), Some((a, _))) if js_trim(r) == js_trim(a) => ours.unwrap_or_default(),
        (None, None) => Frontmatter::default(),
        _ => {
            let theirs = match applied {
                Some((yaml, opener_line)) => Some(parse_metadata(yaml, opener_line)?),
                None => None,
            };
            Frontmatter::as_mintlify_applies(ours, theirs)
        }
    };
    Ok((fm, &src[body_start..], body_line))
}

/// A fenced block that opens the file, as `remark-frontmatter` reads it.
struct FencedBlock {
    yaml: Range<usize>,
    body_start: usize,
    /// The 1-based line where the body starts.
    body_line: usize,
}

/// The block between a first line that is `fence` (spaces may follow) and the next such line.
fn fenced_block(src: &str, fence: &str) -> Option<FencedBlock> {
    let mut lines = markdown_lines(src);
    let (first, opened) = lines.next()?;
    if !is_fence(first, fence) {
        return None;
    }
    let mut offset = opened;
    for (i, (line, end)) in lines.enumerate() {
        if is_fence(line, fence) {
            return Some(FencedBlock {
                yaml: opened..offset,
                body_start: end,
                body_line: i + 3,
            });
        }
        offset = end;
    }
    None
}

/// Whether a line (without its ending) is `fence` with only spaces and tabs after it, as
/// micromark's frontmatter fences are.
fn is_fence(line: &str, fence: &str) -> bool {
    line.strip_prefix(fence)
        .is_some_and(|rest| rest.trim_start_matches([' ', '\t']).is_empty())
}

/// Markdown's lines: each without its ending (`\r\n`, `\r` or `\n`, as micromark ends lines),
/// and the offset just past that ending.
fn markdown_lines(src: &str) -> impl Iterator<Item = (&str, usize)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= src.len() {
            return None;
        }
        let rest = &src[at..];
        let (len, ending) = match rest.find(['\r', '\n']) {
            None => (rest.len(), 0),
            Some(i) if rest[i..].starts_with("\r\n") => (i, 2),
            Some(i) => (i, 1),
        };
        let line = &rest[..len];
        at += len + ending;
        Some((line, at))
    })
}

/// The text of the block the `front-matter` package (which Mintlify's `parseFrontmatter` calls)
/// takes for metadata, as its regular expression finds it: when the file's first line contains
/// `= yaml =` or `---` anywhere, the first line that is exactly one of them (a BOM before it
/// allowed), up to the next line that starts with the same fence or `...` and has only
/// whitespace after it up to a line's end. Lines end at `\n`, `\r`, U+2028 and U+2029
/// (JavaScript's multiline `^` and `$`). Linear: an opener that finds no closer has no later line
/// of its own kind, so at most one failed scan per kind.
fn metadata_block(src: &str) -> Option<Range<usize>> {
    let first = src.split('\n').next().unwrap_or("");
    if !(first.contains("= yaml =") || first.contains("---")) {
        return None;
    }
    let is_break = |c: char| matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}');
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            src.char_indices()
                .filter(|(_, c)| is_break(*c))
                .map(|(i, c)| i + c.len_utf8()),
        )
        .collect();
    let at_line_end = |at: usize| src[at..].chars().next().is_none_or(is_break);
    let mut failed: Vec<&str> = Vec::new();
    for (i, &start) in starts.iter().enumerate() {
        let line = &src[start..];
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        let Some(fence) = ["= yaml =", "---"]
            .into_iter()
            .find(|f| line.starts_with(f))
        else {
            continue;
        };
        let open_end = src.len() - line.len() + fence.len();
        if !at_line_end(open_end) || failed.contains(&fence) {
            continue;
        }
        let closer = starts[i + 1..].iter().find(|&&c| {
            [fence, "..."].into_iter().any(|f| {
                src[c..].strip_prefix(f).is_some_and(|after| {
                    // `\s*$`: whitespace up to a line's end or the end of the file.
                    let mut rest = after
                        .chars()
                        .skip_while(|&ch| js_space(ch) && !is_break(ch));
                    rest.next().is_none_or(is_break)
                })
            })
        });
        match closer {
            // The text from the line after the opener's, as the compiler's block starts.
            Some(&c) => {
                let after = &src[open_end..c];
                let after = after
                    .strip_prefix("\r\n")
                    .unwrap_or_else(|| after.strip_prefix(is_break).unwrap_or(after));
                return Some(c - after.len()..c);
            }
            None => failed.push(fence),
        }
    }
    None
}

/// The 1-based line of byte `at`.
fn line_of(src: &str, at: usize) -> usize {
    1 + src[..at].bytes().filter(|&b| b == b'\n').count()
}

/// The metadata `front-matter` applies: its YAML's mapping, nothing when it is some other value
/// (JavaScript reads no field of a string); YAML that does not parse fails Mintlify's build, and
/// is an error here.
fn parse_metadata(yaml: &str, opener_line: usize) -> Result<Frontmatter, MdxError> {
    Ok(parse_mapping(yaml, opener_line)?.unwrap_or_default())
}

/// The YAML as js-yaml starts a document: at the first line that is not blank, a comment or a
/// directive, a `---` at the margin is a document start whatever follows it (`---hidden: true`
/// is `hidden: true` there, a key `---hidden` to serde_norway). Written as spaces, the rest of the
/// line parses as js-yaml parses it: alone, or as an error when lines at the margin follow.
fn as_js_yaml_starts(yaml: &str) -> std::borrow::Cow<'_, str> {
    let mut at = 0;
    for line in yaml.split_inclusive('\n') {
        let content = line.trim_start_matches([' ', '\t']);
        let content = content.trim_end_matches(['\r', '\n']);
        if content.is_empty() || content.starts_with('#') {
            at += line.len();
            continue;
        }
        // (A directive is such a line: its own `---` follows, which serde_norway reads.)
        if line.starts_with("---") {
            let mut out = yaml.to_owned();
            out.replace_range(at..at + 3, "   ");
            return out.into();
        }
        break;
    }
    yaml.into()
}

/// `yaml` read as frontmatter whose opening fence is at line `opener_line`.
fn parse_frontmatter(yaml: &str, opener_line: usize) -> Result<Frontmatter, MdxError> {
    parse_mapping(yaml, opener_line)?.ok_or_else(|| MdxError {
        line: opener_line + 1,
        message: "frontmatter is not a `key: value` mapping".into(),
    })
}

/// `yaml` read as [`parse_frontmatter`] reads it; `None` when it is a YAML value other than a
/// mapping.
fn parse_mapping(yaml: &str, opener_line: usize) -> Result<Option<Frontmatter>, MdxError> {
    if yaml.trim().is_empty() {
        return Ok(Some(Frontmatter::default()));
    }
    // YAML 1.1's line breaks, which serde_norway reads and js-yaml (1.2) does not: the two would
    // read different keys and values (`hidden: false\u{2028}` is text to JavaScript, and hides).
    if yaml.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        return Ok(Some(Frontmatter {
            visibility: Declared::Unreadable(
                "its frontmatter holds U+0085, U+2028 or U+2029, which YAML readers disagree on"
                    .into(),
            ),
            ..Frontmatter::default()
        }));
    }
    let yaml = &*as_js_yaml_starts(yaml);
    let at = |line: usize| MdxError {
        line: opener_line + line,
        message: String::new(),
    };
    check_nesting(yaml).map_err(|m| MdxError {
        message: format!("frontmatter {m}"),
        ..at(1)
    })?;
    let mut value: serde_norway::Value = serde_norway::from_str(yaml).map_err(|e| MdxError {
        message: format!("invalid YAML frontmatter: {e}"),
        ..at(e.location().map_or(0, |l| l.line()))
    })?;
    // `<<: *defaults` carries keys (a visibility among them) like any other.
    value.apply_merge().map_err(|e| MdxError {
        message: format!("invalid YAML frontmatter: {e}"),
        ..at(1)
    })?;
    Ok(match value {
        serde_norway::Value::Mapping(map) => Some(from_mapping(&map)),
        _ => None,
    })
}

impl Frontmatter {
    /// The page's frontmatter when the block its body skips (`rendered`, none of which Mintlify
    /// applies) and the block Mintlify applies (`applied`) differ: whatever withholds in either,
    /// and from `applied` alone what opens the page or names it.
    fn as_mintlify_applies(rendered: Option<Frontmatter>, applied: Option<Frontmatter>) -> Self {
        let rendered = rendered.unwrap_or_default();
        let applied = applied.unwrap_or_default();
        let hidden = match (rendered.hidden, applied.hidden) {
            (Flag::Unreadable(why), _) | (_, Flag::Unreadable(why)) => Flag::Unreadable(why),
            (Flag::Set(true), _) | (_, Flag::Set(true)) => Flag::Set(true),
            (_, applied) => applied,
        };
        Frontmatter {
            noindex: rendered.noindex || applied.noindex,
            hidden,
            visibility: rendered.visibility.combine(applied.visibility),
            // Any truthy `public` says the site is behind sign-in; only the applied one opens.
            public: rendered.public.combine(applied.public),
            public_true: applied.public_true,
            groups: rendered.groups || applied.groups,
            ..applied
        }
    }

    /// Frontmatter given as JSON: an OpenAPI operation's `x-mint.metadata`, which takes "any
    /// metadata field that would be valid in MDX frontmatter" (Mintlify); `None` when it is not a
    /// mapping.
    pub fn from_json(value: &serde_json::Value) -> Option<Frontmatter> {
        match serde_norway::to_value(value).ok()? {
            serde_norway::Value::Mapping(map) => Some(from_mapping(&map)),
            _ => None,
        }
    }
}

/// The fields of a frontmatter mapping (merge keys already applied).
fn from_mapping(map: &serde_norway::Mapping) -> Frontmatter {
    let get = |k: &str| map.get(serde_norway::Value::String(k.into()));
    let string = |k: &str| -> Option<String> {
        match get(k)? {
            serde_norway::Value::String(s) => Some(s.clone()),
            serde_norway::Value::Number(n) => Some(n.to_string()),
            serde_norway::Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    };
    // `hidden`/`noindex` present but not plainly true or false withhold, and say why.
    let hidden = match Flag::from_yaml(map, "hidden") {
        // What puts a page back into search is exactly what Mintlify's JavaScript reads: the
        // key `hidden` with the boolean false (not `Hidden: false`, not `hidden: 0`).
        Flag::Set(false) if get("hidden") != Some(&serde_norway::Value::Bool(false)) => {
            Flag::Absent
        }
        f => f,
    };
    let noindex = Flag::from_yaml(map, "noindex");
    // Only `searchable: false` does anything on a page; what is not understood withholds.
    let searchable = Flag::from_yaml(map, "searchable");
    let mut visibility = Declared::from_yaml(map);
    for flag in [&hidden, &noindex, &searchable] {
        if let Some(why) = flag.problem() {
            visibility = visibility.combine(Declared::Unreadable(why.to_owned()));
        }
    }
    let tags = match get("tags").or_else(|| get("keywords")) {
        Some(serde_norway::Value::Sequence(seq)) => seq
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        Some(serde_norway::Value::String(s)) => s
            .split(',')
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .collect(),
        _ => Vec::new(),
    };
    Frontmatter {
        title: string("title"),
        sidebar_title: string("sidebarTitle"),
        description: string("description"),
        tags,
        openapi: string("openapi"),
        headings_without_ids: matches!(
            get("mode"),
            Some(serde_norway::Value::String(m)) if m == "custom" || m == "frame"
        ),
        noindex: noindex.withholds() || searchable == Flag::Set(false),
        hidden,
        // An empty `public:` declares nothing (JavaScript reads null and "" as false).
        public: match get("public") {
            Some(serde_norway::Value::Null) => Flag::Absent,
            Some(serde_norway::Value::String(s)) if s.trim().is_empty() => Flag::Absent,
            _ => Flag::from_yaml(map, "public"),
        },
        public_true: get("public") == Some(&serde_norway::Value::Bool(true)),
        groups: map.keys().any(|k| {
            k.as_str()
                .is_some_and(|k| k.trim().eq_ignore_ascii_case("groups"))
        }),
        visibility,
        language: string("lang").or_else(|| string("language")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(src: &str) -> Option<&str> {
        metadata_block(src).map(|r| &src[r])
    }

    /// The block `front-matter`'s regular expression finds (cases checked against front-matter
    /// 4.0.2 under Node).
    #[test]
    fn the_metadata_block_is_found_as_front_matter_finds_it() {
        assert_eq!(block("---\na: 1\n---\nbody"), Some("a: 1\n"));
        assert_eq!(block("---\r\na: 1\r\n---\r\n"), Some("a: 1\r\n"));
        assert_eq!(block("= yaml =\na: 1\n= yaml =\n"), Some("a: 1\n"));
        // `...` closes either kind; a closer may have whitespace, not text, after it.
        assert_eq!(block("---\na: 1\n...\n"), Some("a: 1\n"));
        assert_eq!(block("---\na: 1\n--- x\n---  \n"), Some("a: 1\n--- x\n"));
        assert_eq!(block("---\na: 1\n---"), Some("a: 1\n"));
        // An opener is exact; a first line only needs to contain a fence.
        assert_eq!(block("--- \n---\nb: 2\n---\n"), Some("b: 2\n"));
        assert_eq!(block("x --- y\n\n---\nc: 3\n---\n"), Some("c: 3\n"));
        assert_eq!(block("----\n---\nc: 3\n---\n"), Some("c: 3\n"));
        assert_eq!(block("# T\n---\nc: 3\n---\n"), None);
        assert_eq!(block("---\nnever closed\n"), None);
        // A `= yaml =` opener is not closed by `---`, nor the reverse.
        assert_eq!(block("= yaml =\na: 1\n---\n"), None);
        // A lone `\r` ends a line, as U+2028 does.
        assert_eq!(block("---\ra: 1\r---\r"), Some("a: 1\r"));
        assert_eq!(block("---\u{2028}a: 1\u{2028}---"), Some("a: 1\u{2028}"));
    }

    #[test]
    fn where_the_two_blocks_differ_what_withholds_in_either_counts() {
        let (fm, body, line) = split_frontmatter("= yaml =\nhidden: true\n= yaml =\nx\n").unwrap();
        assert_eq!((fm.hidden, body.len(), line), (Flag::Set(true), 33, 1));
        let (fm, body, _) = split_frontmatter("--- \nnoindex: true\n---\nx\n").unwrap();
        assert!(fm.noindex);
        assert_eq!(body, "x\n");
        // What only opens or names a page comes from the block Mintlify applies.
        let (fm, ..) =
            split_frontmatter("--- \ntitle: T\nhidden: false\npublic: true\n---\nx\n").unwrap();
        assert_eq!(
            (fm.title, fm.hidden, fm.public_true),
            (None, Flag::Absent, false)
        );
        assert_eq!(fm.public, Flag::Set(true));
        // `...` closes Mintlify's block early: the compiler's, to `---`, still withholds.
        let (fm, ..) = split_frontmatter("---\ntitle: T\n...\n---\n").unwrap();
        assert_eq!(fm.title.as_deref(), Some("T"));
        // Metadata that is not a mapping applies nothing (JavaScript reads no field of it).
        let (fm, ..) = split_frontmatter("x --- y\n---\njust words\n---\n").unwrap();
        assert_eq!(fm, Frontmatter::default());
        // TOML frontmatter is skipped, and applies nothing.
        let (fm, body, line) = split_frontmatter("+++\nhidden = true\n+++\nx\n").unwrap();
        assert_eq!((fm, body, line), (Frontmatter::default(), "x\n", 4));
    }

    /// An opener that finds no closer is scanned past once: no later line can open again.
    #[test]
    fn an_unclosed_opener_is_scanned_once() {
        let src = format!("x ---\n---\n{}", "--- x\n= yaml = \n".repeat(200_000));
        assert_eq!(metadata_block(&src), None);
        let src = format!("x ---\n{}", "= yaml =\na\n".repeat(100_000));
        assert_eq!(block(&src), Some("a\n"));
    }

    /// Review of session 30: the readers' disagreements that opened or leaked a page.
    #[test]
    fn session_30_review_bom_yaml_starts_line_breaks_and_fences() {
        // Two BOMs: `front-matter` allows one before its fence and finds no block.
        let (fm, ..) = split_frontmatter("\u{feff}\u{feff}---\nhidden: false\n---\nx\n").unwrap();
        assert_eq!(fm.hidden, Flag::Absent);
        // js-yaml reads a `---` at a document's start as its start, whatever follows.
        for src in [
            "---\n---hidden: true\n---\nx",
            "---\n# c\n---{hidden: true}\n---\nx",
        ] {
            assert_eq!(
                split_frontmatter(src).unwrap().0.hidden,
                Flag::Set(true),
                "{src:?}"
            );
        }
        assert!(split_frontmatter("---\n---hidden: true\ntitle: x\n---\nx").is_err());
        let (fm, ..) = split_frontmatter("---\ntitle: x\n---hidden: true\n---\nx").unwrap();
        assert_eq!(fm.hidden, Flag::Absent);
        // Line breaks only YAML 1.1 has withhold.
        for c in ['\u{85}', '\u{2028}', '\u{2029}'] {
            let src = format!("---\ntitle: T\nhidden: false{c}\nx: y\n---\nx");
            let (fm, ..) = split_frontmatter(&src).unwrap();
            assert!(matches!(fm.visibility, Declared::Unreadable(_)), "{c:?}");
        }
        // A lone `\r` ends a line for micromark: the block is not body text.
        let (fm, body, _) = split_frontmatter("---\rtitle: CR\rnote: x\r---\r\rBody\r").unwrap();
        assert_eq!((fm.title.as_deref(), body), (Some("CR"), "\rBody\r"));
        // Only spaces and tabs may follow a fence.
        let block = fenced_block("---\ntitle: T\n---\u{a0}\nhidden: true\n---\nB", "---").unwrap();
        assert_eq!((block.yaml, block.body_start), (4..32, 36));
        // Whose block (`---\u{a0}` a line of it) is no YAML: withheld, as not understood.
        assert!(split_frontmatter("---\ntitle: T\n---\u{a0}\nhidden: true\n---\nB").is_err());
        let (_, body, _) = split_frontmatter("---\ntitle: T\n--- \t\nB").unwrap();
        assert_eq!(body, "B");
    }
}
