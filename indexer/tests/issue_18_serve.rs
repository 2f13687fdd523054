//! Issue 18: `aidocs-index serve` facing hostile and slow clients, over real sockets on 127.0.0.1.
//!
//! The server runs in a thread of this process: a request that aborted it would end the test binary.
//! Deadlines are generous (these run on 2 busy cores); the slow-client test prints its latencies
//! (`cargo test -p aidocs-index --test issue_18_serve -- --nocapture`); `scripts/serve-load.mjs`
//! measures the same against the built binary.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

const BIG: usize = 20 << 20;

fn start(root: &Path) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    let root = root.to_path_buf();
    std::thread::spawn(move || {
        let served = aidocs_index::serve::serve(&root, "127.0.0.1", 0, |addr| {
            let _ = tx.send(addr.to_owned());
        });
        panic!("serve returned: {served:?}");
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the server starts")
}

/// A site: small files, and `big.bin` (20 MB, streamed).
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("index.html"), "<!doctype html><h1>home</h1>\n").unwrap();
    std::fs::write(root.join("small.txt"), "small file\n").unwrap();
    std::fs::create_dir_all(root.join("_search/t")).unwrap();
    std::fs::write(root.join("_search/t/abc.bin"), [7u8; 3000]).unwrap();
    let mut big = vec![0u8; BIG];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for b in big.iter_mut() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = x as u8;
    }
    std::fs::write(root.join("big.bin"), &big).unwrap();
    dir
}

/// Status, headers (lower-cased names) and body of one response.
struct Resp {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Resp {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn parse(buf: &[u8]) -> Resp {
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head in {:?}", String::from_utf8_lossy(buf)));
    let head = String::from_utf8_lossy(&buf[..end]);
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Resp {
        status,
        headers,
        body: buf[end + 4..].to_vec(),
    }
}

/// Sends `raw` on a new connection and reads until the server closes it.
fn exchange(addr: &str, raw: &[u8]) -> std::io::Result<Resp> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(20)))?;
    s.set_write_timeout(Some(Duration::from_secs(20)))?;
    s.write_all(raw)?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)?;
    Ok(parse(&buf))
}

fn get(addr: &str, path: &str) -> std::io::Result<Resp> {
    exchange(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[test]
fn issue_18_a_huge_content_length_is_answered_without_reading_the_body() {
    let dir = site();
    let addr = start(dir.path());
    let t0 = Instant::now();
    for (raw, status) in [
        (
            "GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999\r\n\r\n",
            413,
        ),
        (
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999\r\n\r\n",
            413,
        ),
        (
            "HEAD / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999\r\n\r\n",
            413,
        ),
        (
            "PUT /x HTTP/1.1\r\nHost: t\r\nContent-Length: 18446744073709551616\r\n\r\n",
            413,
        ),
        (
            "GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n",
            413,
        ),
        (
            "GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n",
            413,
        ),
        (
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello",
            405,
        ),
        (
            "DELETE / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
            405,
        ),
        (
            "GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1x\r\n\r\n",
            400,
        ),
    ] {
        // Only the head is sent: the answer must come without the body, and close the connection.
        let r =
            exchange(&addr, raw.as_bytes()).unwrap_or_else(|e| panic!("{raw:?}: no answer: {e}"));
        assert_eq!(r.status, status, "{raw:?}");
        assert_eq!(r.header("connection"), Some("close"), "{raw:?}");
        if raw.starts_with("HEAD") {
            assert!(r.body.is_empty());
        }
    }
    // Twenty at once, then the server is still there.
    let clients: Vec<_> = (0..20)
        .map(|_| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                exchange(
                    &addr,
                    b"POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999\r\n\r\n",
                )
                .map(|r| r.status)
            })
        })
        .collect();
    for c in clients {
        assert_eq!(c.join().unwrap().unwrap(), 413);
    }
    let r = get(&addr, "/small.txt").unwrap();
    assert_eq!((r.status, r.body.as_slice()), (200, &b"small file\n"[..]));
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
}

#[cfg(unix)]
#[test]
fn issue_18_symlinks_out_of_the_root_and_fifos_are_404_over_http() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("docs/page.html"), "inside\n").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "outside\n").unwrap();
    symlink("/etc", root.join("etc")).unwrap();
    symlink(dir.path().join("secret.txt"), root.join("secret.txt")).unwrap();
    symlink(root.join("docs"), root.join("alias")).unwrap();
    symlink("/dev/zero", root.join("zero.bin")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(root.join("pipe.txt"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let addr = start(&root);

    for path in [
        "/etc/passwd",
        "/etc/hostname",
        "/secret.txt",
        "/pipe.txt",
        "/zero.bin",
        "/docs/missing",
    ] {
        let r = get(&addr, path).unwrap();
        assert_eq!(r.status, 404, "{path}");
        let body = String::from_utf8_lossy(&r.body);
        assert!(
            !body.contains("root:") && !body.contains("outside"),
            "{path}"
        );
    }
    let r = get(&addr, "/alias/page.html").unwrap();
    assert_eq!(
        (r.status, r.body.as_slice()),
        (200, &b"inside\n"[..]),
        "a symlink inside the root"
    );
    assert_eq!(get(&addr, "/../secret.txt").unwrap().status, 400);
}

#[test]
fn issue_18_fifty_slow_clients_holding_a_big_file_do_not_stall_others() {
    let dir = site();
    let addr = start(dir.path());
    // Fifty clients ask for 20 MB and never read: each fills its socket buffers and blocks a writer.
    let slow: Vec<TcpStream> = (0..50)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).unwrap();
            s.write_all(b"GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n")
                .unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));

    let t0 = Instant::now();
    let normal: Vec<_> = (0..20)
        .map(|i| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let path = ["/small.txt", "/", "/_search/t/abc.bin", "/index.html"][i % 4];
                let t = Instant::now();
                let r = get(&addr, path)?;
                Ok::<_, std::io::Error>((r.status, t.elapsed()))
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for n in normal {
        match n.join().unwrap() {
            Ok((200, took)) => latencies.push(took),
            other => {
                errors += 1;
                eprintln!("normal request failed: {other:?}");
            }
        }
    }
    let wall = t0.elapsed();
    // And a whole big file, streamed, while the slow ones still hold theirs.
    let t = Instant::now();
    let big = get(&addr, "/big.bin").unwrap();
    let big_took = t.elapsed();
    latencies.sort();
    eprintln!(
        "issue 18 load: 50 slow clients; 20 concurrent normal requests: {errors} errors, p50 {:?}, \
         p95 {:?}, max {:?}, wall {wall:?}; a 20 MB GET beside them {big_took:?}",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.95),
        latencies.last().unwrap(),
    );
    assert_eq!(errors, 0);
    assert!(wall < Duration::from_secs(20), "{wall:?}");
    assert_eq!(big.status, 200);
    assert_eq!(big.body.len(), BIG);
    assert_eq!(big.header("content-length"), Some(BIG.to_string().as_str()));
    assert_eq!(big.body, std::fs::read(dir.path().join("big.bin")).unwrap());
    drop(slow);
}

#[test]
fn issue_18_keep_alive_pipelining_and_slow_heads() {
    let dir = site();
    let addr = start(dir.path());
    // Two pipelined requests on one connection, the second closing it.
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(
        b"GET /small.txt HTTP/1.1\r\nHost: t\r\n\r\nHEAD /index.html HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf);
    assert_eq!(text.matches("HTTP/1.1 200 OK").count(), 2, "{text}");
    assert!(text.contains("small file\n"));
    assert!(text.contains("Content-Encoding: gzip"));

    // A client that sends half a head and stalls holds only its own connection.
    let mut stalled = TcpStream::connect(&addr).unwrap();
    stalled.write_all(b"GET /small.txt HTTP/1.1\r\nHo").unwrap();
    let r = get(&addr, "/small.txt").unwrap();
    assert_eq!(r.status, 200);
    // It is answered 408 once its time is up.
    stalled
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut buf = Vec::new();
    stalled.read_to_end(&mut buf).unwrap();
    assert_eq!(parse(&buf).status, 408);

    // ETag revalidation still works; shards are immutable.
    let r = get(&addr, "/_search/t/abc.bin").unwrap();
    assert_eq!(
        r.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    let etag = r.header("etag").unwrap().to_owned();
    let r = exchange(
        &addr,
        format!("GET /_search/t/abc.bin HTTP/1.1\r\nHost: t\r\nIf-None-Match: {etag}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
    .unwrap();
    assert_eq!(r.status, 304);
    assert!(r.body.is_empty());
}
