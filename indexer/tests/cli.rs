//! The CLI contract the tests and benchmarks rely on: exit codes, JSON shapes, bad input.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_aidocs-index"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(name)
}

/// Runs `query --index DIR --json ARGS...` and parses its output.
fn query_json(index: &Path, args: &[&str]) -> serde_json::Value {
    let o = bin()
        .args(["query", "--index"])
        .arg(index)
        .arg("--json")
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn result_ids(v: &serde_json::Value) -> Vec<&str> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect()
}

/// Builds into `out` (`<tmp>/<web root>/<name>`) with the cache in `<tmp>/caches/<name>`: never
/// inside the output's parent, which may be served.
fn build(site: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let web_root = out.parent().expect("out has a parent");
    let cache = web_root
        .parent()
        .expect("the web root has a parent")
        .join("caches")
        .join(out.file_name().expect("out has a name"));
    bin()
        .arg("build")
        .arg(site)
        .arg("--out")
        .arg(out)
        .arg("--cache-dir")
        .arg(&cache)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn issue_2_build_query_batch_and_inspect() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("www/out");
    let o = build(&fixture("example-site"), &out, &["--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(summary["pages"].as_u64().unwrap() >= 8);
    assert!(summary["chunks"].as_u64().unwrap() > summary["pages"].as_u64().unwrap());

    let v = query_json(&out, &["POST /v1/users"]);
    let top = &v["results"][0];
    assert_eq!(top["id"], "api-reference/create-user");
    assert_eq!(top["kind"], "api");
    assert_eq!(top["api"]["operationId"], "createUser");
    for key in ["id", "url", "title", "kind", "score", "sections"] {
        assert!(top.get(key).is_some(), "missing {key}");
    }

    let queries = tmp.path().join("q.jsonl");
    std::fs::write(
        &queries,
        "{\"id\": \"a\", \"text\": \"x-request-id\"}\n{\"id\": 7, \"text\": \"refresh token\"}\n",
    )
    .unwrap();
    let o = bin()
        .args(["query", "--index"])
        .arg(&out)
        .arg("--queries")
        .arg(&queries)
        .args(["--k", "3"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["query_id"], "a");
    assert_eq!(lines[0]["results"][0]["id"], "guides/request-ids");
    assert_eq!(lines[1]["query_id"], "7");
    assert_eq!(lines[1]["results"][0]["id"], "guides/refresh-tokens");
    assert!(lines[1]["results"].as_array().unwrap().len() <= 3);

    // Filters.
    let v = query_json(&out, &["--kind", "api", "user"]);
    assert!(v["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["kind"] == "api"));
    let v = query_json(&out, &["--tag", "oauth", "token"]);
    let ids = result_ids(&v);
    assert_eq!(ids, ["guides/refresh-tokens", "guides/authentication"]);
    let v = query_json(&out, &["--group", "Advanced", "header"]);
    assert_eq!(v["results"][0]["id"], "guides/request-ids");
    let o = bin()
        .args(["query", "--index"])
        .arg(&out)
        .args(["--explain", "--json", "Refresh tokens"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["results"][0]["explain"]["boosts"][0]["boost"],
        "exact title"
    );

    let o = bin().arg("inspect").arg(&out).output().unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("all checksums and payloads verified"));
}

#[test]
fn issue_2_bad_input_is_reported_and_skipped_or_fails_under_strict() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("www/out");
    let o = build(&fixture("bad-site"), &out, &[]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("guides/bad-yaml.mdx:4: invalid YAML frontmatter"),
        "{err}"
    );
    assert!(
        err.contains("guides/unclosed.mdx:1: frontmatter opened with `---` is never closed"),
        "{err}"
    );
    assert!(err.contains("broken-openapi.json:4: invalid JSON"), "{err}");
    assert!(err.contains("`does-not-exist`"), "{err}");
    assert!(
        err.contains("snippet `/snippets/gone.mdx` not found"),
        "{err}"
    );
    assert!(err.contains("visibility: secret"), "{err}");
    let o = bin()
        .args(["query", "--index"])
        .arg(&out)
        .args([
            "--json",
            "missingsnippetmarker goodmarker badvisibilitymarker",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ids = result_ids(&v);
    assert_eq!(ids, ["good", "guides/missing-snippet"]);

    let strict_out = tmp.path().join("www/strict");
    let o = build(&fixture("bad-site"), &strict_out, &["--strict"]);
    assert_eq!(o.status.code(), Some(4));
    assert!(!strict_out.join("manifest.bin").exists());
    // A warm cache does not hide problems from --strict.
    let o = build(&fixture("bad-site"), &out, &["--strict"]);
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let o = build(&fixture("bad.jsonl"), &tmp.path().join("www/j"), &[]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.jsonl:2: invalid record"), "{err}");
    assert!(
        err.contains("bad.jsonl:3: invalid record: missing field `id`"),
        "{err}"
    );
    assert!(err.contains("bad.jsonl:4: duplicate id `r1`"), "{err}");
    assert!(err.contains("bad.jsonl:5: field `kind`"), "{err}");
}

#[test]
fn issue_2_exit_codes_for_missing_input_and_corrupt_index() {
    let tmp = tempfile::tempdir().unwrap();
    let o = build(&tmp.path().join("nope"), &tmp.path().join("www/out"), &[]);
    assert_eq!(o.status.code(), Some(3));
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("docs.json"), "{\n  \"navigation\": [,]\n}").unwrap();
    let o = build(&site, &tmp.path().join("www/out"), &[]);
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("docs.json"));

    let out = tmp.path().join("www/good");
    assert!(build(&fixture("legacy-site"), &out, &[]).status.success());
    let o = bin()
        .args(["query", "--index"])
        .arg(&out)
        .arg("deployctl rollback")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("Rollback"));
    // Corrupt one term shard: query and inspect fail with a message naming the file.
    let tdir = out.join("t");
    let shard = std::fs::read_dir(&tdir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&shard).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&shard, bytes).unwrap();
    let o = bin()
        .args(["query", "--index"])
        .arg(&out)
        .arg("deployctl")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("checksum_mismatch")
            && err.contains(&shard.file_name().unwrap().to_string_lossy().to_string()),
        "{err}"
    );
    let o = bin().arg("inspect").arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = bin()
        .args(["query", "--index"])
        .arg(tmp.path())
        .arg("x")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = bin()
        .args(["query", "--index"])
        .arg(&out)
        .args(["--kind", "blog", "x"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// `pages` and `embed` feed other engines (the benchmarks) the very text and vectors aidocs indexes.
#[test]
fn issue_7_pages_and_embed_give_other_engines_the_same_text_and_vectors() {
    let tmp = tempfile::tempdir().unwrap();
    let lines = |o: &std::process::Output| -> Vec<serde_json::Value> {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let o = bin()
        .arg("pages")
        .arg(fixture("example-site"))
        .output()
        .unwrap();
    let pages = lines(&o);
    let ids: Vec<&str> = pages.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"guides/refresh-tokens"), "{ids:?}");
    assert!(ids
        .iter()
        .all(|id| !id.starts_with("internal/") && !id.starts_with("private/")));
    assert!(pages.iter().all(|p| p.get("vector").is_none()));

    // Bad input names the file and exits 3 (input error).
    let o = bin()
        .args(["embed", "--queries"])
        .arg(tmp.path().join("missing.jsonl"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.jsonl"));

    if aidocs_index::embed::locate(None).is_err() {
        assert!(
            std::env::var_os("AIDOCS_REQUIRE_MODEL").is_none(),
            "AIDOCS_REQUIRE_MODEL is set but the model is not installed"
        );
        eprintln!("skipped the vector half: embedding model not installed");
        return;
    }
    let cache = tmp.path().join("cache");
    let with_vectors = || {
        bin()
            .arg("pages")
            .arg(fixture("example-site"))
            .arg("--vectors")
            .arg("--cache-dir")
            .arg(&cache)
            .output()
            .unwrap()
    };
    let o = with_vectors();
    let pages = lines(&o);
    assert!(!String::from_utf8_lossy(&o.stderr).contains(" 0 chunks embedded"));
    // The second export reuses the cached chunk vectors.
    let again = with_vectors();
    assert!(
        String::from_utf8_lossy(&again.stderr).contains(", 0 chunks embedded"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(lines(&again), pages);
    let queries = tmp.path().join("q.jsonl");
    std::fs::write(
        &queries,
        "{\"id\":\"q1\",\"text\":\"how do I renew my credentials\"}\n",
    )
    .unwrap();
    let o = bin()
        .arg("embed")
        .arg("--queries")
        .arg(&queries)
        .output()
        .unwrap();
    let q = lines(&o);
    assert_eq!(q.len(), 1);
    assert_eq!(q[0]["id"], "q1");
    let vec = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let qv = vec(&q[0]["vector"]);
    assert_eq!(qv.len(), 384);
    let best = pages
        .iter()
        .max_by(|a, b| {
            let dot = |p: &serde_json::Value| -> f64 {
                vec(&p["vector"]).iter().zip(&qv).map(|(x, y)| x * y).sum()
            };
            dot(a).total_cmp(&dot(b))
        })
        .unwrap();
    for p in &pages {
        let norm: f64 = vec(&p["vector"]).iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-3, "{}: |v|² = {norm}", p["id"]);
    }
    assert_eq!(
        best["id"], "guides/refresh-tokens",
        "nearest page to the query"
    );
}
