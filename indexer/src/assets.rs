//! The search box's browser assets (`<aidocs-search>`, the engine's JS and the wasm module), copied from
//! a built `site-plugin` package next to the shards by `aidocs-index build --search-box` (and by `demo`),
//! so one `<script type="module">` tag and one element add search to any static site.
//!
//! Here is a plugin directory (or none: we look in the usual places), give me `OUT/ui/` with the files
//! at the same relative paths as in the package (`dist/element.js` imports `./search.js`, which loads
//! `../wasm/aidocs_search_bg.wasm`) and a `snippet.html` to paste into the site's layout.

use std::path::{Path, PathBuf};

/// Where the assets go inside the index directory.
pub const UI_DIR: &str = "ui";

/// The files a page needs, relative to the package root (and to `OUT/ui/`): the minified element and
/// engine (with the wasm glue inlined) `npm run build` writes into `dist/`, and the two wasm modules.
pub const FILES: [&str; 4] = [
    "dist/element.js",
    "dist/search.js",
    "wasm/aidocs_search_bg.wasm",
    // Loaded where the browser lacks DecompressionStream or the reader's language needs a stemmer
    // other than English's.
    "wasm/aidocs_search_full_bg.wasm",
];

#[derive(Debug, thiserror::Error)]
pub enum AssetsError {
    #[error("search box assets not found (looked in {looked}): build them with `npm run build --prefix site-plugin` (or `./dev.sh setup`), install the npm package `aidocs-search`, or pass --plugin DIR")]
    NotFound { looked: String },
    #[error("{dir} is not a built site-plugin package: {missing} is missing (run `npm run build` there)")]
    Incomplete { dir: PathBuf, missing: String },
    #[error("{path} is not copied into the served directory: {why}")]
    Unsafe { path: PathBuf, why: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn is_built(dir: &Path) -> bool {
    FILES.iter().all(|f| dir.join(f).is_file())
}

/// The plugin package to copy from: `explicit` if given (it must be built), else the first built one of
/// `$AIDOCS_PLUGIN_DIR`, `node_modules/aidocs-search` under `site` or the current directory,
/// `site-plugin` in the current directory, and the repository checkout the running binary was built in.
pub fn locate(explicit: Option<&Path>, site: &Path) -> Result<PathBuf, AssetsError> {
    if let Some(dir) = explicit {
        return match FILES.iter().find(|f| !dir.join(f).is_file()) {
            None => Ok(dir.to_path_buf()),
            Some(missing) => Err(AssetsError::Incomplete {
                dir: dir.to_path_buf(),
                missing: (*missing).to_string(),
            }),
        };
    }
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(dir) = std::env::var_os("AIDOCS_PLUGIN_DIR") {
        candidates.push(dir.into());
    }
    let site_dir = if site.is_file() {
        site.parent().unwrap_or(Path::new("."))
    } else {
        site
    };
    candidates.push(site_dir.join("node_modules/aidocs-search"));
    candidates.push(PathBuf::from("node_modules/aidocs-search"));
    candidates.push(PathBuf::from("site-plugin"));
    // target/{debug,release}/aidocs-index → the checkout's site-plugin.
    if let Ok(exe) = std::env::current_exe() {
        if let Some(root) = exe.parent().and_then(Path::parent).and_then(Path::parent) {
            candidates.push(root.join("site-plugin"));
        }
    }
    candidates
        .iter()
        .find(|d| is_built(d))
        .cloned()
        .ok_or_else(|| AssetsError::NotFound {
            looked: candidates
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The most an asset may weigh (the full engine's wasm is about 1 MB).
const MAX_ASSET_BYTES: u64 = 32 << 20;

/// Reads one asset of a package for copying into the served directory. The package may be supplied
/// by the docs repository (`node_modules/aidocs-search` beside the site), so each file must resolve
/// to a regular file inside the package (a symlink to `~/.ssh/id_rsa` is refused), be of bounded
/// size, and be what its name says: a wasm module, or UTF-8 JavaScript.
fn read_asset(plugin: &Path, rel: &str) -> Result<Vec<u8>, AssetsError> {
    let from = plugin.join(rel);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| AssetsError::Io { path, source }
    };
    let unsafe_ = |why: String| AssetsError::Unsafe {
        path: from.clone(),
        why,
    };
    let base = plugin.canonicalize().map_err(io(plugin))?;
    let real = from.canonicalize().map_err(io(&from))?;
    if !real.starts_with(&base) {
        return Err(unsafe_(format!(
            "it resolves to {}, outside the package {}",
            real.display(),
            base.display()
        )));
    }
    let meta = std::fs::metadata(&real).map_err(io(&real))?;
    if !meta.is_file() {
        return Err(unsafe_("it is not a regular file".into()));
    }
    if meta.len() > MAX_ASSET_BYTES {
        return Err(unsafe_(format!(
            "it is {} bytes, over {MAX_ASSET_BYTES}",
            meta.len()
        )));
    }
    let data = std::fs::read(&real).map_err(io(&real))?;
    let looks_right = if rel.ends_with(".wasm") {
        data.starts_with(b"\0asm")
    } else {
        std::str::from_utf8(&data).is_ok()
    };
    if !looks_right {
        return Err(unsafe_(if rel.ends_with(".wasm") {
            "it is not a wasm module".into()
        } else {
            "it is not UTF-8 JavaScript".into()
        }));
    }
    Ok(data)
}

/// What was installed, for the build summary.
#[derive(Debug, Clone, serde::Serialize)]
pub struct InstalledAssets {
    /// `OUT/ui`.
    pub dir: PathBuf,
    pub files: usize,
    pub bytes: u64,
    /// The HTML to paste into the site's layout (also written to `OUT/ui/snippet.html`).
    pub snippet: String,
}

/// The tag and element for a site whose index is served at `index_url` (ending in `/`).
pub fn snippet(index_url: &str) -> String {
    let base = if index_url.ends_with('/') {
        index_url.to_string()
    } else {
        format!("{index_url}/")
    };
    format!(
        "<script type=\"module\" src=\"{base}{UI_DIR}/dist/element.js\"></script>\n<aidocs-search index=\"{base}\"></aidocs-search>\n"
    )
}

/// Copies the assets from `plugin` into `out/ui/` (each file written to a temporary name, then renamed,
/// so a page being served never loads half a file) and writes `snippet.html` for `index_url`.
pub fn install(plugin: &Path, out: &Path, index_url: &str) -> Result<InstalledAssets, AssetsError> {
    let dir = out.join(UI_DIR);
    let mut bytes = 0u64;
    let snippet = snippet(index_url);
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for f in FILES {
        files.push((dir.join(f), read_asset(plugin, f)?));
    }
    files.push((dir.join("snippet.html"), snippet.clone().into_bytes()));
    for (path, data) in &files {
        let io = |source| AssetsError::Io {
            path: path.clone(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        if std::fs::read(path).ok().as_deref() == Some(data.as_slice()) {
            bytes += data.len() as u64;
            continue;
        }
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, data).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)?;
        bytes += data.len() as u64;
    }
    Ok(InstalledAssets {
        dir,
        files: files.len(),
        bytes,
        snippet,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_plugin(root: &Path) {
        for f in FILES {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, fake_bytes(f)).unwrap();
        }
    }

    fn fake_bytes(f: &str) -> Vec<u8> {
        if f.ends_with(".wasm") {
            [b"\0asm".as_slice(), f.as_bytes()].concat()
        } else {
            f.as_bytes().to_vec()
        }
    }

    #[cfg(unix)]
    #[test]
    fn issue_18_a_package_cannot_copy_files_from_outside_itself() {
        let t = tempfile::tempdir().unwrap();
        let secret = t.path().join("id_rsa");
        std::fs::write(&secret, "PRIVATE KEY").unwrap();
        let plugin = t.path().join("site/node_modules/aidocs-search");
        fake_plugin(&plugin);
        let out = t.path().join("out");
        std::fs::remove_file(plugin.join("dist/element.js")).unwrap();
        std::os::unix::fs::symlink(&secret, plugin.join("dist/element.js")).unwrap();
        let err = install(&plugin, &out, "/_search/").unwrap_err().to_string();
        assert!(err.contains("outside the package"), "{err}");
        std::fs::remove_file(plugin.join("dist/element.js")).unwrap();
        std::fs::write(plugin.join("dist/element.js"), "ok").unwrap();
        std::fs::write(plugin.join("wasm/aidocs_search_bg.wasm"), "PRIVATE").unwrap();
        let err = install(&plugin, &out, "/_search/").unwrap_err().to_string();
        assert!(err.contains("not a wasm module"), "{err}");
        assert!(
            !out.join("ui/dist/element.js").exists(),
            "nothing half-installed"
        );
        // A package that is itself a link (npm link, pnpm) is fine: its files are inside it.
        fake_plugin(&t.path().join("real"));
        let linked = t.path().join("linked");
        std::os::unix::fs::symlink(t.path().join("real"), &linked).unwrap();
        install(&linked, &out, "/_search/").unwrap();
    }

    #[test]
    fn installs_every_file_at_its_package_path_with_a_snippet() {
        let t = tempfile::tempdir().unwrap();
        let plugin = t.path().join("plugin");
        fake_plugin(&plugin);
        let out = t.path().join("out");
        let got = install(&plugin, &out, "/docs/_search").unwrap();
        for f in FILES {
            assert_eq!(
                std::fs::read(out.join("ui").join(f)).unwrap(),
                fake_bytes(f)
            );
        }
        assert_eq!(got.files, FILES.len() + 1); // and the snippet
        let snip = std::fs::read_to_string(out.join("ui/snippet.html")).unwrap();
        assert!(snip.contains("src=\"/docs/_search/ui/dist/element.js\""));
        assert!(snip.contains("index=\"/docs/_search/\""));
        // Idempotent.
        install(&plugin, &out, "/docs/_search").unwrap();
    }

    #[test]
    fn an_unbuilt_plugin_names_the_missing_file() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join("dist")).unwrap();
        std::fs::write(t.path().join("dist/element.js"), "x").unwrap();
        let err = locate(Some(t.path()), t.path()).unwrap_err().to_string();
        assert!(err.contains("dist/search.js is missing"), "{err}");
    }
}
