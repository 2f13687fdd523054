//! MDX to plain Markdown: frontmatter split off and parsed, `import`/`export` lines removed, snippets
//! inlined, JSX components reduced to their human text and title-like attributes, JSX expressions
//! dropped, code fences kept verbatim. The result goes to pulldown-cmark (see `chunk`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::document::Visibility;
use crate::openapi::{LoadedOperations, OperationRef};
use crate::visibility::{allowed, Declared, Refusal, SiteRoot, VisibilityRules};

mod blocks;
mod frontmatter;
mod js;
mod js_parse;
mod outline;
mod tag;
pub mod variables;

pub use blocks::LineFences;
pub use frontmatter::{split_frontmatter, Frontmatter, MdxError};

use blocks::{
    blank_line_end, columns, fence_open, is_thematic_break, link_resource_len, list_item,
    raw_text_len, strip_indent, BacktickRuns,
};
use js::{block_exports, block_imports, esm_block_end, esm_first_blank, skip_balanced};
pub use outline::without_heading_ids;
use outline::Outline;
pub use tag::MINTLIFY_COMPONENTS;
use tag::{html_tag_len, is_block_tag, parse_tag, tag_end, AttrValue, Tag, TagCheck};

/// The most text one page may expand to through snippets, and the most snippets it may inline:
/// past either, further snippets are left out (one warning), so an include "bomb" costs seconds.
pub const MAX_EXPANDED_BYTES: usize = 4 << 20;
pub const MAX_INCLUSIONS: usize = 2_000;

/// Attributes whose values are human text worth indexing (`<Card title="...">`, `<ParamField path="id">`).
pub const TEXT_ATTRIBUTES: &[&str] = &[
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

/// The components whose `title` Mintlify reads as Markdown (`remarkParseTitleMarkdown`).
const TITLE_COMPONENTS: &[&str] = &["Accordion", "Card", "Color.Row", "Step", "Tab", "Tile"];

/// Whether Mintlify shows `component`'s attribute `key` as text: the [`TEXT_ATTRIBUTES`] of any
/// component, and a field's type and default beside its name (`--dry-run` for a CLI flag).
pub fn is_visible_attribute(component: &str, key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    TEXT_ATTRIBUTES.contains(&key.as_str())
        // The labels before and after a field's name (`pre={["Deprecated"]}`).
        || (matches!(component, "ParamField" | "ResponseField")
            && matches!(key.as_str(), "type" | "default" | "pre" | "post"))
        // An update's tags show beside its label and as the changelog's filters.
        || (component == "Update" && key == "tags")
        // A card's button, a tooltip's heading and link, a frame's caption and the hint above it
        // (Mintlify's component pages: cards, tooltips, frames).
        || (component == "Card" && key == "cta")
        || (component == "Tooltip" && matches!(key.as_str(), "headline" | "cta"))
        || (component == "Frame" && matches!(key.as_str(), "caption" | "hint"))
}

/// Visible attribute values as one Markdown paragraph that reads exactly as the values do (Mintlify
/// shows them as plain text): whitespace collapsed, every ASCII punctuation mark escaped, so nothing
/// in a title becomes a list, heading, link, link definition or emphasis, but for `&`, `#` and `;`,
/// which keep entities live (JSX decodes `&quot;` in attribute strings too; the paragraph starts
/// with `**`, so `#` cannot open a heading); in bold, apart from the text under it.
fn attribute_paragraph(texts: &[&str]) -> String {
    let joined = texts
        .iter()
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(" — ");
    format!("**{}**", escape_markdown(&joined, &['&', '#', ';']))
}

/// `text` as Markdown that renders to exactly `text`: every ASCII punctuation mark but those in
/// `keep` backslash-escaped (CommonMark's escapes).
pub fn escape_markdown(text: &str, keep: &[char]) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_ascii_punctuation() && !keep.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Prefixes the content hash of an include that was read and withheld.
pub const WITHHELD_PREFIX: &str = "withheld:";

/// What a page's includes are checked against: the site, its globs and the build's audience.
#[derive(Clone, Copy)]
pub struct IncludePolicy<'a> {
    pub site: &'a SiteRoot,
    pub rules: &'a VisibilityRules,
    pub operations: &'a LoadedOperations,
    pub audience: Visibility,
    /// docs.json's `variables`, replaced in every snippet's text as in the page's.
    pub variables: &'a variables::Variables,
}

/// Resolves and reads the files a page includes (`/snippets/x.mdx`, relative imports), each only when
/// it lies inside the site and its own visibility (its globs and frontmatter, most restrictive) is
/// allowed in the build. Refusals are reported as warnings, never fatal; every file read is recorded
/// with its content hash, so that a cached page is parsed again when one of them changes.
pub struct SnippetResolver<'a> {
    policy: IncludePolicy<'a>,
    pub warnings: Vec<String>,
    /// (canonical site-relative path, blake3 of its bytes) of every included file, sorted, unique;
    /// the hash of one withheld is prefixed with [`WITHHELD_PREFIX`].
    pub includes: Vec<(String, String)>,
    expanded: usize,
    inclusions: usize,
    capped: bool,
    /// The directory, as written, of each snippet being inlined (innermost last).
    written_dirs: Vec<PathBuf>,
    /// Reading a JSX attribute's element (`label={<b>x</b>}`): JSX in its own attributes is not
    /// read (no recursion on hostile nesting).
    in_attribute: bool,
    /// The names the page and the snippets read into it so far import or export: the components
    /// it defines (Mintlify looks for them over the page with its snippets in).
    defined: BTreeSet<String>,
    /// What in the text being read Mintlify's parser refuses, when something is: it serves "A
    /// parsing error occurred" in place of such a file, page or snippet (`preparseMdxTree`).
    pub unparseable: Option<String>,
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
            written_dirs: Vec::new(),
            in_attribute: false,
            defined: BTreeSet::new(),
            unparseable: None,
        }
    }

    /// Whether `tag` opens a block Mintlify removes as an unknown component ([`Tag::unknown_component`]
    /// against the names defined so far). JSX in an attribute's value is JavaScript, never a block
    /// of the page: nothing there is removed.
    fn unknown_component(&self, tag: &Tag) -> bool {
        !self.in_attribute && tag.unknown_component(&self.defined)
    }

    /// The file `spec` names, its text and body offset, or `None` with a warning.
    fn load(&mut self, spec: &str, from_dir: &Path) -> Option<(PathBuf, String, usize, PathBuf)> {
        if self.capped {
            return None;
        }
        let spec = spec.trim();
        let root = &self.policy.site.root;
        // Relative to the including file as resolved (where it is read from) and as written
        // (where globs see it): a snippet reached through a linked folder is judged by both.
        let (base, written_base) = if let Some(rest) = spec.strip_prefix('/') {
            (root.join(rest), root.join(rest))
        } else {
            let written_dir = self.written_dirs.last().map_or(from_dir, PathBuf::as_path);
            (from_dir.join(spec), written_dir.join(spec))
        };
        let candidates = [
            (base.clone(), written_base.clone()),
            (
                base.with_extension("mdx"),
                written_base.with_extension("mdx"),
            ),
            (base.with_extension("md"), written_base.with_extension("md")),
        ];
        let mut found = None;
        for (c, w) in candidates {
            match self.policy.site.resolve(&c) {
                Ok(f) => {
                    let written: Vec<String> = [&c, &w]
                        .iter()
                        .filter_map(|p| self.policy.site.written_rel(p))
                        .collect();
                    found = Some((written, f));
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
        let Some((written, file)) = found else {
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
        // Every read counts against the page's budget, withheld or cyclic ones too: a thousand
        // references to a large withheld file cost one budget, not a thousand reads each.
        if !self.admit(src.len()) {
            return None;
        }
        let hash = blake3::hash(src.as_bytes()).to_hex().to_string();
        if let Err(pos) = self.includes.binary_search_by(|(r, _)| r.cmp(&file.rel)) {
            self.includes.insert(pos, (file.rel.clone(), hash));
        }
        let (declared, body_start) = match split_frontmatter(&src) {
            Ok((fm, body, _)) => {
                let bound = fm
                    .openapi
                    .as_deref()
                    .map_or(Declared::Absent, |r| self.bound(r));
                (fm.visibility.combine(bound), src.len() - body.len())
            }
            Err(e) => (
                Declared::Unreadable(format!("its frontmatter does not parse ({})", e.message)),
                0,
            ),
        };
        // Globs on the path as written and as resolved: a symlink either way is covered.
        let globbed = self.policy.rules.for_paths(
            written
                .iter()
                .map(String::as_str)
                .chain([file.rel.as_str()]),
        );
        let written_dir = written
            .last()
            .map(|w| root.join(w))
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| file.path.parent().unwrap_or(root).to_path_buf());
        let declared = declared.combine(globbed);
        let v = declared.visibility();
        if !allowed(v, self.policy.audience) {
            // Recorded as withheld: a build can tell a withdrawal from an edit (see
            // `WITHHELD_PREFIX`), and the page is still re-parsed when the file changes.
            if let Ok(pos) = self.includes.binary_search_by(|(r, _)| r.cmp(&file.rel)) {
                let h = &mut self.includes[pos].1;
                if !h.starts_with(WITHHELD_PREFIX) {
                    *h = format!("{WITHHELD_PREFIX}{h}");
                }
            }
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
        // The snippet's text as Mintlify reads it (its frontmatter, read above for its
        // visibility, is no text a reader sees).
        let src = match raw_text(&src[body_start..], self.policy.variables, false) {
            std::borrow::Cow::Borrowed(_) => src,
            std::borrow::Cow::Owned(body) => format!("{}{body}", &src[..body_start]),
        };
        Some((file.path, src, body_start, written_dir))
    }

    /// What an include's `openapi:` frontmatter brings: the bound operation's declarations, or
    /// unreadable when it binds nothing we can judge.
    fn bound(&self, reference: &str) -> Declared {
        match OperationRef::parse(reference) {
            Some(r) => match self.policy.operations.find(&r) {
                Some((_, op)) if op.excluded => Declared::Unreadable(format!(
                    "its `openapi: {reference}` binds an operation its spec marks `x-excluded`"
                )),
                Some(_) => self.policy.operations.declared_for(&r),
                None => Declared::Unreadable(format!(
                    "its `openapi: {reference}` binds no operation of a loaded spec"
                )),
            },
            None => Declared::Unreadable(format!(
                "its `openapi: {reference}` is not `[spec] METHOD /path`"
            )),
        }
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

/// How a page's source is read: `.mdx` with MDX's grammar (ESM, JSX, expressions), `.md` as
/// CommonMark, where `<` and `{` are text (`attempts<max`, `GET /users/{id}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Mdx,
    Markdown,
}

impl Dialect {
    /// The dialect of a site-relative file name: `.md` (and `.markdown`) are Markdown, anything
    /// else MDX.
    pub fn of(rel: &str) -> Dialect {
        let lower = rel.to_ascii_lowercase();
        if lower.ends_with(".md") || lower.ends_with(".markdown") {
            Dialect::Markdown
        } else {
            Dialect::Mdx
        }
    }
}

/// Markdown whose braces are text when MDX reads it: every `{` outside code, fences and tags is
/// escaped (`\{owner}` is `{owner}` to MDX), except where it opens a comment (`{/* … */}` or
/// `{// …`, across lines too), which MDX drops. What a spec's description shows when it is read as
/// MDX but its placeholders (`/repos/{owner}`) are the text it means. A tag is skipped as MDX
/// reads it (quotes and braces in it, over lines), so its expressions stay expressions.
pub fn braces_as_text(markdown: &str) -> String {
    /// The longest tag a description is searched for.
    const MAX_SPEC_TAG: usize = 2 << 10;
    let b = markdown.as_bytes();
    let mut out = String::with_capacity(markdown.len() + 16);
    let mut fence: Option<&str> = None;
    let mut i = 0;
    let mut line_start = true;
    let mut runs: Option<BacktickRuns> = None;
    while i < b.len() {
        if line_start {
            let end = markdown[i..].find('\n').map_or(b.len(), |p| i + p + 1);
            let trimmed = markdown[i..end].trim_start();
            let opener = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
            match (fence, opener) {
                (Some(f), Some(o)) if f == o => fence = None,
                (None, Some(o)) => fence = Some(o),
                _ => {}
            }
            if fence.is_some() || opener.is_some() {
                out.push_str(&markdown[i..end]);
                i = end;
                continue;
            }
            line_start = false;
        }
        let c = markdown[i..].chars().next().map_or('\0', |c| c);
        let len = match c {
            '\n' => {
                line_start = true;
                1
            }
            // An escape: the backslash and the character it escapes, whole.
            '\\' => 1 + markdown[i + 1..].chars().next().map_or(0, char::len_utf8),
            // A code span, closed as the converter closes it (a run of the same length in its
            // paragraph), found in linear time.
            '`' => blocks::span_end(markdown, i, b'`', &mut runs) - i,
            // A tag, read as MDX ends it, within a bounded length (a longer one is text): each
            // `<` costs at most that much, however the text is written.
            '<' if b
                .get(i + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'/') =>
            {
                let window = &b[..(i + MAX_SPEC_TAG).min(b.len())];
                tag::tag_end(window, i).map_or(1, |end| end - i)
            }
            '{' => {
                let rest = markdown[i + 1..].trim_start();
                if !(rest.starts_with("/*") || rest.starts_with("//")) {
                    out.push('\\');
                }
                1
            }
            c => c.len_utf8(),
        };
        let end = (i + len).min(b.len());
        if markdown[i..end].contains('\n') {
            line_start = markdown[i..end].ends_with('\n');
        }
        out.push_str(&markdown[i..end]);
        i = end;
    }
    out
}

/// A page's or snippet's text as written, made the text the converter reads: docs.json's
/// variables replaced (in a page, not in its import statements: Mintlify resolves those first), and the characters of a custom heading id's marker (which no page shows)
/// removed, so that every marker the chunker finds is one the converter wrote.
pub fn raw_text<'t>(
    text: &'t str,
    vars: &variables::Variables,
    page: bool,
) -> std::borrow::Cow<'t, str> {
    let replaced = if page {
        variables::replace_outside_imports(text, vars)
    } else {
        variables::replace(text, vars)
    };
    if replaced.contains(crate::heading_id::MARKS) {
        std::borrow::Cow::Owned(replaced.replace(crate::heading_id::MARKS, ""))
    } else {
        replaced
    }
}

/// Converts an MDX body to Markdown. `from_dir` resolves relative snippet imports.
pub fn mdx_to_markdown(body: &str, from_dir: &Path, snippets: &mut SnippetResolver<'_>) -> String {
    to_markdown(body, Dialect::Mdx, from_dir, snippets)
}

/// Converts a page body of either dialect to the Markdown the chunker reads.
pub fn to_markdown(
    body: &str,
    dialect: Dialect,
    from_dir: &Path,
    snippets: &mut SnippetResolver<'_>,
) -> String {
    let mut seen = HashSet::new();
    convert(body, dialect, from_dir, snippets, &mut seen, 0)
}

fn convert(
    body: &str,
    dialect: Dialect,
    from_dir: &Path,
    snippets: &mut SnippetResolver<'_>,
    seen: &mut HashSet<PathBuf>,
    depth: usize,
) -> String {
    let mdx = dialect == Dialect::Mdx;
    // Pass 1: code fences found (their text is kept verbatim and their byte ranges in `kept`
    // protected from pass 2) and, in MDX, ESM blocks removed, snippet imports collected.
    let mut imports: BTreeMap<String, String> = BTreeMap::new();
    let mut kept = String::with_capacity(body.len());
    let mut fenced: Vec<(usize, usize)> = Vec::new();
    // (char, length, indent, start in kept, the content indent of the list item it sits in)
    let mut fence: Option<(u8, usize, usize, usize, Option<usize>)> = None;
    let lines: Vec<&str> = body.split_inclusive('\n').collect();
    let mut k = 0;
    let mut esm_broken = false;
    let mut budget = js_parse::ParseBudget::for_page(body.len());
    // The content indents of the list items the last lines belong to, outermost first.
    let mut items: Vec<usize> = Vec::new();
    // Whether the line before was inside a fence (its content or its closer).
    let mut in_code = false;
    while k < lines.len() {
        let line = lines[k];
        k += 1;
        // Indentation is spaces and tabs only: a line that starts with a no-break space is text,
        // and a line of no-break spaces is no blank line.
        let trimmed = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - trimmed.len();
        let blank = is_blank(trimmed);
        // The line before was code, or a fence: nothing this line could continue lazily.
        let after_code = std::mem::replace(&mut in_code, fence.is_some());
        if let Some((ch, len, fence_indent, start, item)) = fence {
            let in_item = item.is_some();
            // A fence in a list item ends with the item: at a line indented less than its content.
            if item.is_some_and(|i| !blank && columns(line) < i) {
                fenced.push((start, kept.len()));
                fence = None;
            } else {
                // A list item's code keeps its indentation, so Markdown keeps it in the item.
                kept.push_str(if in_item {
                    line
                } else {
                    strip_indent(line, fence_indent)
                });
                let t = trimmed.trim_end();
                // In Markdown a closer indented four columns or more past its container (the
                // margin, or its list item's content; a tab is four) is code.
                let closer_indent = columns(line).saturating_sub(item.unwrap_or(0));
                if t.len() >= len && t.bytes().all(|c| c == ch) && (mdx || closer_indent < 4) {
                    fenced.push((start, kept.len()));
                    fence = None;
                }
                continue;
            }
        }
        // The line before continues a paragraph here unless this line starts a block of its own.
        let lazy =
            !after_code && k >= 2 && is_paragraph_text(lines[k - 2]) && !starts_block(trimmed);
        // An ordered item not numbered 1, or an empty item, cannot interrupt a paragraph.
        let item_here = list_item(trimmed).filter(|&(_, rest)| {
            !(lazy && items.is_empty() && (rest.is_empty() || !starts_list_at_one(trimmed)))
        });
        // A line indented less than an item's content ends that item (and the items in it),
        // unless it continues the item's paragraph.
        let continues = lazy && item_here.is_none();
        if !(blank || continues) {
            while items.last().is_some_and(|&i| columns(line) < i) {
                items.pop();
            }
        }
        let item_indent = items.last().copied();
        // In Markdown a fence indented four columns or more (past its list item's content) is
        // indented code, or a paragraph's continuation: never a fence that hides what follows
        // (`    ```` then `<!-- … -->` shows no comment to readers, and hides nothing).
        let opener = fence_open(trimmed)
            .filter(|_| mdx || columns(line).saturating_sub(item_indent.unwrap_or(0)) < 4);
        if let Some((ch, len)) = opener {
            // Indented under a list item, the fence belongs to the item and ends with it.
            let item = item_indent.filter(|&i| indent > 0 && columns(line) >= i);
            fence = Some((ch, len, indent, kept.len(), item));
            kept.push_str(if item.is_some() {
                line
            } else {
                &line[indent..]
            });
            continue;
        }
        if !blank {
            match item_here {
                Some((marker, _)) => items.push(columns(&line[..indent]) + marker),
                None if indent == 0 && !lazy => items.clear(),
                None => {}
            }
        }
        // A fence opening a list item (`- ```js`, `1. ~~~`): its content is indented to the item.
        if let Some((marker, rest)) = item_here {
            if let Some((ch, len)) = fence_open(rest) {
                kept.push_str(&line[..indent + marker]);
                fence = Some((ch, len, indent + marker, kept.len(), Some(indent + marker)));
                kept.push_str(rest);
                continue;
            }
        }
        // ESM cannot interrupt a paragraph: an `import` line that continues one is its text (as
        // MDX reads it; Mintlify renders no snippet for it).
        // (A thematic break or a setext underline before it ends the paragraph: no continuation.)
        let after_break = k >= 2 && is_thematic_break(lines[k - 2]);
        if mdx
            && indent == 0
            && (!lazy || after_break)
            && (trimmed.starts_with("import ") || trimmed.starts_with("export "))
        {
            // After one block that never closes, the rest end at their first blank line: one scan
            // to the end of the page, not one per block.
            let first: String = trimmed.chars().take(40).collect();
            let first = first.trim_end();
            let end = if esm_broken {
                esm_first_blank(&lines, k - 1)
            } else {
                match esm_block_end(&lines, k - 1, &mut budget) {
                    Ok(js::EsmEnd { end, refused }) => {
                        if let Some(why) = refused.filter(|_| snippets.unparseable.is_none()) {
                            snippets.unparseable = Some(format!("the ESM block `{first}`: {why}"));
                        }
                        end
                    }
                    Err(end) => {
                        if snippets.unparseable.is_none() {
                            snippets.unparseable = Some(format!(
                                "the ESM block `{first}` never closes (an open bracket, string or template)"
                            ));
                        }
                        esm_broken = true;
                        end
                    }
                }
            };
            let block = lines[k - 1..end].concat();
            // Only Markdown imports are content snippets; `.jsx`/`.js` imports are components,
            // whose tags are reduced like any other component.
            snippets.defined.extend(block_exports(&block));
            for (names, spec) in block_imports(&block) {
                snippets.defined.extend(names.iter().cloned());
                if spec.ends_with(".mdx") || spec.ends_with(".md") {
                    for n in names {
                        imports.insert(n, spec.clone());
                    }
                }
            }
            k = end;
            continue;
        }
        // `## Title {#custom-id}` (either dialect, as Mintlify reads it before parsing): the id
        // travels to the chunker in a marker, the braces never reach the expression reader.
        if indent < 4 {
            let ending = line.len() - line.trim_end_matches(['\n', '\r']).len();
            if let Some(marked) = crate::heading_id::mark_custom_id(&line[..line.len() - ending]) {
                kept.push_str(&marked);
                kept.push_str(&line[line.len() - ending..]);
                continue;
            }
        }
        // MDX has no indented code blocks: dedent so Markdown does not invent them.
        if mdx && indent >= 4 {
            kept.push_str(trimmed);
        } else {
            kept.push_str(line);
        }
    }
    // A fence open at the end of its file ends there (Mintlify parses a snippet apart from the
    // page it goes into): the closing line pass 2 writes after it, if it copies it as a fence.
    let mut unclosed: Option<(usize, String)> = None;
    if let Some((ch, len, _, start, item)) = fence {
        fenced.push((start, kept.len()));
        let closer = " ".repeat(item.unwrap_or(0)) + &(ch as char).to_string().repeat(len);
        unclosed = Some((start, closer));
    }

    // Pass 2: JSX tags and expressions (MDX), HTML comments (both), outside code.
    let mut out = String::with_capacity(kept.len());
    let bytes = kept.as_bytes();
    let mut i = 0;
    let mut next_fence = 0;
    let mut runs: Option<BacktickRuns> = None;
    let mut math_runs: Option<BacktickRuns> = None;
    let (mut broken_expression, mut broken_tag) = (false, false);
    let (value, spread) = (
        js_parse::ExpressionKind::Value,
        js_parse::ExpressionKind::Spread,
    );
    let mut quote_memo = QuoteMemo::default();

    // An element whose content the page never shows (`<Visibility for="agents">`, `<div hidden>`).
    // Its content is read as any other (so a fence or comment in it ends where it would) and cut
    // when it closes.
    let mut withheld: Option<Withheld> = None;
    // Accordions, updates and steps: which headings the page links to, and which ids they take.
    let mut outline = Outline::default();
    // The line of `kept` last asked about, and whether it holds tags and expressions alone.
    let mut flow_memo = FlowMemo::default();
    let mut out_line = OutLine::default();
    // Where the closing tags of each element name opened are (`</br`), found once per name; and
    // the paragraph last bounded (its start and end), found once per paragraph.
    let mut closers: Option<HashMap<String, Vec<usize>>> = None;
    let mut paragraph: Option<(usize, usize)> = None;
    // Past an attribute expression that never closes, tags are no longer checked.
    let mut tags_unchecked = false;
    let mut definition_memo = DefinitionMemo::default();
    while i < bytes.len() {
        if let Some(&(start, end)) = fenced.get(next_fence) {
            if i >= start {
                next_fence += 1;
                // A comment, expression, tag or script that ran over the fence's first line hid
                // it: what pass 1 took for a fence is read as text, not copied.
                if i == start {
                    out.push_str(&kept[start..end]);
                    if let Some((_, closer)) = unclosed.as_ref().filter(|(s, _)| *s == start) {
                        if !out.ends_with('\n') {
                            out.push('\n');
                        }
                        out.push_str(closer);
                        out.push('\n');
                    }
                    i = end;
                }
                continue;
            }
        }
        let c = bytes[i];
        // Script and style elements: their text is never shown.
        if let Some(len) = (c == b'<').then(|| raw_text_len(&kept[i..])).flatten() {
            i += len;
            out.push('\n');
            continue;
        }
        // A link reference definition's destination and title are text (`[r]: <https://…>`).
        if mdx && c == b'<' && in_link_definition(&kept, i, &mut definition_memo) {
            out.push('<');
            i += 1;
            continue;
        }
        // A tag MDX's tokenizer throws at: Mintlify's parser refuses the file (the first reason
        // is kept; from there no tag is checked, so the page is read in linear time). JSX inside
        // an attribute's expression is JavaScript's: acorn reads it, not MDX.
        if mdx
            && c == b'<'
            && snippets.unparseable.is_none()
            && !snippets.in_attribute
            && !tags_unchecked
            && !kept[i..].starts_with("<!--")
        {
            let text = !flow_line(&kept, i, &mut flow_memo) && !alone_after_markers(&kept, i);
            match tag::jsx_tag_check(&kept[i..], text, &mut budget) {
                TagCheck::Throws(why) => snippets.unparseable = Some(why),
                // A fence inside a block quote is not found here: its code (`a={}` in a JSX
                // sample) would read as a tag. Only outside block quotes is it refused.
                TagCheck::BadExpression(why) if !quote_memo.in_block_quote(&kept, i) => {
                    snippets.unparseable = Some(why)
                }
                // An element opened in running text closes in its paragraph (a heading, a table
                // cell: MDX checks it where the phrasing ends; the next blank line bounds that
                // here, which only ever finds more closers); a void element written open on a
                // line of its own closes somewhere after (MDX has no void elements).
                // A fragment in a block quote is not checked: a fence inside a block quote is not
                // found here, and code such as `new ArrayList<>()` or SQL's `a <> b` would read
                // as one.
                TagCheck::Fine { ref name, .. }
                    if name.is_empty() && quote_memo.in_block_quote(&kept, i) => {}
                TagCheck::Fine {
                    name,
                    opens: true,
                    end,
                } if text || tag::VOID_ELEMENTS.contains(&name.to_ascii_lowercase().as_str()) => {
                    let bound = if text {
                        if paragraph.is_none_or(|(start, stop)| i < start || i >= stop) {
                            paragraph = Some((i, paragraph_end(&kept, i)));
                        }
                        paragraph.map_or(kept.len(), |(_, stop)| stop)
                    } else {
                        kept.len()
                    };
                    let closers = closers.get_or_insert_with(|| tag::closing_tags(&kept));
                    let positions = closers.get(&name).map_or(&[][..], Vec::as_slice);
                    let next = positions.get(positions.partition_point(|&p| p < i + end));
                    if next.is_none_or(|&p| p >= bound) {
                        let void = tag::VOID_ELEMENTS.contains(&name.to_ascii_lowercase().as_str());
                        snippets.unparseable = Some(format!(
                            "`<{name}>` opens an element that never closes{}{}",
                            if text { " in its paragraph" } else { "" },
                            if void {
                                format!(" (MDX has no void elements: write `<{name} />`)")
                            } else {
                                String::new()
                            }
                        ));
                    }
                }
                TagCheck::OpenExpression => tags_unchecked = true,
                TagCheck::Text
                | TagCheck::Fine { .. }
                | TagCheck::Unsure
                | TagCheck::BadExpression(_) => {}
            }
        }
        match c {
            // A backslash escape: the next character is text (`` \` `` opens no code, `\{` no
            // expression, `\<` no tag); Markdown reads the pair the same way.
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                out.push_str(&kept[i..i + 2]);
                i += 2;
            }
            // Inline code, copied verbatim up to the closing run of the same length (over lines,
            // never past its paragraph); inline math (`$…$`, `$$…$$`: Mintlify parses with
            // `remark-math`) read as a code span is: no tag, comment or expression opens in
            // either (`$a<b$`), and their text is kept.
            b'`' | b'$' => {
                let runs = if c == b'`' { &mut runs } else { &mut math_runs };
                let end = blocks::span_end(&kept, i, c, runs);
                out.push_str(&kept[i..end]);
                i = end;
            }
            // A link's destination and title are the link's: no tag, comment or expression opens
            // in them (`[docs](/search?q=a<b)`).
            b']' => {
                let len = 1 + link_resource_len(&kept[i + 1..]).unwrap_or(0);
                out.push_str(&kept[i..i + len]);
                i += len;
            }
            // An HTML comment, of any length: readers never see it (an unclosed one runs to the end).
            // MDX has no HTML comments, in `.mdx` or `.md`: Mintlify's parser refuses the file.
            b'<' if kept[i..].starts_with("<!--") => {
                // Read as MDX (a `.md` file's probe too: see `mdx_refuses`).
                if mdx && snippets.unparseable.is_none() {
                    let shown: String = kept[i..].chars().take(40).collect();
                    let shown = shown.lines().next().unwrap_or_default();
                    snippets.unparseable = Some(format!(
                        "an HTML comment, `{shown}`: MDX has none, write `{{/* … */}}`"
                    ));
                }
                i = kept[i + 4..]
                    .find("-->")
                    .map_or(kept.len(), |p| i + 4 + p + 3);
                out.push('\n');
            }
            b'{' if mdx && !broken_expression => {
                let scanned = skip_balanced(bytes, i);
                // Its JavaScript parses, or Mintlify's parser refuses the page (one of comments
                // alone is none), where it ends as MDX ends it (`js_parse::expression_end`: the
                // scanner misreads JSX text such as `<a>don't</a>`). Not checked in a block quote,
                // whose fences are not found; nor in a link definition's title or a URL
                // (`https://x.com/{id}`), which are text to MDX.
                let checked = snippets.unparseable.is_none()
                    && !quote_memo.in_block_quote(&kept, i)
                    && !in_link_definition(&kept, i, &mut definition_memo)
                    && !in_url(&kept, i);
                // (The scanner's scan ran to the page's end: past the page's rereads, MDX's
                // reading is not looked for either, and from here `{` is text.)
                let checked = checked && (scanned.is_some() || budget.reread());
                let from = &kept[i + 1..];
                let inner = scanned.map(|end| end - 1 - (i + 1));
                let empty = inner.is_some_and(|n| js_parse::only_comments(&from[..n]));
                let end =
                    match checked && !empty {
                        false => scanned,
                        // (A tag whose end was not found leaves its spread here: read as one too.)
                        true => match js_parse::expression_end(from, inner, value, &mut budget)
                            .or_else(|why| {
                                js_parse::expression_end(from, inner, spread, &mut budget)
                                    .map_err(|_| why)
                            }) {
                            Ok(len) => Some(i + 1 + len + 1),
                            Err(why) => {
                                let shown: String = kept[i..].chars().take(40).collect();
                                let shown = shown.lines().next().unwrap_or_default();
                                snippets.unparseable = Some(format!("`{shown}`: {why}"));
                                scanned
                            }
                        },
                    };
                match end {
                    Some(end) => {
                        i = end;
                        keep_apart(&mut out, &kept[i..]);
                    }
                    // Never closes: from here `{` is text (one scan to the end, not one per brace).
                    None => {
                        broken_expression = true;
                        out.push('{');
                        i += 1;
                    }
                }
            }
            b'<' if mdx
                && !broken_tag
                && bytes
                    .get(i + 1)
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'/' || *b == b'>') =>
            {
                let Some(end) = tag_end(bytes, i) else {
                    snippets.warn(
                        "a tag `<` never closes (not valid MDX); the rest of the page is indexed as text".into(),
                    );
                    broken_tag = true;
                    out.push('<');
                    i += 1;
                    continue;
                };
                let tag = parse_tag(&kept[i..end]);
                let flow = flow_line(&kept, i, &mut flow_memo);
                i = end;
                let unknown = flow && snippets.unknown_component(&tag);
                warn_unknown(&tag, unknown, &withheld, snippets);
                if unknown && tag.self_closing {
                    // Removed whole: no attribute of it is shown.
                    keep_apart(&mut out, &kept[i..]);
                    continue;
                }
                let hidden =
                    withhold_tag(&tag, flow, unknown, &mut withheld, &mut out, &mut out_line);
                if !hidden {
                    let in_heading = out_line.is_heading(&out);
                    // A flow element (its line holds tags and expressions alone, after a block
                    // quote's or list item's markers) is a block; one inside a paragraph or a
                    // heading is inline.
                    let flow = flow && !in_heading;
                    let heading = flow
                        .then(|| {
                            outline.component_heading(&tag, &mut |expr| {
                                attribute_jsx_text(expr, from_dir, snippets, seen, depth)
                            })
                        })
                        .flatten();
                    let place = TagPlace { in_heading, flow };
                    let shown = convert_tag(
                        &tag, heading, place, &imports, from_dir, snippets, seen, depth, &mut out,
                    );
                    if shown {
                        outline.tag(&tag, out.len(), flow);
                    }
                }
                keep_apart(&mut out, &kept[i..]);
            }
            // Markdown: an HTML tag stays text as written, but what a hidden element wraps is
            // no more shown than in MDX (HTML names read without regard to case).
            b'<' if !mdx => match html_tag_len(&kept[i..]) {
                Some(len) => {
                    let tag = parse_tag(&kept[i..i + len]);
                    let flow = flow_line(&kept, i, &mut flow_memo);
                    let unknown = flow && !tag.self_closing && snippets.unknown_component(&tag);
                    warn_unknown(&tag, unknown, &withheld, snippets);
                    let tag = tag.read_as_html();
                    let hidden =
                        withhold_tag(&tag, flow, unknown, &mut withheld, &mut out, &mut out_line);
                    if !hidden {
                        out.push_str(&kept[i..i + len]);
                        i += len;
                    } else {
                        i += len;
                        keep_apart(&mut out, &kept[i..]);
                    }
                }
                None => {
                    out.push('<');
                    i += 1;
                }
            },
            _ => {
                let ch_len = utf8_len(c);
                out.push_str(&kept[i..i + ch_len]);
                i += ch_len;
            }
        }
    }
    if let Some(w) = withheld {
        // Not valid MDX (the page would not build): what follows the hidden element's tag stays out.
        snippets.warn(format!(
            "`<{}>` hides its content and never closes (not valid MDX); the rest of the page is not indexed",
            w.name
        ));
        let cut = out.split_off(w.mark);
        if w.flow {
            out.push_str(&outline::hidden_headings(&cut, w.name != "Visibility"));
        }
    }
    outline.finish(&mut out);
    out
}

/// A hidden element being cut: where it sits and what it holds besides text.
struct Withheld {
    name: String,
    /// How many elements of its name are open inside it, itself included.
    open: usize,
    /// Where its text began in `out`.
    mark: usize,
    /// A block of its own (its headings are counted), not inside a paragraph or heading.
    flow: bool,
    /// A `<Visibility>` inside it: Mintlify's ids spell none of its text, which the cut holds with
    /// the rest.
    visibility_inside: bool,
}

/// A warning for a block Mintlify removes as an unknown component (not inside one being cut).
fn warn_unknown(
    tag: &Tag,
    unknown: bool,
    withheld: &Option<Withheld>,
    snippets: &mut SnippetResolver<'_>,
) {
    if unknown && withheld.is_none() {
        snippets.warn(format!(
            "`<{}>` is no Mintlify component and the page neither imports nor exports it: Mintlify removes it with its content, which is not indexed",
            tag.name
        ));
    }
}

/// Follows elements whose content the page never shows: a tag inside one (`withheld`) counts its
/// nesting, and the closer cuts its text from `out`; outside one, a tag that hides its content
/// (or an `unknown` component, which Mintlify removes) opens one. Returns whether the tag was
/// taken here (`false`: the caller shows it).
fn withhold_tag(
    tag: &Tag,
    flow: bool,
    unknown: bool,
    withheld: &mut Option<Withheld>,
    out: &mut String,
    out_line: &mut OutLine,
) -> bool {
    let Some(w) = withheld else {
        if !unknown && tag.hidden_content().is_none() {
            return false;
        }
        *withheld = Some(Withheld {
            name: tag.name.clone(),
            open: 1,
            mark: out.len(),
            flow,
            visibility_inside: false,
        });
        return true;
    };
    if tag.name == "Visibility" {
        w.visibility_inside = true;
    }
    if tag.name == w.name && !tag.self_closing {
        if !tag.closing {
            w.open += 1;
        } else if w.open > 1 {
            w.open -= 1;
        } else {
            // What Mintlify still counts of a block it hides: its headings (later ids take `-2`s
            // for them). An inline element holds no heading, whatever its text looks like.
            let cut = out.split_off(w.mark);
            out_line.cut_to(w.mark);
            if w.flow {
                out.push_str(&outline::hidden_headings(&cut, w.name != "Visibility"));
            } else if w.name != "Visibility" && !w.visibility_inside && out_line.is_heading(out) {
                // Inside a heading, Mintlify's id spells what a hidden element holds (but not a
                // `<Visibility>`'s text): its text rides in a marker for the id alone. One with a
                // `<Visibility>` inside is left out whole (its text is not told apart here): the
                // id may then lack the rest, but holds no word the page hides from humans.
                out.push_str(&crate::heading_id::mark_hidden_inline(&hidden_inline_text(
                    &cut,
                )));
            }
            // A block leaves a line break; an inline element (`<span hidden>` in a heading), or
            // any element inside a heading (`## A <Visibility for="agents">x</Visibility> b`),
            // leaves its line whole.
            if is_block_tag(&w.name) && !out_line.is_heading(out) {
                out.push('\n');
            }
            *withheld = None;
        }
    }
    true
}

/// The text a hidden inline element's content (`cut`, as converted) gives a heading's id, as
/// Mintlify's `getTableOfContentsTitle` reads it: text and code, a link's text, no image (its alt
/// and source are attributes), no raw HTML; a space at either end where the content has one (it
/// parts the heading's words in the id).
fn hidden_inline_text(cut: &str) -> String {
    const LEAD: &str = "t ";
    let source = format!("{LEAD}{}", cut.replace('\n', " "));
    let mut text = String::new();
    let mut in_image = 0usize;
    for event in
        pulldown_cmark::Parser::new_ext(&source, pulldown_cmark::Options::ENABLE_STRIKETHROUGH)
    {
        match event {
            pulldown_cmark::Event::Start(pulldown_cmark::Tag::Image { .. }) => in_image += 1,
            pulldown_cmark::Event::End(pulldown_cmark::TagEnd::Image) => {
                in_image = in_image.saturating_sub(1)
            }
            pulldown_cmark::Event::Text(t) | pulldown_cmark::Event::Code(t) if in_image == 0 => {
                text.push_str(&t)
            }
            pulldown_cmark::Event::SoftBreak | pulldown_cmark::Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    let text = crate::heading_id::strip_marker(text.strip_prefix(LEAD).unwrap_or_default());
    let text = text.trim();
    let space = |edge: Option<char>| match edge.is_some_and(char::is_whitespace) {
        true => " ",
        false => "",
    };
    if text.is_empty() {
        return space(cut.chars().next()).to_owned();
    }
    format!(
        "{}{text}{}",
        space(cut.chars().next()),
        space(cut.chars().next_back())
    )
}

/// What [`flow_line`] last read: the line (or lines, where a tag or an expression runs over
/// several) and its answer, and from where a bracket or tag never closes (then no later line
/// scans to the end for one).
#[derive(Default)]
struct FlowMemo {
    range: Range<usize>,
    flow: bool,
    broken_from: Option<usize>,
}

/// Whether the line of `kept` around `at` holds JSX tags and expressions alone (after a block
/// quote's `>`s and a list item's marker): MDX reads its elements as flow (block) elements, any
/// other's as inline ones. Each line is read once (`memo`).
fn flow_line(kept: &str, at: usize, memo: &mut FlowMemo) -> bool {
    if memo.range.contains(&at) {
        return memo.flow;
    }
    let start = kept[..at].rfind('\n').map_or(0, |p| p + 1);
    let b = kept.as_bytes();
    let mut i = start;
    // The margin: indentation and `>`s, then a list item's marker and its spaces.
    while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'>')) {
        i += 1;
    }
    let digits = b[i..]
        .iter()
        .take(10)
        .take_while(|c| c.is_ascii_digit())
        .count();
    let marker = match b.get(i) {
        Some(b'-' | b'*' | b'+') => 1,
        _ if (1..=9).contains(&digits) && matches!(b.get(i + digits), Some(b'.' | b')')) => {
            digits + 1
        }
        _ => 0,
    };
    if marker > 0 && matches!(b.get(i + marker), Some(b' ' | b'\t')) {
        i += marker;
        while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\t')) {
            i += 1;
        }
    }
    let line_end = |from: usize| kept[from..].find('\n').map_or(kept.len(), |p| from + p);
    let mut flow = true;
    let mut end = line_end(i);
    while i < end {
        let closed = match b[i] {
            b' ' | b'\t' | b'\r' => Some(i + 1),
            // Past where one never closed, one closes on its line or not at all.
            b'<' | b'{' if memo.broken_from.is_some_and(|from| i >= from) => {
                let close = if b[i] == b'<' { b'>' } else { b'}' };
                kept[i..end]
                    .bytes()
                    .position(|c| c == close)
                    .map(|p| i + p + 1)
            }
            b'<' => tag_end(b, i),
            b'{' => skip_balanced(b, i),
            _ => None,
        };
        match closed {
            Some(next) => {
                i = next;
                // A tag or an expression that ran over lines: the line goes on where it ended.
                if i > end {
                    end = line_end(i);
                }
            }
            None => {
                // (A `<` before white space or a digit is text, not a tag that never closed.)
                let next = b.get(i + 1).copied().unwrap_or(b' ');
                let opens = b[i] == b'{'
                    || b[i] == b'<'
                        && (next.is_ascii_alphabetic() || b"/>_$".contains(&next) || next >= 0x80);
                if opens && memo.broken_from.is_none() {
                    memo.broken_from = Some(i);
                }
                flow = false;
                break;
            }
        }
    }
    memo.range = start..end.max(at + 1);
    memo.flow = flow;
    flow
}

/// Whether `at` is inside a URL written as text (`https://x.com/{id}`, `www.x.com/{id}`: GFM's
/// autolink literals take it).
fn in_url(kept: &str, at: usize) -> bool {
    // Back at most 2 KB (a line of no spaces is not read again for each of its braces).
    let mut from = at.saturating_sub(2048);
    while !kept.is_char_boundary(from) {
        from += 1;
    }
    let word_start = from
        + kept[from..at]
            .rfind(|c: char| c.is_whitespace() || c == '(' || c == '<')
            .map_or(0, |p| p + 1);
    let word = &kept[word_start..at];
    word.contains("://") || word.starts_with("www.")
}

/// Where the paragraph around `at` ends, for an element opened in it: at a blank line, or at a
/// later line of JSX tags alone (after its block quote and list markers), which MDX reads as flow
/// and which interrupts the paragraph (`Text <b>x` then `</b>` on a line of its own leaves `<b>`
/// open: "Expected a closing tag … before the end of `paragraph`"). Other blocks that interrupt a
/// paragraph are not looked for: the bound only ever finds more closers than MDX.
fn paragraph_end(kept: &str, at: usize) -> usize {
    // Line by line from the one after `at`'s, only as far as the end found (a paragraph of many
    // such ends is not read to its blank line again from each of its elements).
    let mut memo = FlowMemo::default();
    let Some(mut line) = kept[at..].find('\n').map(|p| at + p + 1) else {
        return kept.len();
    };
    while line < kept.len() {
        let text = &kept[line..];
        let text = &text[..text.find('\n').unwrap_or(text.len())];
        if text.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            return line - 1;
        }
        let tag = line + text.len() - after_markers(text).len();
        if (kept[tag..].starts_with('<') && !kept[tag..].starts_with("<!--")
            || kept[tag..].starts_with('{'))
            && flow_line(kept, tag, &mut memo)
        {
            return line;
        }
        line += text.len() + 1;
    }
    kept.len()
}

/// After something removed (a tag, an expression, a hidden element), what follows must not join
/// what came before into Markdown the page does not have: backtick or tilde runs the removed
/// element kept apart stay apart (```` `` ```` and `` `js ``: a space), and a line the element
/// began stays the paragraph MDX reads (text after an element at a line's start is never a
/// block's start): not a fence or a heading (`<code>```js</code>`, `{/* c */} # x`), a setext
/// underline or thematic break (`{/* c */}---` under a paragraph would make it a heading, with an
/// anchor the page lacks), a list item, a quote, or code indented by the spaces between removed
/// elements (`<Icon/> <Icon/> <Icon/> <Icon/> x`): an empty marker, which no reading shows, goes
/// before it. `rest` is what follows.
fn keep_apart(out: &mut String, rest: &str) {
    let Some(&next) = rest.as_bytes().first() else {
        return;
    };
    if matches!(next, b'`' | b'~') && out.as_bytes().last() == Some(&next) {
        out.push(' ');
        return;
    }
    if !at_margin(out) {
        return;
    }
    // The line's first characters only (a fence opens with three, a heading with up to seven).
    let b = rest.as_bytes();
    let lead = b
        .iter()
        .take(16)
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    let text = &b[lead..b.len().min(lead + 16)];
    let run = |c: u8| text.iter().take_while(|&&b| b == c).count();
    let hashes = run(b'#');
    let digits = text.iter().take_while(|c| c.is_ascii_digit()).count();
    // The spaces before the line's text: the margin's trailing ones, the removed element's.
    let margin = (out.bytes().rev().take(64))
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .map(|c| if c == b'\t' { 4 } else { 1 })
        .sum::<usize>();
    let indent = margin
        + b[..lead]
            .iter()
            .map(|&c| if c == b'\t' { 4 } else { 1 })
            .sum::<usize>();
    let opens = run(b'`') >= 3
        || run(b'~') >= 3
        || ((1..=6).contains(&hashes)
            && matches!(text.get(hashes), None | Some(b' ' | b'\t' | b'\r' | b'\n')))
        || matches!(text.first(), Some(b'-' | b'=' | b'*' | b'_' | b'+' | b'>'))
        || ((1..=9).contains(&digits) && matches!(text.get(digits), Some(b'.' | b')')))
        || (indent >= 4 && !matches!(text.first(), None | Some(b'\r' | b'\n')));
    if opens {
        out.push_str(crate::heading_id::EMPTY_MARK);
    }
}

/// Whether the last line of `out` holds nothing yet but its margin (indentation, `>`s): read
/// backwards to the first other character.
fn at_margin(out: &str) -> bool {
    // A margin is a few characters: past 64 of them, a line of `>`s is taken as text (so a line of
    // many removed elements costs one short look each, not one scan of the line).
    let tail = out.bytes().rev().take(64);
    match tail.clone().find(|c| !matches!(c, b' ' | b'\t' | b'>')) {
        Some(c) => c == b'\n',
        None => tail.count() == out.len(),
    }
}

/// Where a tag sits: inside a heading's line, or alone on its line (a flow element, whose text is
/// a block of its own; an element inside a paragraph is inline, its text inside the paragraph).
#[derive(Clone, Copy)]
struct TagPlace {
    in_heading: bool,
    flow: bool,
}

/// One JSX tag: a snippet inlined, or its text attributes kept (its title as the heading line
/// `heading` when the component is an entry of the page's outline), or a line break for a block.
/// Returns whether the tag is a component's (not a snippet's, which is replaced by its text).
#[allow(clippy::too_many_arguments)]
fn convert_tag(
    parsed: &Tag,
    heading: Option<(String, &str)>,
    place: TagPlace,
    imports: &BTreeMap<String, String>,
    from_dir: &Path,
    snippets: &mut SnippetResolver<'_>,
    seen: &mut HashSet<PathBuf>,
    depth: usize,
    out: &mut String,
) -> bool {
    // A component inside a heading (`### theme <Badge>required</Badge>`) is part of its line: the
    // heading keeps the component's text (and Mintlify's id is made of it all), not its attributes.
    // One inside a paragraph keeps the paragraph whole (`<Update>## x</Update>` is no heading).
    if parsed.closing {
        if place.flow {
            out.push('\n');
        } else if !place.in_heading && !at_margin(out) {
            out.push(' ');
        }
        return true;
    }
    let spec = if let Some(spec) = imports.get(&parsed.name) {
        Some(spec.clone())
    } else if parsed.name == "Snippet" {
        (parsed.texts())
            .filter(|(k, _)| *k == "file")
            .last()
            .map(|(_, file)| format!("/snippets/{}", file.trim_start_matches('/')))
    } else {
        None
    };
    if parsed.name == "Snippet" || spec.is_some() {
        if let Some(text) =
            spec.and_then(|spec| inline_snippet(&spec, from_dir, snippets, seen, depth))
        {
            out.push('\n');
            out.push_str(&text);
            out.push('\n');
        }
        return false;
    }
    if place.in_heading {
        return true;
    }
    let titled = heading.as_ref().map(|(_, key)| *key);
    if let Some((line, _)) = &heading {
        out.push_str("\n\n");
        out.push_str(line);
        out.push_str("\n\n");
    }
    let mut texts: Vec<String> = Vec::new();
    for (key, value) in &parsed.attrs {
        if !is_visible_attribute(&parsed.name, key) || Some(key.as_str()) == titled {
            continue;
        }
        let text = match value {
            // These components' titles are Markdown (`titleMarkdownToText`): `[Install](/x)`
            // shows `Install`; so is a frame's caption.
            AttrValue::Text(t)
                if (key == "title" && TITLE_COMPONENTS.contains(&parsed.name.as_str()))
                    || (key == "caption" && parsed.name == "Frame") =>
            {
                outline::title_text(t)
            }
            AttrValue::Text(t) => t.clone(),
            AttrValue::Expr(e) => match tag::string_array(e) {
                Some(items) => items.join(", "),
                None => attribute_jsx_text(e, from_dir, snippets, seen, depth),
            },
        };
        if !text.trim().is_empty() {
            texts.push(text);
        }
    }
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    // Inline: a space apart from the words around it, none at the line's margin (spaces there
    // would make indented code).
    let (before, after) = match (place.flow, at_margin(out)) {
        (true, _) => ("\n\n", "\n\n"),
        (false, true) => ("", " "),
        (false, false) => (" ", " "),
    };
    if !texts.is_empty() {
        out.push_str(before);
        out.push_str(&attribute_paragraph(&texts));
        out.push_str(after);
    } else if place.flow && is_block_tag(&parsed.name) {
        out.push('\n');
    } else if is_block_tag(&parsed.name) && !at_margin(out) {
        out.push(' ');
    }
    true
}

/// The text a JSX expression in an attribute renders (`label={<><Icon /> Quickstart</>}`): the
/// element read as MDX (what it hides, its own expressions and its attributes' JSX left out), as
/// plain text. Any other expression renders what only JavaScript knows: no text.
fn attribute_jsx_text(
    expr: &str,
    from_dir: &Path,
    snippets: &mut SnippetResolver<'_>,
    seen: &mut HashSet<PathBuf>,
    depth: usize,
) -> String {
    let jsx = expr
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    if !jsx.starts_with('<') || snippets.in_attribute {
        return String::new();
    }
    snippets.in_attribute = true;
    let markdown = convert(jsx, Dialect::Mdx, from_dir, snippets, seen, depth);
    snippets.in_attribute = false;
    // One paragraph (after a word, so `1. Install` and `## x` stay text, as the page shows
    // them), its text.
    const LEAD: &str = "text: ";
    let one_line = format!("{LEAD}{}", markdown.replace(['\n', '\r'], " "));
    let mut text = String::new();
    for event in pulldown_cmark::Parser::new(&one_line) {
        if let Some(t) = crate::chunk::heading_text_of(&event) {
            text.push_str(&t);
        }
    }
    let text = (text.strip_prefix(LEAD))
        .or_else(|| text.strip_prefix(LEAD.trim_end()))
        .unwrap_or(&text);
    crate::heading_id::strip_marker(&crate::chunk::collapse_whitespace(text))
}

/// Where the last line of `out` starts, found by reading only what was written since the last
/// question (a line of many tags costs one pass, not one per tag).
#[derive(Default)]
struct OutLine {
    read: usize,
    start: usize,
}

impl OutLine {
    /// `out` was cut back to `len` bytes (a hidden element's text): what was read before that
    /// still stands; past it, its last line is found afresh.
    fn cut_to(&mut self, len: usize) {
        if len < self.read {
            self.read = 0;
        }
    }

    /// Whether the last line of `out` is an ATX heading's, in amortized constant time: a line
    /// of many hidden elements costs one pass, not one per element.
    fn is_heading(&mut self, out: &str) -> bool {
        if self.read == 0 || out.len() < self.read {
            // The line is found again (backwards, to its start only).
            self.start = out.rfind('\n').map_or(0, |p| p + 1);
        } else if let Some(p) = out[self.read..].rfind('\n') {
            self.start = self.read + p + 1;
        }
        self.read = out.len();
        is_heading_line(&out[self.start..])
    }
}

/// Whether `line` (from its start) opens as an ATX heading: its first characters only are read.
fn is_heading_line(line: &str) -> bool {
    let b = line.as_bytes();
    let spaces = b.iter().take_while(|&&c| c == b' ').take(4).count();
    if spaces > 3 {
        return false;
    }
    let hashes = b[spaces..]
        .iter()
        .take_while(|&&c| c == b'#')
        .take(7)
        .count();
    (1..=6).contains(&hashes) && matches!(b.get(spaces + hashes), Some(b' ' | b'\t'))
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
    let (path, src, body_start, written_dir) = snippets.load(spec, from_dir)?;
    if depth >= 8 || !seen.insert(path.clone()) {
        snippets.warn(format!("snippet `{spec}` includes itself (directly or through other snippets), or nests deeper than 8; the cycle is cut"));
        return None;
    }
    let body = &src[body_start..];
    let dir = path.parent().unwrap_or(from_dir).to_path_buf();
    let dialect = Dialect::of(&path.to_string_lossy());
    snippets.written_dirs.push(written_dir);
    // Whether this snippet (not the page around it) holds what Mintlify's parser refuses.
    let outer = snippets.unparseable.take();
    let text = match dialect {
        Dialect::Mdx => convert(body, dialect, &dir, snippets, seen, depth + 1),
        // Mintlify compiles a `.md` snippet as MDX too: what either reading hides stays out.
        Dialect::Markdown => {
            let shown = convert(body, dialect, &dir, snippets, seen, depth + 1);
            let braces = braces_as_text(&shown);
            let text = convert(&braces, Dialect::Mdx, &dir, snippets, seen, depth + 1);
            snippets.unparseable = mdx_refuses(body, &dir, snippets.policy);
            text
        }
    };
    snippets.written_dirs.pop();
    seen.remove(&path);
    if let Some(why) = std::mem::replace(&mut snippets.unparseable, outer) {
        snippets.warn(format!(
            "Mintlify cannot parse snippet `{spec}` ({why}); it shows \"A parsing error occurred\" where the snippet is included, and none of its text is indexed"
        ));
        return Some(String::new());
    }
    Some(text)
}

/// What of `body` Mintlify's parser refuses, reading it as MDX as Mintlify does (a `.md` file's
/// readings here are Markdown's, then MDX's over that reading's text: neither is the file as MDX
/// reads it, with its fences indented four spaces and its expressions). Only whether it refuses is
/// kept: its text, warnings and includes come from the readings.
pub fn mdx_refuses(body: &str, from_dir: &Path, policy: IncludePolicy<'_>) -> Option<String> {
    let mut probe = SnippetResolver::new(policy);
    to_markdown(body, Dialect::Mdx, from_dir, &mut probe);
    probe.unparseable
}

/// The paragraph last asked about by [`in_link_definition`]: its start and end in `kept`, how far
/// its lines were read, and where a definition's destination begins in it (after its `]:`).
#[derive(Default)]
struct DefinitionMemo {
    paragraph: Option<(usize, usize, usize, Option<usize>)>,
}

/// Whether `at` lies in a link reference definition's destination or title (`[ref]:
/// <https://…> "title"`, after block quote and list markers; its label and title may run over
/// lines, and definitions follow one another to the paragraph's end): they open no tag. A
/// definition cannot interrupt a paragraph, so some such lines are text, and a footnote's
/// (`[^1]:`) text is text too; they are given the benefit of the doubt (a tag there goes
/// unchecked). Paragraphs are asked about in order, and each line is read once.
fn in_link_definition(kept: &str, at: usize, memo: &mut DefinitionMemo) -> bool {
    let known = memo
        .paragraph
        .filter(|&(start, end, _, _)| start <= at && at < end);
    let (start, end, mut read, mut from) = match known {
        Some(p) => p,
        None => {
            // The paragraph's start: back over lines that are not blank, no further than the
            // last paragraph's end.
            let floor = memo.paragraph.map_or(0, |(_, end, _, _)| end.min(at));
            let mut start = kept[floor..at].rfind('\n').map_or(floor, |p| floor + p + 1);
            while start > floor {
                let prev = kept[floor..start - 1]
                    .rfind('\n')
                    .map_or(floor, |p| floor + p + 1);
                if is_blank(&kept[prev..start - 1]) {
                    break;
                }
                start = prev;
            }
            (start, blank_line_end(kept, at).max(at + 1), start, None)
        }
    };
    while from.is_none() && read <= at && read < end {
        let line_end = kept[read..].find('\n').map_or(kept.len(), |p| read + p);
        let rest = after_markers(&kept[read..line_end]);
        if rest.starts_with('[') {
            // A label is at most 999 characters (CommonMark; UTF-16 units, as micromark counts
            // them), over lines too. The label itself opens no tag either (`[a<b]: /x`).
            let label_start = line_end - rest.len();
            let mut units = 0;
            let stop = (kept[label_start..end].char_indices())
                .find(|&(_, c)| {
                    units += c.len_utf16();
                    units > 1003
                })
                .map_or(end, |(k, _)| label_start + k);
            from = kept[label_start..stop]
                .contains("]:")
                .then_some(label_start);
        }
        read = line_end + 1;
    }
    memo.paragraph = Some((start, end, read, from));
    from.is_some_and(|f| at >= f)
}

/// Whether the tag at `at` stands alone on its line after any number of block quote and list
/// markers (`- - <A>`), with nothing after it but more of the line's tags: a tag of its own line
/// (as MDX reads it), which [`flow_line`] reads after one marker only. Only the line's start is
/// read here; a line that also holds text (`- - <A>x`) is the caller's to judge.
fn alone_after_markers(kept: &str, at: usize) -> bool {
    // Back to the line's start over marker characters only: a line's first tag is read, the
    // others stop at the text or tags before them.
    let before = kept.as_bytes()[..at].iter().rev();
    let prefix = before
        .take_while(|&&c| c != b'\n' && b" \t>-*+.)0123456789".contains(&c))
        .count();
    let start = at - prefix;
    if start > 0 && kept.as_bytes()[start - 1] != b'\n' {
        return false;
    }
    let end = kept[at..].find('\n').map_or(kept.len(), |p| at + p);
    let line = &kept[start..end];
    after_markers(&line[..at - start]).is_empty() && (line[at - start..].trim_end().ends_with('>'))
}

/// [`in_block_quote`] of the line last asked about, kept: a long line's many expressions do not
/// each read back to its start.
#[derive(Default)]
struct QuoteMemo {
    line: Range<usize>,
    quoted: bool,
}

impl QuoteMemo {
    fn in_block_quote(&mut self, kept: &str, at: usize) -> bool {
        if !self.line.contains(&at) {
            let start = kept[..at].rfind('\n').map_or(0, |p| p + 1);
            let end = kept[at..].find('\n').map_or(kept.len(), |p| at + p);
            self.line = start..end.max(at + 1);
            self.quoted = in_block_quote(kept, at);
        }
        self.quoted
    }
}

/// Whether the line of `at` is in a block quote: a `>` among its leading block quote and list
/// markers.
fn in_block_quote(kept: &str, at: usize) -> bool {
    let start = kept[..at].rfind('\n').map_or(0, |p| p + 1);
    let line = &kept[start..at];
    line[..line.len() - after_markers(line).len()].contains('>')
}

/// `line` after its block quote and list markers, any number of them.
fn after_markers(line: &str) -> &str {
    let mut rest = line;
    loop {
        rest = rest.trim_start_matches([' ', '\t', '>']);
        // A list item's marker: `-`, `*`, `+`, or a number and `.` or `)`, then a space or tab.
        let b = rest.as_bytes();
        let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let marker = match b.first() {
            Some(b'-' | b'*' | b'+') => 1,
            Some(_) if (1..=9).contains(&digits) && matches!(b.get(digits), Some(b'.' | b')')) => {
                digits + 1
            }
            _ => break,
        };
        if !matches!(b.get(marker), Some(b' ' | b'\t')) {
            break;
        }
        rest = &rest[marker..];
    }
    rest
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

/// A line of nothing but spaces, tabs and its line ending (CommonMark's blank line).
fn is_blank(line: &str) -> bool {
    line.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Whether a line (leading spaces and tabs trimmed) opens a block of its own rather than
/// continuing a paragraph: a fence, heading, quote, HTML or JSX tag, expression, table row.
fn starts_block(trimmed: &str) -> bool {
    fence_open(trimmed).is_some()
        || trimmed.starts_with(['#', '>', '<', '{', '|'])
        || is_blank(trimmed)
}

/// Whether a line is a paragraph's text (a list item's first line included), which the next line
/// may continue lazily.
fn is_paragraph_text(line: &str) -> bool {
    let trimmed = line.trim_start_matches([' ', '\t']);
    !starts_block(trimmed) && list_item(trimmed).is_none_or(|(_, rest)| !rest.is_empty())
}

/// Whether a list item's marker may start a list after a paragraph: a bullet, or `1.` / `1)`
/// (not `01.`).
fn starts_list_at_one(trimmed: &str) -> bool {
    !trimmed.starts_with(|c: char| c.is_ascii_digit())
        || trimmed.starts_with("1.")
        || trimmed.starts_with("1)")
}
#[cfg(test)]
mod tests {
    use super::*;

    fn md(src: &str) -> String {
        md_as(src, Dialect::Mdx)
    }

    fn md_as(src: &str, dialect: Dialect) -> String {
        md_read(src, dialect).0
    }

    /// The Markdown and what of it Mintlify's parser refuses.
    fn md_read(src: &str, dialect: Dialect) -> (String, Option<String>) {
        let root = std::env::temp_dir();
        let site = SiteRoot::new(&root, 1 << 20).unwrap();
        let rules = VisibilityRules::default();
        let operations = LoadedOperations::default();
        let variables = variables::Variables::default();
        let mut r = SnippetResolver::new(IncludePolicy {
            site: &site,
            rules: &rules,
            operations: &operations,
            audience: Visibility::Public,
            variables: &variables,
        });
        let out = to_markdown(src, dialect, &root, &mut r);
        (out, r.unparseable)
    }

    /// Session 30: MDX has no HTML comments, and Mintlify's parser (`getAST` in `@mintlify/common`,
    /// `.md` files too) refuses a file that has one: it serves a placeholder in its place. Cases
    /// checked against `getAST` under Node. A comment in code, in JavaScript or in an attribute is
    /// no HTML comment.
    #[test]
    fn session_30_html_comments_are_what_mintlifys_parser_refuses() {
        let refused = [
            "Text\n\n<!-- hidden -->\n\nMore\n",
            "Inline <!-- c --> here\n",
            "<div>\n<!-- inside -->\n</div>\n",
            "> <!-- in quote -->\n",
            "- <!-- in list -->\n",
            "| a | b |\n|---|---|\n| <!-- c --> | d |\n",
        ];
        for src in refused {
            let why = md_read(src, Dialect::Mdx).1;
            assert!(why.is_some_and(|w| w.contains("HTML comment")), "{src:?}");
        }
        let parsed = [
            "Text with `<!-- code -->` span.\n",
            "Text {\"<!--\"} expr.\n",
            "<div title=\"<!--\">x</div>\n",
            "[x](/a<!--b)\n",
            "```\n<!-- in fence -->\n```\n",
            "{/* <!-- */}\n",
            "<div>\n\n```\n<!-- fenced in div -->\n```\n\n</div>\n",
            "export const c = \"<!-- x -->\";\n\nText.\n",
        ];
        for src in parsed {
            assert_eq!(md_read(src, Dialect::Mdx).1, None, "{src:?}");
        }
    }

    /// Each case checked against Mintlify's `getAST` (`@mintlify/common`) under Node.
    #[test]
    fn session_31_tags_mdx_throws_at_are_what_mintlifys_parser_refuses() {
        let refused = [
            "a <= b\n",
            "x<2\n",
            "love <3 it\n",
            "a<b\n",
            "a <b\n\nc>d\n",
            "See <https://example.com> for more.\n",
            "<foo@bar.com>\n",
            "Line<br>\nline two\n",
            "<img src=\"a.png\">\n",
            "if a<-b\n",
            "| a | b<c |\n",
            "a <!b\n",
            "<a href=foo>x</a>\n",
            "<Note\n",
            "- item <2\n",
            // An element opened in running text that its paragraph never closes.
            "Use Vec<u8> here\n",
            "a <b>bold c\n",
            "a <b>bold\n\nc</b> d\n",
            "<Note>Text here\n\nmore\n\n</Note>\n",
            "## Title Vec<u8>\n",
            "<Note>Vec<u8></Note>\n",
            "a <B>x</b>\n",
            "<br>\n\ntext\n",
            "<div>\n<span>x\n</div>\n",
            // Session 32: a fragment opened in running text closes in its paragraph too.
            "Some text a <> b here.\n",
            "## Title <> x\n",
            "a <>b\n\nc</> d\n",
            "[a](/u \"t\n\n<> x\")\n",
            "x [a](/u\n\n) <> y\n",
            // An attribute's or a spread's expression that is empty (comments only).
            "<Card a={}>x</Card>\n",
            "<Card {/* c */}>x</Card>\n",
            "<Card\n  a=\"1\" {/* Vec<u8> */}\n/>\n",
            "<Card a={// c\n}>x</Card>\n",
            "text <b a={ }>x</b> more\n",
        ];
        for src in refused {
            assert!(md_read(src, Dialect::Mdx).1.is_some(), "{src:?}");
        }
        let parsed = [
            "a < b\n",
            "Line<br/>\n",
            "<br>text</br>\n",
            "text <Note>x</Note>\n",
            "[link](https://x.com?a<b)\n",
            "`a<b` code\n",
            "a \\< b\n",
            "$x<y$ and more\n",
            "$$\na<b\n$$\n",
            "<>frag</>\n",
            "a <>frag</> b\n",
            "a <>frag</ > b\n",
            // Fences inside block quotes are not found: their code is not read for fragments or
            // empty expressions (the review's cases; a named tag there is still misread).
            "> ```\n> a <> b\n>\n> ```\n",
            "> ```java\n> var a = new ArrayList<>();\n>\n> a.add(1);\n> ```\n",
            "- > ```\n  > a <> b\n  > ```\n",
            "> ```jsx\n> <Card title={}/>\n>\n> ```\n",
            // A link's title runs over lines (not over a blank one): its text opens nothing.
            "[a](/u \"t\n<> x\")\n",
            "[a](/u\n\"a <> x\")\n",
            "[a](/u \"t\nx <b c={}/> y\")\n",
            "{}\n",
            "a {} b\n",
            "<Card a={/* c */ 1}>x</Card>\n",
            "<Card {...p /* c */}>x</Card>\n",
            "<Card title=\"x\" icon={\"y\"}>z</Card>\n",
            "<x:y>a</x:y>\n",
            "<a.b.c>x</a.b.c>\n",
            "<Foo bar baz=\"1\" {...props}>x</Foo>\n",
            "<Note\n  title=\"x\"\n>\ny\n</Note>\n",
            "Ünïcode <Ñame>x</Ñame>\n",
            "<a-b $c=\"1\">y</a-b>\n",
            "```\na<2\n```\n",
            "a <b>bold\nc</b> d\n",
            "<Note>\nText\n\n</Note>\n",
            "> quote <i>x\n> y</i>\n",
            "text <a href=\"x\">link\nnext</a>\n",
            "`Map<String, Int>` type\n",
            // From the review: link reference definitions, JavaScript's white space in tags.
            "[ref]: <https://x.com>\n",
            "- [ref]: https://x.com/?a<b 'a<2'\n",
            "> [ref]: <./img.png> \"Title\"\n",
            "a <b\u{feff}>x</b>\n",
            "<Card title=\"x\"\u{feff}href=\"y\">z</Card>\n",
            // From the second review: a line of Unicode spaces is no blank line; a line of
            // backticks that opens no fence ends no paragraph; closers with white space in them;
            // a definition's title on the next line, its label over lines; two list markers
            // before a tag of its own line; JSX in an attribute's expression.
            "a <b>x\n\u{a0}\ny</b>\n",
            "a <b>\n```a`\nx</b>\n",
            "a <b></ b>\n",
            "a <A.B>x</A\n.B>\n",
            "<br>\n\n</ br>\n",
            "[r]: /u\n\"<b>\"\n",
            "[r\ns]: <b>\n",
            "- - <A>\n\n    </A>\n",
            "<Card title={<b>x\n\ny</b>} />\n",
            // From the third review: a stray backtick or `$` pairs with nothing across a block
            // that interrupts its paragraph (a list item, a heading, a line of tags, a math block,
            // a table, a quote's blank line); a code span runs over a line of no-break spaces and
            // a line of backticks that opens no fence; a definition's label.
            "- Press the ` key to open the console\n- Wrap the text in `<Note>` to highlight it\n",
            "Press the ` key.\n## Using `<Card>`\n",
            "Press the ` key.\n<Note>\nWrap it in `<Card>`.\n</Note>\n",
            "- Starter costs $10 a month\n- The bound is $x<y$ here\n",
            "> A stray ` backtick\n>\n> then `<b>` code\n",
            "A stray ` backtick\n$$\nx\n$$\nthen `<b>` code\n",
            "A stray ` backtick\n| a | b |\n| - | - |\n| `<b>` | c |\n",
            "text `a\n\u{a0}\n<b> z`\n",
            "text `a\n``` <b> z`\n",
            "[a<b]: /x\n",
            "[^a b]: <https://x.io>\n",
        ];
        for src in parsed {
            assert_eq!(md_read(src, Dialect::Mdx).1, None, "{src:?}");
        }
        let long_label = format!("[{}]: <https://example.com>\n", "é".repeat(600));
        assert_eq!(md_read(&long_label, Dialect::Mdx).1, None);
        // Each tag is read once (these took minutes when tags with an expression that never
        // closes, or definition lines, were read again to the end of the page for every `<`).
        // The first two are refused (an expression never closes, session 33), as `getAST` does.
        for (page, refused) in [
            ("<a {b\n".repeat(40_000), true),
            ("text <a {b\n".repeat(40_000), true),
            ("[r]: <https://x.com> ".repeat(40_000), false),
            // Many element names, each closed once (names × closers took 97 s at 1 MB).
            (
                (0..40_000).map(|n| format!("<a{n}>x</a{n}> ")).collect(),
                false,
            ),
        ] {
            let why = md_read(&page, Dialect::Mdx).1;
            assert_eq!(why.is_some(), refused, "{:?}: {why:?}", &page[..20]);
        }
        // Markdown reads the same text as text; math keeps its text either way.
        assert_eq!(md_read("x<2 and $a<b$\n", Dialect::Markdown).1, None);
        assert!(md_read("$a<b$ c\n", Dialect::Mdx).0.contains("$a<b$"));
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
    fn issue_18_a_longer_fence_holds_shorter_ones() {
        // Inside a ```` fence, a ``` line is code, not the fence's end: what follows the real end is
        // MDX again, and its comments and expressions stay out.
        let out = md("````md\n```js\nlet a = {b};\n```\n<!-- in code -->\n````\n<!-- hidden -->\n{secret.value}\nAfter.\n");
        assert!(
            out.contains("let a = {b};") && out.contains("<!-- in code -->"),
            "{out}"
        );
        assert!(!out.contains("hidden") && !out.contains("secret"), "{out}");
        assert!(out.contains("After."), "{out}");
        let out = md("~~~\n```\n~~~\n{secret}\n");
        assert!(
            !out.contains("secret"),
            "a ``` line does not close a ~~~ fence: {out}"
        );
    }

    #[test]
    fn issue_18_esm_blocks_end_where_mdx_ends_them() {
        let out = md("export const notes = `\nsecret one {\n\nsecret two\n`;\n\nexport const x = {\n  a: '}',\n  b: \"{\",\n  // }\n  c: `${\"}\"}`,\n}\n\nVisible.\n");
        assert!(!out.contains("secret"), "{out}");
        assert!(!out.contains("a: "), "{out}");
        assert!(out.contains("Visible."), "{out}");
        let out = md("import {\n  Alpha,\n  Beta,\n} from '/snippets/none.mdx'\n\nText.\n");
        assert!(!out.contains("Alpha") && out.contains("Text."), "{out}");
        // One that never closes costs only itself (to its first blank line), and Mintlify's parser
        // refuses the page: acorn reads on past the blank line, and fails inside the text.
        let (out, why) = md_read(
            "export const broken = {\n  a: 1\n\nStill here.\n",
            Dialect::Mdx,
        );
        assert!(
            out.contains("Still here.") && !out.contains("a: 1"),
            "{out}"
        );
        assert!(why.is_some(), "{out}");
    }

    /// Session 33: a line of JSX tags (or expressions) alone interrupts a paragraph (MDX reads it
    /// as flow), so an element opened in the paragraph and closed only there never closes in it.
    /// Each case checked against `getAST`; on 9,000 mutated corpus pages, refusals missed
    /// 53 -> 12, none wrong.
    #[test]
    fn session_33_a_line_of_tags_ends_the_paragraph_an_element_opened_in() {
        let refused = [
            "<Card> text\nmore\n</Card>\n",
            "Text <b>x\n</b>\n",
            "Text <b>x\n<i>y</i>\n</b>\n",
            "<Card> text\n</Card>\n",
            "<Card> text\n  </Card>\n",
            "<Card> text\n<Card/>\n</Card>\n",
            "- <Card> text\n  </Card>\n",
            "> <Card> text\n> </Card>\n",
            // A line of expressions alone too.
            "Text <b>x\n{a}\n</b> tail\n",
        ];
        for src in refused {
            let (out, why) = md_read(src, Dialect::Mdx);
            assert!(why.is_some(), "{src:?}: {out}");
        }
        let parsed = [
            "<Card>\ntext\n</Card>\n",
            "<Card>text</Card> more\n",
            "Para text\n<Note>x</Note>\n",
            "<Card> text\nmore </Card>\n",
            "Text <b>x\n</b> tail\n",
            // A `<` before white space is text, not a tag left open: the lines after it are
            // still read for tags of their own (a multi-line one here).
            "1. **A**: x\n   < b enabled at the bot's end.\n\n<ParamField\n  path=\"p\"\n>\n  Text.\n</ParamField>\n",
        ];
        for src in parsed {
            let (out, why) = md_read(src, Dialect::Mdx);
            assert_eq!(why, None, "{src:?}: {out}");
        }
        // Read in linear time (the final review's pages, which took over a minute at 2 MB: a
        // paragraph of many such ends, fragments or block-quoted refusals on one long line).
        for page in [
            "T <b>x</b>\n{a}\n".repeat(40_000),
            "T <b>x</b>\n<br/>\n".repeat(40_000),
            "<>x</> ".repeat(80_000),
            format!("> {}", "<a b={}/> ".repeat(60_000)),
        ] {
            assert_eq!(md_read(&page, Dialect::Mdx).1, None, "{:?}", &page[..20]);
        }
    }

    /// Session 33: MDX's JavaScript parses or Mintlify's parser refuses the page (acorn there, oxc
    /// here): an ESM block, an expression in text (or one that never closes), an attribute's
    /// value, a spread. Each case checked
    /// against `getAST`; in the differential run on 9,000 mutated corpus pages, refusals missed
    /// 127 -> 53 (every "Could not parse … with acorn" and "only import/exports are supported"),
    /// none wrong.
    #[test]
    fn session_33_javascript_mdx_cannot_parse_refuses_the_page() {
        let refused = [
            "export const A = () => (\n  <button\n    <Foo.Bar /> aria-label=\"x\"\n  >+</button>\n);\n\nText.\n",
            "export const a = 1; a <= b\n\nText.\n",
            "export const a = {\n  b: 1,\n\nText.\n",
            "Text {a b} more.\n",
            "<Card title={a b}>x</Card>\n",
            "<Card {a<b}>x</Card>\n",
            "<Card {...a, ...b}>x</Card>\n",
            "Text { open\n\nmore\n",
            // From the second review: a `//` comment that runs to the closing brace takes it.
            "Text {a // c} end.\n\nMore.\n",
            "<Foo {...b // c} />\n",
            // A hyphen read as acorn reads it, and then what acorn refuses after it.
            "export const a = <a.b-c />; a <= b\n\nText.\n",
        ];
        for src in refused {
            let (out, why) = md_read(src, Dialect::Mdx);
            assert!(why.is_some(), "{src:?}: {out}");
        }
        let parsed = [
            "export const A = () => (\n  <div>\n\n    <p>don't</p>\n\n  </div>\n);\n\nText.\n",
            "export const s = `one\n\ntwo`;\n\nText.\n",
            "import { A } from '/snippets/a.jsx'\nexport const b = <A x={1} />\n\nText.\n",
            "Text {/* a comment */} and {a && <b>c</b>} and {`${x}`}.\n",
            "<Card title={a ? 'b' : 'c'} {...rest}>x</Card>\n",
            // From the review: JSX text the scanner misreads (a quote, a bracket, `//`), where
            // MDX counts braces alone and acorn decides.
            "export const A = () => { return <p>Don't</p> }\n\n# H\n",
            "export const A = () => (<p>See https://x.com</p>)\n\nText.\n",
            "Text {x && <p>Step 1) go</p>} end.\n",
            "<Foo b={x ? <p>Yes :)</p> : null} />\n",
            "Hello {<a b=\"it's\">don't</a>} world\n",
            "<Foo {...<a>(see</a>} />\n",
            "Hello {a++ / 2} world\n",
            // Text to MDX: a URL, a link definition's title.
            "Visit https://x.com/{a b}\n",
            "[a]: https://x.com \"t{a b}\"\n",
            // From the second review: MDX asks acorn at every `}`, a `{` in a string or JSX text
            // counting for nothing; it ends the expression where acorn first accepts it.
            "Text {<a>don't</a> && \"{\"} end.\n",
            "Text {x && <p>Step 1) go</p> && f({a: 1})} end.\n",
            "<Foo b={<a>(see</a> && x // }\n} />\n",
            // acorn-jsx reads a hyphen in a JSX member name as part of the name (oxc refuses it).
            "export const a = <a.b-c />\n\nText.\n",
            "Text {<x.y-z>w</x.y-z>} end.\n",
        ];
        // Not checked in a block quote, whose fences pass 1 does not find (Mintlify refuses
        // `> Quoted {a b} text.`; a known gap, the safe way round for a blockquoted code sample).
        for src in parsed {
            let (out, why) = md_read(src, Dialect::Mdx);
            assert_eq!(why, None, "{src:?}: {out}");
        }
    }

    #[test]
    fn issue_24_markdown_pages_keep_angle_brackets_and_braces() {
        let src = "Retry while attempts<max is true.\n\nGET /users/{id} returns one.\n\nAn { open brace.\n\n## Next\n\nLater words. <!-- hidden\nhidden -->\n";
        let out = md_as(src, Dialect::Markdown);
        for w in [
            "attempts<max is true",
            "/users/{id} returns",
            "An { open brace.",
            "Later words.",
        ] {
            assert!(out.contains(w), "{w} in {out}");
        }
        assert!(!out.contains("hidden"), "{out}");
        assert_eq!(Dialect::of("a/b.MD"), Dialect::Markdown);
        assert_eq!(Dialect::of("a/b.mdx"), Dialect::Mdx);
    }

    #[test]
    fn issue_24_invalid_mdx_never_panics_and_keeps_the_text() {
        for src in [
            "<Card title={é",
            "<Card title={é}",
            "{é",
            "<é",
            "`é",
            "<Card title=\"é",
            "<A b={`é",
        ] {
            let _ = md(src);
        }
        let out = md("Before.\n\n<Card title=\"x\"\n\nAfter the broken tag.\n");
        assert!(out.contains("After the broken tag."), "{out}");
        let out = md("A { brace\n\nAfter the brace.\n");
        assert!(out.contains("After the brace."), "{out}");
    }

    #[test]
    fn issue_18_expressions_read_as_javascript() {
        // A quote or a brace inside an MDX comment is the comment's.
        let out = md(
            "{/* Note: don't ship. hiddenone */}\nAfter.\n\n{/* use } here hiddentwo */}\nEnd.\n",
        );
        assert!(!out.contains("hidden"), "{out}");
        assert!(out.contains("After.") && out.contains("End."), "{out}");
        let out = md("{`multi ${ {a: '}'}.a } line`} hiddenthree? no: {'}'}\nText.\n");
        assert!(out.contains("Text."), "{out}");
    }

    #[test]
    fn issue_18_fences_in_list_items_end_with_them() {
        let out = md("- ```js\n  let a = {b};\n  ```\n\n{/* hiddenone */}\nAfter.\n");
        assert!(
            out.contains("let a = {b};") && out.contains("After.") && !out.contains("hiddenone"),
            "{out}"
        );
        let out = md("- Item\n\n  ```\n  code\n\n{/* hiddentwo */}\nAfter.\n");
        assert!(
            !out.contains("hiddentwo") && out.contains("After."),
            "{out}"
        );
        // In Markdown a closer indented by four is code; the real closer follows.
        let out = md_as(
            "```\ncode\n    ```\n```\n<!--\nhiddenthree\n-->\nShown.\n",
            Dialect::Markdown,
        );
        assert!(
            !out.contains("hiddenthree") && out.contains("Shown."),
            "{out}"
        );
    }

    #[test]
    fn issue_18_escapes_and_script_text() {
        let out = md("A literal \\`{/* hiddenone */}` here.\n");
        assert!(!out.contains("hiddenone") && out.contains("here."), "{out}");
        let out = md("Before.\n<script>var hiddentwo = 1;</script>\n<STYLE type=x>.hiddenthree{}</Style >\nAfter.\n");
        assert!(
            !out.contains("hidden") && out.contains("Before.") && out.contains("After."),
            "{out}"
        );
        let out = md_as(
            "\\`<!-- a > hiddenfour -->` and <script>\nhiddenfive\n</script>\nShown.\n",
            Dialect::Markdown,
        );
        assert!(!out.contains("hidden") && out.contains("Shown."), "{out}");
        // Many elements cost one pass.
        let many = "<script>x</script>".repeat(20_000);
        assert!(md(&many).trim().is_empty());
    }

    #[test]
    fn issue_18_regular_expressions_in_esm() {
        let out = md("export const re = /`/;\nexport const notes = {\n  a: \"x\",\n\n  b: \"hiddenone\",\n};\n\nAfter.\n");
        assert!(
            !out.contains("hiddenone") && out.contains("After."),
            "{out}"
        );
        let out = md("export const half = (a, b) => a / b / 2;\n\nShown.\n");
        assert!(out.contains("Shown.") && !out.contains("half"), "{out}");
    }

    #[test]
    fn issue_18_second_review_cases() {
        // A comment, tag or script over a fence's first line hides the fence.
        for src in [
            "{/*\n```\n*/}\n{/* hiddenone */}\nShown.\n",
            "<Card title=\"t\" data=\"\n~~~\n\">\nx\n</Card>\n{/* hiddenone */}\nShown.\n",
            "<script>\n```\n</script>\n{/* hiddenone */}\nShown.\n",
            "<!--\n```\n-->\n<!-- a > hiddenone -->\nShown.\n",
        ] {
            let out = md(src);
            assert!(
                !out.contains("hiddenone") && out.contains("Shown."),
                "{src:?}: {out}"
            );
        }
        // Regular expressions after `=>`, `return`, operators.
        for src in [
            "{a => /}/ + \"hiddentwo\"}\nShown.\n",
            "export const x = {\n  f: () => /}/,\n\n  hiddentwo: 1 }\n\nShown.\n",
            "export function f() {\n  return /}/;\n\n  hiddentwo();\n}\n\nShown.\n",
        ] {
            let out = md(src);
            assert!(
                !out.contains("hiddentwo") && out.contains("Shown."),
                "{src:?}: {out}"
            );
        }
        // JSX text with an apostrophe inside an export.
        let out = md("export const C = () => <p>don't {\n\n  \"hiddenthree\"\n}</p>;\n\nShown.\n");
        assert!(
            !out.contains("hiddenthree") && out.contains("Shown."),
            "{out}"
        );
        // List items: content less indented than a fence but still in the item; an empty item.
        let out = md("- item\n\n    ```\n   x\n    ```\n    {/* hiddenfour */}\n  more\n");
        assert!(!out.contains("hiddenfour"), "{out}");
        let out = md("-\n  ```\n  code\n{/* hiddenfive */}\nShown.\n");
        assert!(
            !out.contains("hiddenfive") && out.contains("Shown."),
            "{out}"
        );
    }

    #[test]
    fn issue_18_code_spans_run_over_lines() {
        let out = md("x ` a\nb ` {/* hiddenseven */} `\n\nShown.\n");
        assert!(
            !out.contains("hiddenseven") && out.contains("Shown."),
            "{out}"
        );
        let out = md("a `` b\n\nc `` {/* hiddeneight */}\n");
        assert!(
            !out.contains("hiddeneight"),
            "a span never crosses a blank line: {out}"
        );
    }

    /// Issue 24: an attribute that starts like a list or a heading is text (`1.` is not lost).
    #[test]
    fn issue_24_attribute_text_is_never_read_as_markdown_structure() {
        let out = md("<Accordion title=\"1. Platform IP ownership\">\nBody.\n</Accordion>\n<Card title=\"# Not a heading\" />\n<Card title=\"1. *starred*\" />\n");
        let chunks =
            crate::chunk::chunk_markdown("T", "", &out, crate::chunk::ChunkConfig::default());
        let text: String = chunks
            .iter()
            .map(|c| format!("{} {}", c.title, c.body))
            .collect();
        assert!(text.contains("1. Platform IP ownership"), "{text}");
        assert!(text.contains("# Not a heading"), "{text}");
        // A card's title is Markdown to Mintlify (`titleMarkdownToText`): emphasis shows its text.
        assert!(text.contains("1. starred"), "{text}");
        // Not a link reference definition for the page, not a link, not emphasis.
        let out = md("<Card title=\"[Beta]: https://evil.example/t\" />\nAvailable in [Beta] only.\n<Card title=\"**Note** [c](https://x.example)\" />\n");
        let chunks =
            crate::chunk::chunk_markdown("T", "", &out, crate::chunk::ChunkConfig::default());
        let text: String = chunks.iter().map(|c| c.body.clone()).collect();
        assert!(text.contains("[Beta]: https://evil.example/t"), "{text}");
        // A card's title shows its Markdown's text: the link's words, not its destination.
        assert!(
            text.contains("Note c") && !text.contains("x.example"),
            "{text}"
        );
    }

    #[test]
    fn issue_24_jsx_in_attribute_expressions_is_not_a_regular_expression() {
        // From mintlify-docs: an icon written as inline SVG inside an attribute expression.
        let out = md("<Card title=\"Osano\" icon={<svg viewBox=\"0 0 2 2\"><path d=\"M1 2\"/></svg>} horizontal>\n  Manage consent.\n</Card>\n\nAfter.\n");
        assert!(
            out.contains("Osano") && out.contains("Manage consent.") && out.contains("After."),
            "{out}"
        );
        assert!(!out.contains("svg"), "{out}");
    }

    #[test]
    fn issue_18_markdown_tab_before_a_closer_is_code() {
        let out = md_as(
            "```\ncode\n\t```\n```\n<!-- a > hiddensix -->\nShown.\n",
            Dialect::Markdown,
        );
        assert!(
            !out.contains("hiddensix") && out.contains("Shown."),
            "{out}"
        );
    }

    #[test]
    fn issue_24_broken_mdx_stays_linear() {
        // One scan to the end per kind of breakage, not one per brace, tag or block: the output
        // keeps the text, and the unit of work is visible as the output's size.
        let braces = "{".repeat(50_000);
        assert_eq!(md(&braces).len(), braces.len());
        let tags = "<a ".repeat(20_000);
        assert!(md(&tags).len() >= tags.len() - 3);
        let blocks = "export const a = (\n\n".repeat(2_000);
        assert!(md(&blocks).trim().is_empty());
    }

    #[test]
    fn issue_24_inline_code_spans_close_on_equal_runs() {
        assert!(md("a `` x ` y `` b").contains("`` x ` y ``"));
        // Many unmatched runs on one long line: each is text, found in one pass over the line.
        let line = "`` ` ".repeat(20_000) + "{hidden}";
        let out = md(&line);
        assert!(!out.contains("hidden"));
    }

    #[test]
    fn braces_are_text_outside_code_tags_and_comments() {
        assert_eq!(
            braces_as_text("GET /repos/{owner} `a {b}` <div style={{x: 1}}> {/* c */}\n"),
            "GET /repos/\\{owner} `a {b}` <div style={{x: 1}}> {/* c */}\n"
        );
        assert_eq!(braces_as_text("```\n{a}\n```\n{b}"), "```\n{a}\n```\n\\{b}");
        // Third review: an escaped character of several bytes, comments over lines, tags with
        // `>` in a quoted value or over lines.
        assert_eq!(braces_as_text("Price \\€5 {x}"), "Price \\€5 \\{x}");
        assert_eq!(
            braces_as_text("a {\n/* c */} {// d\n}"),
            "a {\n/* c */} {// d\n}"
        );
        let tag =
            "<div title=\"a>b\" style={{display: \"none\"}}>x</div> <div\n  style={{a: 1}}>y</div>";
        assert_eq!(braces_as_text(tag), tag);
        // A code span closes on a run of its own length only.
        assert_eq!(
            braces_as_text("GET ` /repos/{owner} `` here"),
            "GET ` /repos/\\{owner} `` here"
        );
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

    #[test]
    fn hidden_review_content_the_page_never_shows_is_not_indexed() {
        let cases = [
            // Mintlify shows `for="agents"` only in the Markdown export.
            "<Visibility for=\"agents\">\n  > SECRETAA call `POST /v1`\n</Visibility>",
            "<Visibility for='agents'>SECRETAB</Visibility>",
            // An audience not understood withholds, as does one only JavaScript knows.
            "<Visibility for=\"robots\">SECRETAC</Visibility>",
            "<Visibility for={who}>SECRETAD</Visibility>",
            "<Visibility>SECRETAE</Visibility>",
            // Nested elements of the same name close in order.
            "<Visibility for=\"agents\">\n<Visibility for=\"humans\">SECRETAF</Visibility>\nSECRETAG\n</Visibility>",
            "<div hidden>\n<div>SECRETAH</div>\nSECRETAI\n</div>",
            "<div hidden={true}>SECRETAJ</div>",
            "<p hidden={flag}>SECRETAK</p>",
            "<span hidden=\"hidden\">SECRETAL</span>",
            "<template>SECRETAM</template>",
            "<noscript>SECRETAN</noscript>",
            "<div style={{ display: 'none' }}>SECRETAO</div>",
            "<div style={{visibility: \"hidden\"}}>SECRETAP</div>",
            "<div className=\"hidden\">SECRETAQ</div>",
            "<div className=\"p-4 hidden sm:hidden\">SECRETAR</div>",
            // Code, comments and components inside stay inside.
            "<div hidden>\n```js\n</div>\n```\nSECRETAS\n</div>",
            "<div hidden><!-- </div> -->SECRETAT</div>",
            "<Visibility for=\"agents\"><Card title=\"SECRETAU\">x</Card></Visibility>",
            // Second review: a `<` in a link's destination or title opens no tag.
            "See [docs](/search?q=a<b).\n\n<Visibility for=\"agents\">\n\nSECRETAV\n\n</Visibility>",
            "See [docs](/x \"when a<b\").\n\n<div hidden>SECRETAW</div>",
            "<div hidden>[x](/u \"</div>\") SECRETAX</div>",
            // React writes `hidden="until-found"` as a plain `hidden`; JSX keeps the last key.
            "<div hidden=\"until-found\">SECRETAY</div>",
            "<Visibility for=\"humans\" for=\"agents\">SECRETAZ</Visibility>",
            "<div hidden=\"until-found\" hidden>SECRETBA</div>",
            // JavaScript's whitespace, any case, closers with a space, classes and styles.
            "<div\u{a0}hidden>SECRETBB</div>",
            "<div HIDDEN=\"\">SECRETBC</div>",
            "<div hidden>\n<div>x</ div>\nSECRETBD\n</ div>",
            "<div className=\"hidden print:block\">SECRETBE</div>",
            "<div className=\"invisible\">SECRETBF</div>",
            "<div className={\"hidden \" + x}>SECRETBG</div>",
            "<div style={{display: cond ? 'none' : 'block'}}>SECRETBH</div>",
            // The cascade: the last declaration wins, an `!important` one over any later one.
            "<div style=\"display: block; display: none\">SECRETBI</div>",
            "<div style=\"display: none !important; display: block\">SECRETBJ</div>",
            "<div style=\"content-visibility: hidden\">SECRETBK</div>",
            "<div style={{display: 'block', display: 'none'}}>SECRETBL</div>",
            // Third review: comments, quotes, parentheses, invalid values and other properties.
            "<div style=\"display: none; /* ; display: block */\">SECRETBM</div>",
            "<div style=\"display:none; font-family: 'x;display:block'\">SECRETBN</div>",
            "<div style=\"display: none; display:\">SECRETBO</div>",
            "<div style=\"display: none; display: bogus\">SECRETBP</div>",
            "<div style=\"visibility: hidden; content-visibility: visible\">SECRETBQ</div>",
            "<div style=\"content-visibility: hidden; visibility: visible\">SECRETBR</div>",
            "<div style=\"display:none; -webkit-display:block\">SECRETBS</div>",
            "<div style=\"display:none; display:block !ie\">SECRETBT</div>",
            "<div style=\"display:none; background: url(data:x,display:block)\">SECRETBU</div>",
            // A style or class only JavaScript knows.
            "<div style={hide}>SECRETBV</div>",
            "<div style={{...hide, color: 'red'}}>SECRETBW</div>",
            "<div className={cls}>SECRETBX</div>",
            "<div className={\"p-4 \" + extra}>SECRETBY</div>",
            "<div className={`p-4 ${extra}`}>SECRETBZ</div>",
        ];
        for case in cases {
            let out = md(&format!("Before.\n\n{case}\n\nAfter.\n"));
            assert!(!out.contains("SECRET"), "{case:?} gave {out:?}");
            assert!(
                out.contains("Before.") && out.contains("After."),
                "{case:?} gave {out:?}"
            );
        }
        let shown = [
            "<Visibility for=\"humans\">SHOWNA</Visibility>",
            "<div hidden={false}>SHOWNB</div>",
            "<div className=\"hidden md:block\">SHOWND</div>",
            "<br hidden />SHOWNE",
            "<div hidden />SHOWNF",
            "<Accordion hidden>SHOWNG</Accordion>",
            "<div style={{ display: 'flex' }}>SHOWNH</div>",
            "<img hidden src=\"x\" />SHOWNI",
            "<div hidden hidden={false}>SHOWNJ</div>",
            "<div hidden={null}>SHOWNK</div>",
            "<div className=\"hidden md:table-cell\">SHOWNL</div>",
            "<div className=\"hidden !md:flex\">SHOWNM</div>",
            "<div className=\"invisible md:visible\">SHOWNN</div>",
            "<div hidden>x</ div>SHOWNO",
            "<div style={{display: 'flex', listStyle: 'none'}}>SHOWNP</div>",
            "<div style=\"display: none; display: block\">SHOWNQ</div>",
            "<div style={{display: 'none', display: 'grid'}}>SHOWNR</div>",
            "<div style=\"display: none !important; display: flex !important\">SHOWNS</div>",
            "<div style=\"display: none; display: inline flex\">SHOWNT</div>",
            "<div style=\"display: none; display: inherit\">SHOWNU</div>",
            "<div className={\"p-4 \" + 'mt-2'}>SHOWNV</div>",
            "<div style={{ color: 'red' }}>SHOWNW</div>",
            "<div style={{ fontFamily: \"Inter...\" }}>SHOWNX</div>",
        ];
        for case in shown {
            let out = md(&format!("Before.\n\n{case}\n\nAfter.\n"));
            let word = &case[case.find("SHOWN").unwrap()..][..6];
            assert!(out.contains(word), "{case:?} gave {out:?}");
            assert!(out.contains("After."), "{case:?} gave {out:?}");
        }
        // An inline hidden element leaves its heading whole, and so does a component's.
        // (Its text rides in a marker, in hex, for the heading's id alone.)
        let out = md("## Title <span hidden>x</span> rest\n");
        assert!(out.contains("## Title \u{FDD2}78\u{FDD3} rest"), "{out}");
        let out = md("## Alpha <Visibility for=\"agents\">x</Visibility> beta\n\nBody.\n");
        assert!(out.contains("## Alpha  beta"), "{out}");
        // Markdown pages: HTML tags stay text, but a hidden element's content is not shown.
        for case in [
            "<div hidden>\n\nSECRETMA\n\n</div>",
            "<template>SECRETMB</template>",
            "<DIV Hidden>SECRETMC</div>",
            "<p style=\"display: none\">SECRETMD</p>",
            "See [x](/a<b).\n\n<div hidden>SECRETME</div>",
            "<div class=\"hidden\">SECRETMF</div>",
        ] {
            let out = md_as(&format!("Before.\n\n{case}\n\nAfter.\n"), Dialect::Markdown);
            assert!(!out.contains("SECRET"), "{case:?} gave {out:?}");
            assert!(out.contains("After."), "{case:?} gave {out:?}");
        }
        // HTML has no `className`: a Markdown page shows what it classes.
        let out = md_as(
            "<div className=\"hidden\">SHOWNMA</div>\n",
            Dialect::Markdown,
        );
        assert!(out.contains("SHOWNMA"), "{out}");
        let out = md_as(
            "a <b>bold</b> and a<b \"c\n\n<div>x</div>",
            Dialect::Markdown,
        );
        assert_eq!(out, "a <b>bold</b> and a<b \"c\n\n<div>x</div>");
        // A hidden element that never closes withholds the rest of the page, with a warning.
        let out = md("Before.\n\n<div hidden>\nSECRETZZ\n");
        assert!(
            out.contains("Before.") && !out.contains("SECRETZZ"),
            "{out}"
        );
    }

    fn section_anchors(markdown: &str) -> Vec<String> {
        crate::chunk::chunk_markdown("T", "", markdown, Default::default())
            .into_iter()
            .skip(1)
            .map(|c| c.anchor)
            .collect()
    }

    /// Accordions' headings stay in their section (and count for later `-2`s, as
    /// `remarkComponentIds` counts them); an update's label and a step's title under `titleSize`
    /// h2 or h3 are sections with the table of contents' ids; code in a component is code.
    #[test]
    fn issue_24_outline_of_components() {
        let out = md(concat!(
            "## In\n\n<Accordion title=\"A\">\n## In\n\n```bash\n## not a heading\n```\n</Accordion>\n\n",
            "<Update label=\"v1.2\" description=\"May\">\n## In\n\nNotes.\n</Update>\n\n",
            "<Steps titleSize=\"h3\">\n<Step title=\"Run it\">\nGo.\n</Step>\n</Steps>\n\n## In\n"
        ));
        assert_eq!(
            section_anchors(&out),
            ["in", "v1-2", "in-3", "run-it", "in-4"],
            "{out}"
        );
        assert!(
            out.contains("May") && out.contains("## not a heading\n"),
            "{out}"
        );
        // `mode: custom`: no heading ids; updates keep theirs.
        let custom = without_heading_ids(&out);
        assert_eq!(
            section_anchors(&custom),
            ["", "v1-2", "", "run-it", ""],
            "{custom}"
        );
    }

    /// Nested components are marked in one pass over the page, not one per level.
    #[test]
    fn issue_24_nested_components_stay_linear() {
        let depth = 20_000;
        let page = "<Accordion title=\"a\">\n\n## x\n\n".repeat(depth)
            + &"</Accordion>\n".repeat(depth)
            + &"<Update label=\"u\">\n\n## y\n\n</Update>\n".repeat(depth);
        let out = md(&page);
        // (The accordions' text is the summary's, split at its size: sections without anchors.)
        let anchors: Vec<String> = (section_anchors(&out).into_iter())
            .filter(|a| !a.is_empty())
            .collect();
        assert_eq!(
            anchors.len(),
            2 * depth,
            "updates and their headings are sections"
        );
        assert_eq!(anchors[..4], ["u", "y", "u-2", "y-2"]);
        // Hidden elements cut one after another, and closers with no opener: one pass each.
        let hidden = "<Visibility for=\"agents\">\n\n## h\n\n</Visibility>\n\n```\nx\n```\n\n<Accordion title=\"a\">\n\n".repeat(depth);
        let out = md(&hidden);
        assert_eq!(
            out.matches('\u{FDD0}').count(),
            depth,
            "each hidden heading counted"
        );
        let unmatched = "<Expandable>\n".repeat(depth) + &"</Accordion>\n".repeat(depth);
        assert!(md(&unmatched).trim().is_empty());
        // Many tags on one long line, after long text and before it; fragments around steps.
        let line = "a ".repeat(depth) + &"<b>x</b>".repeat(depth) + &" z".repeat(depth);
        assert_eq!(md(&line).matches('x').count(), depth);
        // A heading line of hidden blocks with text between them: each closer asks whether its
        // line is a heading without reading the line again.
        let heading = "## t".to_owned() + &" y <div hidden>h</div>".repeat(10 * depth);
        let out = md(&heading);
        assert_eq!(out.matches('y').count(), 10 * depth);
        assert!(!out.contains('h'), "{}", &out[..80]);
        let steps = "<Steps titleSize=\"h2\">\n".to_owned()
            + &"<>\n".repeat(depth)
            + &"<Step title=\"s\">\nx\n</Step>\n".repeat(depth);
        assert!(md(&steps).contains("## s"));
    }

    /// A JSX element in a shown attribute renders its text (pipecat's examples label updates
    /// `label={<><Icon /><span>Quickstart</span></>}`); what it hides stays out, and JSX in its
    /// own attributes is not read. An update with such a label has Mintlify's id of no title.
    #[test]
    fn issue_24_jsx_in_attributes_is_shown_text() {
        let out = md(concat!(
            "<Update label={<><Icon icon=\"rocket\" size={16} /><span style={{marginLeft: '8px'}}>Quickstart</span></>} tags={[\"Getting Started\"]}>\nFirst.\n</Update>\n\n",
            "<Update label={<span>Second one</span>}>\nNext.\n</Update>\n\n",
            "<Card title={<><Visibility for=\"agents\">SECRETAT</Visibility>Shown title <b title={<i>NESTEDJSX</i>}>bold</b></>} />\n",
            "<Card title={cond ? <a>ONLYJS</a> : null} />\n"
        ));
        assert!(
            out.contains("Quickstart") && out.contains("Second one"),
            "{out}"
        );
        assert!(out.contains("Shown title") && out.contains("bold"), "{out}");
        for hidden in ["SECRETAT", "NESTEDJSX", "ONLYJS", "rocket"] {
            assert!(!out.contains(hidden), "{hidden} in {out}");
        }
        let chunks = crate::chunk::chunk_markdown("T", "", &out, Default::default());
        let sections: Vec<(&str, &str)> = (chunks.iter().skip(1))
            .map(|c| (c.title.as_str(), c.anchor.as_str()))
            .collect();
        assert_eq!(sections, [("Quickstart", ""), ("Second one", "-2")]);
    }

    /// An update's tags are shown (beside its label, and as the changelog's filters): an array of
    /// strings is their text; any other expression shows what only JavaScript knows.
    #[test]
    fn issue_24_update_tags_are_shown() {
        let out = md(concat!(
            "<Update label=\"May\" tags={[\"New releases\", 'Bug fixes',]} rss={{ title: \"RSSONLY\" }}>\nx\n</Update>\n",
            "<Update label=\"June\" tags={[\"a\" + SECRETJS]}>\ny\n</Update>\n",
            "<Card tags={[\"NOTSHOWN\"]} />\n"
        ));
        assert!(
            out.contains("New releases") && out.contains("Bug fixes"),
            "{out}"
        );
        for hidden in ["RSSONLY", "SECRETJS", "NOTSHOWN"] {
            assert!(!out.contains(hidden), "{hidden} in {out}");
        }
        assert_eq!(tag::string_array("[]"), Some(vec![]));
        assert_eq!(tag::string_array("[\"a\", `b`]"), Some(vec!["a", "b"]));
        assert_eq!(tag::string_array("[\"a\\\"\"]"), None);
        assert_eq!(tag::string_array("[\"a\"] + x"), None);
        assert_eq!(tag::string_array("[\"a\" \"b\"]"), None);
    }

    /// Third review: what keeps removed elements apart never changes the page's code spans,
    /// never indents a line into code, never panics on a list marker before a wide character,
    /// and stays linear where brackets never close; a fence a comment hides gets no closer.
    #[test]
    fn session_26_removed_elements_keep_text_as_it_reads() {
        let out = md("<Info>`RedisBus` requires the `redis` extra: `uv add x`</Info>\n");
        let chunks = crate::chunk::chunk_markdown("T", "", &out, Default::default());
        assert!(
            chunks[0]
                .body
                .contains("RedisBus requires the redis extra: uv add x"),
            "{out:?} {:?}",
            chunks[0].body
        );
        let out = md("<Tip>\n<Icon icon=\"a\" /> <Icon icon=\"b\" /> <Icon icon=\"c\" /> Top-level words.\n</Tip>\n");
        let chunks = crate::chunk::chunk_markdown("T", "", &out, Default::default());
        assert!(
            chunks[0].code.is_empty() && chunks[0].body.contains("Top-level words."),
            "{out:?}"
        );
        for page in [
            "<code>```mermaid</code> starts it.\n",
            "{/* c */} # Fake\n",
            "<b/>~~~js\n",
        ] {
            let out = md(page);
            let chunks = crate::chunk::chunk_markdown("T", "", &out, Default::default());
            assert_eq!(chunks.len(), 1, "{page}: {out:?}");
            assert!(chunks[0].code.is_empty(), "{page}: {out:?}");
        }
        assert!(md("- \t日本語 <b>x</b>\n").contains("日本語"));
        let broken = "<b/>{\n".repeat(40_000);
        assert!(md(&broken).len() >= 40_000);
        let hidden_fence = md("Text {/* c\n```\n*/} after\n\n## After\n");
        assert!(!hidden_fence.contains("```"), "{hidden_fence:?}");
        // Fourth review: the empty marker never reaches a setext heading's text or id, and a line
        // of removed elements costs a short look each.
        let out = md("{/* c */}## Install\n---\n\nx\n");
        let chunks = crate::chunk::chunk_markdown("T", "", &out, Default::default());
        assert!(
            chunks
                .iter()
                .all(|c| !c.title.contains(crate::heading_id::MARKS)
                    && !c.anchor.contains(crate::heading_id::MARKS)),
            "{chunks:?}"
        );
        let line = "<b/>>".repeat(40_000);
        assert!(md(&line).len() < 100_000);
    }

    /// A hidden element inside a heading: readers never see its text, but Mintlify's id spells it
    /// (`getTableOfContentsTitle` reads every element's text but a `<Visibility>` hidden from
    /// humans), so the heading's anchor, and the `-2`s after it, are the page's.
    #[test]
    fn session_28_hidden_text_in_a_heading_counts_in_its_id() {
        for dialect in [Dialect::Mdx, Dialect::Markdown] {
            let page = concat!(
                "## Setup <span className=\"hidden\">x</span>\n\nA.\n\n",
                "## Setup\n\nB.\n\n",
                "## Setup x\n\nC.\n\n",
                "## Run<span hidden> **fast**</span> now\n\nD.\n\n",
                "## Agents <Visibility for=\"agents\">only</Visibility>\n\nE.\n\n",
                "## Setup x\n\nF.\n",
            );
            // A `.md` page is read as Markdown, then what that kept as MDX (as ingest does).
            let out = match dialect {
                Dialect::Mdx => md(page),
                Dialect::Markdown => md(&braces_as_text(&md_as(page, dialect))),
            };
            let chunks = crate::chunk::chunk_markdown("T", "", &out, Default::default());
            let got: Vec<(&str, &str)> = (chunks.iter().skip(1))
                .map(|c| (c.title.as_str(), c.anchor.as_str()))
                .collect();
            let want = [
                ("Setup", "setup-x"),
                ("Setup", "setup"),
                ("Setup x", "setup-x-2"),
                ("Run now", "run-fast-now"),
                ("Agents", "agents"),
                ("Setup x", "setup-x-3"),
            ];
            assert_eq!(got, want, "{dialect:?}: {out:?}");
            for c in &chunks {
                assert!(
                    !c.body.contains("fast") && !c.body.contains("66617374"),
                    "{c:?}"
                );
                assert!(!c.title.contains(crate::heading_id::MARKS), "{c:?}");
            }
        }
        // Review: a `<Visibility>` inside the hidden element spells nothing of the id (its text is
        // not told apart from the rest: none of it is), an image gives none of its text, a link
        // its text, and a space alone parts words.
        let page = concat!(
            "## Setup <span hidden>b <Visibility for=\"agents\">AGENTSECRET</Visibility></span>\n\nA.\n\n",
            "## Pic <span hidden>![alt](/SECRETURL.png)</span>\n\nB.\n\n",
            "## A <span hidden>[lnk](nolink)</span> B\n\nC.\n\n",
            "## C<span hidden> </span>D\n\nD.\n",
        );
        let out = md(page);
        let anchors = section_anchors(&out);
        assert_eq!(anchors, ["setup", "pic", "a-lnk-b", "c-d"], "{out:?}");
    }

    /// A step's `noAnchor` as Mintlify's `remarkExtractTableOfContents` tests it: the raw value
    /// compared with `true`. A step without one is a section with its id (and counts for the
    /// `-2`s after it).
    #[test]
    fn session_28_step_no_anchor_is_read_as_written() {
        for (attr, anchored) in [
            ("", true),
            (" noAnchor", false),
            (" noAnchor=\"true\"", false),
            (" noAnchor={true}", false),
            (" noAnchor={ true }", true),
            (" noAnchor={\"true\"}", true),
            (" noAnchor=\"false\"", true),
            (" noAnchor={false}", true),
        ] {
            let page = format!(
                "<Steps titleSize=\"h2\">\n<Step title=\"Install\"{attr}>\nRun it.\n</Step>\n</Steps>\n\n## Install\n\nAgain.\n"
            );
            let anchors = section_anchors(&md(&page));
            let want: &[&str] = if anchored {
                &["install", "install-2"]
            } else {
                &["install"]
            };
            assert_eq!(anchors, want, "{attr:?}");
        }
    }

    /// Text after an element removed at a line's start is what MDX reads it as, a paragraph's:
    /// `---` under a paragraph makes no heading (no anchor the page lacks), and no list, quote or
    /// code block is opened by it, nor by the spaces between removed elements.
    #[test]
    fn session_28_text_after_a_removed_element_stays_a_paragraph() {
        let page = concat!(
            "First paragraph\n{/* c */}---\n\n",
            "<Icon icon=\"x\" /> <Icon icon=\"x\" /> <Icon icon=\"x\" /> <Icon icon=\"x\" /> four icons\n\n",
            "{/* c */}- dash\n\n{/* c */}> quoted\n\n{/* c */}1. numbered\n\n",
            "Third paragraph\n<Icon icon=\"x\" />===\n\n",
            "## Real\n\nBody.\n",
        );
        let out = md(page);
        let chunks = crate::chunk::chunk_markdown("T", "", &out, Default::default());
        let sections: Vec<(&str, &str)> = (chunks.iter())
            .map(|c| (c.title.as_str(), c.anchor.as_str()))
            .collect();
        assert_eq!(sections, [("T", ""), ("Real", "real")], "{out:?}");
        let body = &chunks[0].body;
        for words in [
            "First paragraph ---",
            "four icons",
            "- dash",
            "> quoted",
            "1. numbered",
            "Third paragraph ===",
        ] {
            assert!(body.contains(words), "{words:?} in {body:?}");
        }
        assert!(chunks[0].code.is_empty(), "{:?}", chunks[0].code);
        // A block the element's own line ends before stays the block it is.
        let out = md("<Note>\n- item\n</Note>\n\n<Tip>\n---\n</Tip>\n");
        assert!(!out.contains(crate::heading_id::MARKS), "{out:?}");
    }
}
