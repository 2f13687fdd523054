//! `aidocs-index serve DIR`: a small static server for the demo and for trying an index locally.
//!
//! Content-hashed shards (`t/…`, `m/…`, `v/…`) are served `immutable`; everything else, the manifest included,
//! must revalidate (ETag), so that a rebuilt index is picked up at once.
//!
//! Never serves outside `DIR`: a request path is resolved without `..`, then canonicalized (every
//! symlink followed) and must still lie inside the canonical `DIR` and be a regular file (no FIFO,
//! device or directory); anything else is a 404.
//!
//! HTTP/1.1 on std's sockets, a thread per connection up to [`MAX_CONNECTIONS`] (past it, `503`): a
//! client that stops reading holds its own thread until [`WRITE_TIMEOUT`], never anyone else's, and a
//! client has [`HEAD_TIMEOUT`] to send a request head of at most [`MAX_HEAD`] bytes. Request bodies
//! are never read nor buffered: a request that declares one is answered at once (`413`, or `405` for a
//! method other than GET and HEAD with a small body) and its connection closed. Files are streamed;
//! only those up to [`MAX_BUFFERED`] bytes are read whole (for a content ETag and gzip).
//!
//! Not a production server: a CDN or any static host does this job in production.

use std::fs::File;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, UNIX_EPOCH};

/// Connections served at once; a connection past it gets `503` and is closed.
pub const MAX_CONNECTIONS: usize = 512;
/// The most bytes a request line and its headers may take together (`431` past it).
pub const MAX_HEAD: usize = 16 * 1024;
/// How long a client has to send a whole request head, and how long a kept-alive connection may idle.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one write may wait for a client that does not read; then the connection is dropped.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(20);
/// Files up to this size are read whole (ETag from their content, gzip); larger ones are streamed.
pub const MAX_BUFFERED: u64 = 8 << 20;
/// The largest body a method other than GET or HEAD may declare and still get `405` rather than `413`.
pub const MAX_DECLARED_BODY: u64 = 1024;

const MAX_HEADERS: usize = 100;
const THREAD_STACK: usize = 256 * 1024;

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

/// Maps a request path to a file under `root`, refusing anything that would leave it lexically.
/// [`open_inside`] then checks where the path really leads.
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

/// Opens `path` if, once every symlink is followed, it is a regular file inside `root` (which must be
/// canonical). A symlink to a place inside `root` is served; one that leads out of it, a FIFO, a device
/// or a directory is not.
pub fn open_inside(root: &Path, path: &Path) -> Option<(File, std::fs::Metadata)> {
    let real = path.canonicalize().ok()?;
    if !real.starts_with(root) || !std::fs::metadata(&real).ok()?.is_file() {
        return None;
    }
    // Checked again on the handle: the path may have changed between the two looks.
    let file = File::open(&real).ok()?;
    let meta = file.metadata().ok()?;
    meta.is_file().then_some((file, meta))
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

fn gzip_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    let _ = enc.write_all(bytes);
    enc.finish().unwrap_or_default()
}

/// One parsed request head. Header names keep their case; look-ups ignore it.
#[derive(Debug)]
struct Request {
    method: String,
    target: String,
    http10: bool,
    headers: Vec<(String, String)>,
}

/// What a request says about its body.
#[derive(Debug, PartialEq)]
enum Body {
    None,
    Declared(u64),
    /// A `Transfer-Encoding`: a body of unknown length.
    Chunked,
    /// A `Content-Length` that is not a number, or several that differ.
    Invalid,
}

impl Request {
    fn header<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The comma-separated tokens of every `name` header, trimmed.
    fn tokens<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.header(name).flat_map(|v| v.split(',')).map(str::trim)
    }

    fn keep_alive(&self) -> bool {
        if self
            .tokens("Connection")
            .any(|t| t.eq_ignore_ascii_case("close"))
        {
            false
        } else if self.http10 {
            self.tokens("Connection")
                .any(|t| t.eq_ignore_ascii_case("keep-alive"))
        } else {
            true
        }
    }

    fn body(&self) -> Body {
        if self.header("Transfer-Encoding").next().is_some() {
            return Body::Chunked;
        }
        let mut len: Option<u64> = None;
        for t in self.tokens("Content-Length") {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Body::Invalid;
            }
            // Digits only: a parse failure is an overflow, a body too large either way.
            let n = t.parse::<u64>().unwrap_or(u64::MAX);
            if len.is_some_and(|l| l != n) {
                return Body::Invalid;
            }
            len = Some(n);
        }
        match len {
            None | Some(0) => Body::None,
            Some(n) => Body::Declared(n),
        }
    }

    /// The path of the target (origin form, or the path of an absolute-form target).
    fn path(&self) -> Option<&str> {
        let t = self.target.as_str();
        if t.starts_with('/') {
            return Some(t);
        }
        let rest = t
            .strip_prefix("http://")
            .or_else(|| t.strip_prefix("https://"))?;
        Some(rest.find('/').map_or("/", |i| &rest[i..]))
    }
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Parses a request head (without its blank line); `Err` is the status to answer with.
fn parse_head(head: &[u8]) -> Result<Request, u16> {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let mut parts = lines.next().ok_or(400u16)?.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(400);
    };
    if method.is_empty() || !method.bytes().all(is_tchar) || target.is_empty() {
        return Err(400);
    }
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        v if v.starts_with("HTTP/") => return Err(505),
        _ => return Err(400),
    };
    let mut headers = Vec::new();
    for line in lines {
        // Also refuses obsolete line folding (a line starting with white space).
        let Some((name, value)) = line.split_once(':') else {
            return Err(400);
        };
        if name.is_empty() || !name.bytes().all(is_tchar) {
            return Err(400);
        }
        if headers.len() == MAX_HEADERS {
            return Err(431);
        }
        headers.push((name.to_owned(), value.trim_matches([' ', '\t']).to_owned()));
    }
    Ok(Request {
        method: method.to_owned(),
        target: target.to_owned(),
        http10,
        headers,
    })
}

#[derive(Debug, PartialEq)]
enum HeadError {
    /// The client closed the connection, or it idled out before sending a byte of a request.
    Closed,
    /// A request began but its head did not arrive in time.
    TimedOut,
    TooLarge,
}

/// Where the head ends in `buf`: (end of its last line, start of what follows the blank line).
fn head_end(buf: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while let Some(p) = buf[i..].iter().position(|&b| b == b'\n') {
        let nl = i + p;
        match buf.get(nl + 1) {
            Some(b'\n') => return Some((nl, nl + 2)),
            Some(b'\r') if buf.get(nl + 2) == Some(&b'\n') => return Some((nl, nl + 3)),
            _ => {}
        }
        i = nl + 1;
    }
    None
}

/// Reads one request head from `stream`; bytes after it stay in `buf` (a pipelined request).
fn read_head(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<Vec<u8>, HeadError> {
    let deadline = Instant::now() + HEAD_TIMEOUT;
    let mut chunk = [0u8; 4096];
    loop {
        // Blank lines before a request line are ignored (RFC 9112, 2.2).
        let blank = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        buf.drain(..blank);
        if let Some((end, next)) = head_end(buf) {
            let rest = buf.split_off(next);
            let mut head = std::mem::replace(buf, rest);
            head.truncate(end);
            return Ok(head);
        }
        if buf.len() > MAX_HEAD {
            return Err(HeadError::TooLarge);
        }
        let waited = |buf: &Vec<u8>| {
            if buf.is_empty() {
                HeadError::Closed
            } else {
                HeadError::TimedOut
            }
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return Err(waited(buf));
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Err(HeadError::Closed),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(waited(buf))
            }
            Err(_) => return Err(HeadError::Closed),
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        304 => "Not Modified",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Internal Server Error",
    }
}

/// A response head. `len` is the body's length (`None` for a 304, which has no body).
fn response_head(
    status: u16,
    headers: &[(&str, &str)],
    len: Option<u64>,
    close: bool,
    http10: bool,
) -> Vec<u8> {
    let mut h = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (k, v) in headers {
        h.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(len) = len {
        h.push_str(&format!("Content-Length: {len}\r\n"));
    }
    if close {
        h.push_str("Connection: close\r\n");
    } else if http10 {
        h.push_str("Connection: keep-alive\r\n");
    }
    h.push_str("\r\n");
    h.into_bytes()
}

/// A short plain-text answer (errors). The body is left out for HEAD.
fn send_plain(
    stream: &mut TcpStream,
    status: u16,
    extra: &[(&str, &str)],
    close: bool,
    req: Option<&Request>,
) -> io::Result<()> {
    let body = format!("{}\n", reason(status).to_ascii_lowercase());
    let mut headers = vec![
        ("Content-Type", "text/plain; charset=utf-8"),
        ("X-Content-Type-Options", "nosniff"),
    ];
    headers.extend_from_slice(extra);
    let http10 = req.is_some_and(|r| r.http10);
    let mut out = response_head(status, &headers, Some(body.len() as u64), close, http10);
    if req.is_none_or(|r| r.method != "HEAD") {
        out.extend_from_slice(body.as_bytes());
    }
    stream.write_all(&out)?;
    stream.flush()
}

/// What to do with the connection after a response.
#[derive(Debug, PartialEq)]
enum Next {
    KeepAlive,
    Close,
    /// Close, after giving a body the client may still be sending a moment to arrive (bounded), so
    /// that the answer is not lost to a reset.
    Linger,
}

fn etag_matches(req: &Request, etag: &str) -> bool {
    req.tokens("If-None-Match")
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag)
}

/// Answers one request. `Err` means the client went away or stopped reading.
fn respond(stream: &mut TcpStream, root: &Path, req: &Request) -> io::Result<Next> {
    let get_or_head = matches!(req.method.as_str(), "GET" | "HEAD");
    let body = req.body();
    // Decided from the head alone: a body is never read, nor a buffer sized for it.
    let refuse = match (&body, get_or_head) {
        (Body::None, true) => None,
        (Body::Invalid, _) => Some(400),
        (Body::None, false) => Some(405),
        (Body::Declared(n), false) if *n <= MAX_DECLARED_BODY => Some(405),
        _ => Some(413),
    };
    let keep = req.keep_alive();
    if let Some(status) = refuse {
        let unread = body != Body::None;
        let allow: &[(&str, &str)] = if status == 405 {
            &[("Allow", "GET, HEAD")]
        } else {
            &[]
        };
        send_plain(stream, status, allow, unread || !keep, Some(req))?;
        return Ok(if unread {
            Next::Linger
        } else if keep {
            Next::KeepAlive
        } else {
            Next::Close
        });
    }
    let next = if keep { Next::KeepAlive } else { Next::Close };
    let Some(file) = req.path().and_then(|p| resolve(root, p)) else {
        send_plain(stream, 400, &[], !keep, Some(req))?;
        return Ok(next);
    };
    let Some((mut f, meta)) = open_inside(root, &file) else {
        send_plain(stream, 404, &[], !keep, Some(req))?;
        return Ok(next);
    };
    let rel = file
        .strip_prefix(root)
        .unwrap_or(&file)
        .to_string_lossy()
        .replace('\\', "/");
    let ty = mime(&file);
    let head_only = req.method == "HEAD";
    let len = meta.len();

    let buffered = if len <= MAX_BUFFERED {
        let mut bytes = Vec::with_capacity(len as usize);
        if (&mut f).take(MAX_BUFFERED).read_to_end(&mut bytes).is_err() {
            send_plain(stream, 500, &[], true, Some(req))?;
            return Ok(Next::Close);
        }
        Some(bytes)
    } else {
        None
    };
    let etag = match &buffered {
        Some(bytes) => format!("\"{}\"", &blake3::hash(bytes).to_hex()[..16]),
        None => {
            let mtime = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("\"{len:x}-{mtime:x}\"")
        }
    };
    let mut headers = vec![
        ("Cache-Control", cache_control(&rel)),
        ("ETag", etag.as_str()),
        ("X-Content-Type-Options", "nosniff"),
    ];
    if etag_matches(req, &etag) {
        stream.write_all(&response_head(304, &headers, None, !keep, req.http10))?;
        stream.flush()?;
        return Ok(next);
    }
    headers.push(("Content-Type", ty));
    headers.push(("Vary", "Accept-Encoding"));
    let Some(bytes) = buffered else {
        // Streamed as it is: a client that stops reading blocks this thread only, until WRITE_TIMEOUT.
        stream.write_all(&response_head(200, &headers, Some(len), !keep, req.http10))?;
        if !head_only {
            let mut chunk = vec![0u8; 64 * 1024];
            let mut left = len;
            while left > 0 {
                let want = chunk.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                let n = match f.read(&mut chunk[..want]) {
                    Ok(0) => return Ok(Next::Close), // the file shrank: the framing is broken
                    Ok(n) => n,
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(_) => return Ok(Next::Close),
                };
                stream.write_all(&chunk[..n])?;
                left -= n as u64;
            }
        }
        stream.flush()?;
        return Ok(next);
    };
    // Compress what static hosts compress (text and wasm), as a reader's browser would receive it;
    // shards are already zlib inside their envelope.
    let gzip = !ty.starts_with("application/octet-stream")
        && !ty.starts_with("image/png")
        && req.tokens("Accept-Encoding").any(|t| {
            t.split(';')
                .next()
                .is_some_and(|c| c.trim().eq_ignore_ascii_case("gzip"))
        });
    let body = if gzip { gzip_bytes(&bytes) } else { bytes };
    if gzip {
        headers.push(("Content-Encoding", "gzip"));
    }
    let mut out = response_head(200, &headers, Some(body.len() as u64), !keep, req.http10);
    if !head_only {
        out.extend_from_slice(&body);
    }
    stream.write_all(&out)?;
    stream.flush()?;
    Ok(next)
}

/// Closes a connection whose request body was not read: stops writing, then discards what the client
/// is still sending for at most a second and 256 KiB (into a fixed buffer), so that closing with unread
/// data does not reset the connection before the client has read the answer.
fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut sink = [0u8; 8192];
    let mut budget = 256 * 1024usize;
    while budget > 0 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => budget = budget.saturating_sub(n),
        }
    }
}

fn handle_connection(mut stream: TcpStream, root: &Path) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut buf = Vec::new();
    loop {
        let head = match read_head(&mut stream, &mut buf) {
            Ok(head) => head,
            Err(HeadError::TimedOut) => {
                let _ = send_plain(&mut stream, 408, &[], true, None);
                break;
            }
            Err(HeadError::TooLarge) => {
                let _ = send_plain(&mut stream, 431, &[], true, None);
                break;
            }
            Err(HeadError::Closed) => break,
        };
        let req = match parse_head(&head) {
            Ok(req) => req,
            Err(status) => {
                // Where the next request would start is unknown: answer and close.
                let _ = send_plain(&mut stream, status, &[], true, None);
                break;
            }
        };
        match respond(&mut stream, root, &req) {
            Ok(Next::KeepAlive) => {}
            Ok(Next::Linger) => {
                linger(&mut stream);
                return;
            }
            Ok(Next::Close) | Err(_) => break,
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// Counts a connection in [`serve`] while it lives.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `root` on `host:port` until the process ends; `ready` gets the bound address.
pub fn serve(root: &Path, host: &str, port: u16, ready: impl FnOnce(&str)) -> io::Result<()> {
    let root = Arc::new(root.canonicalize()?);
    let listener = TcpListener::bind((host, port))?;
    let addr = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| format!("{host}:{port}"));
    ready(&addr);
    let active = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        let mut stream = match conn {
            Ok(stream) => stream,
            // Out of descriptors or an aborted handshake: back off a moment and keep serving.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        if active.load(Ordering::Acquire) >= MAX_CONNECTIONS {
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = send_plain(&mut stream, 503, &[("Retry-After", "1")], true, None);
            let _ = stream.shutdown(Shutdown::Write);
            continue;
        }
        active.fetch_add(1, Ordering::AcqRel);
        let slot = Slot(Arc::clone(&active));
        let root = Arc::clone(&root);
        // A failed spawn drops the closure, and with it the slot and the connection.
        let _ = std::thread::Builder::new()
            .name("serve-conn".into())
            .stack_size(THREAD_STACK)
            .spawn(move || {
                let _slot = slot;
                handle_connection(stream, &root);
            });
    }
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

    fn canonical_tempdir() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        let root = root.canonicalize().unwrap();
        (dir, root)
    }

    #[cfg(unix)]
    #[test]
    fn issue_18_symlinks_out_of_the_root_are_refused_and_inside_ones_served() {
        use std::os::unix::fs::symlink;
        let (dir, root) = canonical_tempdir();
        std::fs::create_dir(root.join("docs")).unwrap();
        std::fs::write(root.join("docs/page.txt"), "inside").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "outside").unwrap();
        symlink("/etc", root.join("etc")).unwrap();
        symlink(dir.path().join("secret.txt"), root.join("secret.txt")).unwrap();
        symlink(dir.path(), root.join("up")).unwrap();
        symlink(root.join("docs"), root.join("alias")).unwrap();
        symlink("docs/page.txt", root.join("rel.txt")).unwrap();

        let open = |url: &str| resolve(&root, url).and_then(|p| open_inside(&root, &p));
        assert!(open("/etc/passwd").is_none(), "a symlink to /etc");
        assert!(open("/etc/hostname").is_none());
        assert!(open("/secret.txt").is_none(), "a symlink to a file outside");
        assert!(
            open("/up/secret.txt").is_none(),
            "a symlink to the root's parent"
        );
        assert!(
            open("/up/root/docs/page.txt").is_some(),
            "out and back in: the real path is inside"
        );
        let mut s = String::new();
        open("/alias/page.txt")
            .unwrap()
            .0
            .read_to_string(&mut s)
            .unwrap();
        assert_eq!(s, "inside", "a symlink that stays inside is served");
        assert!(open("/rel.txt").is_some());
        assert!(open("/docs/page.txt").is_some());
        assert!(open("/docs").is_none(), "a directory without index.html");
        assert!(open("/missing.txt").is_none());
    }

    #[cfg(unix)]
    #[test]
    fn issue_18_fifos_and_devices_are_refused_without_blocking() {
        use std::os::unix::fs::symlink;
        let (_dir, root) = canonical_tempdir();
        let fifo = root.join("pipe.txt");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        // Opening a FIFO for reading would block until a writer came: it must be refused before.
        let (tx, rx) = std::sync::mpsc::channel();
        let r = root.clone();
        std::thread::spawn(move || {
            let got = resolve(&r, "/pipe.txt").and_then(|p| open_inside(&r, &p));
            let _ = tx.send(got.is_none());
        });
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(true));
        symlink("/dev/zero", root.join("zero")).unwrap();
        assert!(resolve(&root, "/zero")
            .and_then(|p| open_inside(&root, &p))
            .is_none());
    }

    fn parse(s: &str) -> Request {
        parse_head(s.as_bytes()).unwrap()
    }

    #[test]
    fn issue_18_bodies_are_judged_from_the_head() {
        let r = parse("GET / HTTP/1.1\r\nContent-Length: 99999999999");
        assert_eq!(r.body(), Body::Declared(99_999_999_999));
        let r = parse("GET / HTTP/1.1\r\nContent-Length: 999999999999999999999999");
        assert_eq!(r.body(), Body::Declared(u64::MAX));
        assert_eq!(
            parse("POST / HTTP/1.1\r\nContent-Length: -1").body(),
            Body::Invalid
        );
        assert_eq!(
            parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2").body(),
            Body::Invalid
        );
        assert_eq!(
            parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked").body(),
            Body::Chunked
        );
        assert_eq!(
            parse("GET / HTTP/1.1\r\ncontent-length: 0").body(),
            Body::None
        );
        assert!(parse("GET / HTTP/1.0").http10);
        assert!(!parse("GET / HTTP/1.0").keep_alive());
        assert!(parse("GET / HTTP/1.1").keep_alive());
        assert!(!parse("GET / HTTP/1.1\r\nConnection: Close").keep_alive());
        assert_eq!(parse_head(b"GET / HTTP/2.0").unwrap_err(), 505);
        assert_eq!(parse_head(b"GET /").unwrap_err(), 400);
        assert_eq!(parse_head(b"GET / HTTP/1.1\r\n folded").unwrap_err(), 400);
        assert_eq!(
            parse("GET http://h:1/a/b?x HTTP/1.1").path(),
            Some("/a/b?x")
        );
        assert_eq!(
            head_end(b"GET / HTTP/1.1\r\nA: b\r\n\r\nnext"),
            Some((21, 24))
        );
        assert_eq!(head_end(b"GET / HTTP/1.1\nA: b\n\nnext"), Some((19, 21)));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n"), None);
    }
}
