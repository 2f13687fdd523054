//! Here is a site's root, tell me which of its files Mintlify never publishes: [`MintIgnore`].
//!
//! Mintlify removes from the site every file its `.mintignore` (gitignore syntax, at the docs root)
//! matches, and a fixed list of directories and files without any configuration
//! (<https://www.mintlify.com/docs/organize/mintignore>): such a file is no page, no snippet and
//! no spec, and readers cannot reach it by URL. Its text must reach no index either, however it
//! is referenced (a navigation entry, an import, `<Snippet file>`, `openapi:`).

use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use crate::document::Diagnostic;

/// The file beside `docs.json` whose patterns Mintlify excludes from the build.
pub const MINTIGNORE_FILE: &str = ".mintignore";

/// What Mintlify ignores without being told, as gitignore patterns (matched at any depth, without
/// regard to case): its documentation's list and `@mintlify/common`'s `DEFAULT_MINT_IGNORES` (which
/// adds `.cursor` and `.mintlify/**`; the files that list keeps in `.mintlify`
/// are its configuration, no pages).
pub const DEFAULT_IGNORED: &[&str] = &[
    ".git",
    ".github",
    ".claude",
    ".agents",
    ".idea",
    ".vscode",
    ".cursor",
    ".mintlify/**",
    "node_modules",
    "build",
    "dist",
    "coverage",
    ".cache",
    "tmp",
    "temp",
    "README.md",
    "LICENSE.md",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
];

/// The configuration files, which the build reads whatever a pattern says (Mintlify cannot ignore
/// its own configuration; `aidocs.json`, ours, may well be kept off the published site).
const CONFIG_FILES: &[&str] = &["docs.json", "mint.json", "aidocs.json"];

/// The ignore rules of one site.
#[derive(Debug, Clone)]
pub struct MintIgnore {
    rules: Gitignore,
    /// The `.mintignore` text (empty without one): part of every page's fingerprint, since a
    /// change to it may withhold or restore any include.
    source: String,
}

impl MintIgnore {
    /// The default patterns and those of `root/.mintignore` (read with at most `max_bytes`). A line
    /// that is not a valid pattern fails the build: a rule not understood could publish what it
    /// was written to hide.
    pub fn load(root: &Path, max_bytes: u64) -> Result<Self, Diagnostic> {
        let mut b = GitignoreBuilder::new(root);
        // Mintlify matches with the `ignore` package, which ignores case (`Drafts/` hides
        // `drafts/x`, `readme.md` is `README.md`).
        b.case_insensitive(true).expect("case-insensitive matching");
        for p in DEFAULT_IGNORED {
            b.add_line(None, p).expect("the default patterns are valid");
        }
        let path = root.join(MINTIGNORE_FILE);
        let mut source = String::new();
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            _ => {
                let diag = |line: Option<usize>, message: String| Diagnostic {
                    file: MINTIGNORE_FILE.into(),
                    line,
                    message,
                };
                let text = crate::visibility::read_bounded(&path, max_bytes).map_err(|e| {
                    diag(
                        None,
                        format!("cannot be read: {e}; what it hides is unknown"),
                    )
                })?;
                // A byte-order mark is no part of the first pattern (as git reads it).
                let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned();
                for (i, line) in text.lines().enumerate() {
                    // Each line trimmed first, as `processMintIgnoreString` does (`  drafts/`
                    // is `drafts/`).
                    let line = line.trim();
                    b.add_line(Some(path.clone()), line).map_err(|e| {
                        diag(
                            Some(i + 1),
                            format!(
                                "`{line}` is not a valid pattern ({e}); what it hides is unknown"
                            ),
                        )
                    })?;
                }
                source = text;
            }
        }
        let rules = b.build().map_err(|e| Diagnostic {
            file: MINTIGNORE_FILE.into(),
            line: None,
            message: format!("its patterns cannot be compiled: {e}"),
        })?;
        Ok(MintIgnore { rules, source })
    }

    /// The `.mintignore` text as read (empty without one).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// No rules at all (tools and tests that read one file outside any site).
    pub fn none() -> Self {
        MintIgnore {
            rules: Gitignore::empty(),
            source: String::new(),
        }
    }

    /// Whether the file at `rel` (site-relative, `/`-separated), or a directory above it, is ignored.
    pub fn ignores(&self, rel: &str) -> bool {
        if rel.is_empty() || CONFIG_FILES.contains(&rel) {
            return false;
        }
        // Directories first, from the top: as in git, a file under an ignored directory stays
        // ignored whatever a later negation says of the file.
        let mut end = 0;
        while let Some(i) = rel[end..].find('/') {
            end += i;
            if self.rules.matched(&rel[..end], true).is_ignore() {
                return true;
            }
            end += 1;
        }
        self.rules.matched(rel, false).is_ignore()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> MintIgnore {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(MINTIGNORE_FILE), text).unwrap();
        MintIgnore::load(tmp.path(), 1 << 20).unwrap()
    }

    /// The hidden-content review: `.mintignore` and Mintlify's default ignores remove files from
    /// the site, at any depth, with gitignore's negations.
    #[test]
    fn hidden_review_mintignore_patterns_and_defaults() {
        let r =
            rules("drafts/\n*.draft.mdx\n/internal/\n**/secret/**\n!drafts/keep.mdx\n# comment\n");
        for rel in [
            "drafts/a.mdx",
            "guides/drafts/b.mdx",
            "page.draft.mdx",
            "x/page.draft.mdx",
            "internal/part.mdx",
            "a/secret/b.mdx",
            "tmp/x.mdx",
            "docs/build/x.mdx",
            "README.md",
            "sdk/CHANGELOG.md",
            "node_modules/x/readme.md",
            ".github/pull_request_template.md",
        ] {
            assert!(r.ignores(rel), "{rel}");
        }
        for rel in [
            "index.mdx",
            "guides/internal/part.mdx", // `/internal/` is rooted
            "draftsman.mdx",
            "readme.mdx",
            "docs.json",
            "builder/x.mdx",
        ] {
            assert!(!r.ignores(rel), "{rel}");
        }
        // A negation cannot re-include a file whose directory is excluded (gitignore's rule).
        assert!(r.ignores("drafts/keep.mdx"));
        assert!(!MintIgnore::none().ignores("tmp/x.mdx"));
    }

    #[test]
    fn hidden_review_an_invalid_mintignore_fails_with_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(MINTIGNORE_FILE), "ok/\n[z-a]\n").unwrap();
        let e = MintIgnore::load(tmp.path(), 1 << 20).unwrap_err();
        assert_eq!(
            (e.file.as_str(), e.line),
            (MINTIGNORE_FILE, Some(2)),
            "{e:?}"
        );
    }
}
