//! `aidocs-index serve`: serve a directory over HTTP (127.0.0.1:8080 unless told otherwise; shards
//! immutable, manifest and pages revalidated).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::common::fail;

#[derive(Args)]
pub struct ServeArgs {
    dir: PathBuf,
    #[arg(long, default_value_t = 8080)]
    port: u16,
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
}

pub fn run_serve(ServeArgs { dir, port, host }: ServeArgs) -> ExitCode {
    if !dir.is_dir() {
        return fail(3, format!("{}: not a directory", dir.display()));
    }
    let served = aidocs_index::serve::serve(&dir, &host, port, |addr| {
        println!(
            "serving {} at http://{addr}/  (Ctrl-C to stop)",
            dir.display()
        );
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(1, format!("cannot serve on {host}:{port}: {e}")),
    }
}
