//! `aidocs-index demo`: render a site to static HTML with the search box and its public index, a
//! preview of the integration to `serve`.

use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_index::build::BuildError;
use clap::Args;

use super::common::fail;

#[derive(Args)]
pub struct DemoArgs {
    /// Site directory.
    site: PathBuf,
    #[arg(long)]
    out: PathBuf,
    /// The built site-plugin package (src/ and wasm/); default: $AIDOCS_PLUGIN_DIR,
    /// node_modules/aidocs-search, ./site-plugin, or the checkout this binary was built in.
    #[arg(long)]
    plugin: Option<PathBuf>,
}

pub fn run_demo(DemoArgs { site, out, plugin }: DemoArgs) -> ExitCode {
    match aidocs_index::demo::render_demo(&site, &out, plugin.as_deref()) {
        Ok(summary) => {
            for w in &summary.warnings {
                eprintln!("warning: {w}");
            }
            println!(
                "demo site written to {} ({} pages indexed in {}/)",
                out.display(),
                summary.pages,
                aidocs_index::demo::INDEX_DIR
            );
            ExitCode::SUCCESS
        }
        Err(e @ aidocs_index::demo::DemoError::Build(BuildError::Input(_))) => fail(3, e),
        Err(e) => fail(1, e),
    }
}
