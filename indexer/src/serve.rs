//! `aidocs-index serve DIR`: a small static server for the demo and for trying an index locally.
//!
//! Content-hashed shards (`t/…`, `m/…`, `v/…`) are served `immutable`; everything else, the manifest included,
//! must revalidate (ETag), so that a rebuilt index is picked up at once. Never serves outside `DIR`.
//! Not a production server: a CDN or any static host does this job in production.

use std::path::{Component, Path, PathBuf};

use tiny_http::{Header, Method, Request, Response, Server};

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Maps a request path to a file under `root`, refusing anything that would leave it.
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let path = url_path.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path)?;
    let mut out = root.to_path_buf();
    for c in Path::new(decoded.trim_start_matches('/')).components() {
        match c {
            Component::Normal(s) => out.push(s),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if out.is_dir() {
        out.push("index.html");
    }
    Some(out)
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    let s = String::from_utf8(out).ok()?;
    (!s.contains('\0')).then_some(s)
}

/// `Cache-Control` for a served file: immutable for content-hashed shards, revalidate for the rest.
pub fn cache_control(rel: &str) -> &'static str {
    let hashed = rel
        .split('/')
        .rev()
        .nth(1)
        .is_some_and(|d| crate::export::INDEX_DIRS.contains(&d))
        && rel.ends_with(".bin");
    if hashed {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    }
}

fn header(k: &str, v: &str) -> Header {
    Header::from_bytes(k.as_bytes(), v.as_bytes())
        .expect("static header names and values are valid")
}

fn respond(root: &Path, req: Request) {
    let url = req.url().to_owned();
    if !matches!(req.method(), Method::Get | Method::Head) {
        let _ = req.respond(Response::from_string("method not allowed\n").with_status_code(405));
        return;
    }
    let Some(file) = resolve(root, &url) else {
        let _ = req.respond(Response::from_string("bad path\n").with_status_code(400));
        return;
    };
    let Ok(bytes) = std::fs::read(&file) else {
        let _ = req.respond(
            Response::from_string("not found\n")
                .with_status_code(404)
                .with_header(header("Content-Type", "text/plain; charset=utf-8")),
        );
        return;
    };
    let etag = format!("\"{}\"", &blake3::hash(&bytes).to_hex()[..16]);
    let rel = file
        .strip_prefix(root)
        .unwrap_or(&file)
        .to_string_lossy()
        .replace('\\', "/");
    let fresh = req
        .headers()
        .iter()
        .any(|h| h.field.equiv("If-None-Match") && h.value.as_str() == etag);
    let common = [
        header("Cache-Control", cache_control(&rel)),
        header("ETag", &etag),
        header("X-Content-Type-Options", "nosniff"),
    ];
    if fresh {
        let mut r = Response::empty(304);
        for h in common {
            r.add_header(h);
        }
        let _ = req.respond(r);
        return;
    }
    let head = *req.method() == Method::Head;
    let ty = mime(&file);
    // Compress what static hosts compress (text and wasm), as a reader's browser would receive it;
    // shards are already zlib inside their envelope.
    let gzip = !ty.starts_with("application/octet-stream")
        && !ty.starts_with("image/png")
        && req
            .headers()
            .iter()
            .any(|h| h.field.equiv("Accept-Encoding") && h.value.as_str().contains("gzip"));
    let body = if head {
        Vec::new()
    } else if gzip {
        gzip_bytes(&bytes)
    } else {
        bytes
    };
    let mut r = Response::from_data(body).with_header(header("Content-Type", ty));
    for h in common {
        r.add_header(h);
    }
    r.add_header(header("Vary", "Accept-Encoding"));
    if gzip {
        r.add_header(header("Content-Encoding", "gzip"));
    }
    let _ = req.respond(r);
}

fn gzip_bytes(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    let _ = enc.write_all(bytes);
    enc.finish().unwrap_or_default()
}

/// Serves `root` on `host:port` until the process ends; `ready` gets the bound address.
pub fn serve(root: &Path, host: &str, port: u16, ready: impl FnOnce(&str)) -> std::io::Result<()> {
    let server = Server::http((host, port)).map_err(std::io::Error::other)?;
    let addr = server
        .server_addr()
        .to_ip()
        .map(|a| a.to_string())
        .unwrap_or_else(|| format!("{host}:{port}"));
    ready(&addr);
    let root = root.to_path_buf();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                while let Ok(req) = server.recv() {
                    respond(&root, req);
                }
            });
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_never_leave_the_root() {
        let root = Path::new("/srv/site");
        assert_eq!(resolve(root, "/a/b.js?x=1"), Some(root.join("a/b.js")));
        assert_eq!(resolve(root, "/../etc/passwd"), None);
        assert_eq!(resolve(root, "/a/%2e%2e/%2e%2e/etc"), None);
        assert_eq!(resolve(root, "/a%00b"), None);
    }

    #[test]
    fn hashed_shards_are_immutable_and_the_manifest_revalidates() {
        assert_eq!(
            cache_control("_search/t/abc.bin"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(
            cache_control("_search/m/abc.bin"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(cache_control("_search/manifest.bin"), "no-cache");
        assert_eq!(cache_control("guides/index.html"), "no-cache");
    }
}
