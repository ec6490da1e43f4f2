//! Names the commit the binary is built from, for `ludeme --version`: `0.1.0 (3f2c1a9b7d4e
//! 2026-11-26)`. Without git, or outside a checkout (a crate unpacked by `cargo install`), the
//! version is the package's alone.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = env!("CARGO_PKG_VERSION");
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    let date = git(&["log", "-1", "--format=%cs"]);
    let described = match (commit, date) {
        (Some(commit), Some(date)) => format!("{version} ({commit} {date})"),
        (Some(commit), None) => format!("{version} ({commit})"),
        _ => version.to_owned(),
    };
    println!("cargo:rustc-env=LUDEME_VERSION={described}");
    // A new commit changes HEAD (on a detached head) or the branch's ref (on a branch): either
    // builds the version again; nothing else does.
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        let git_dir = PathBuf::from(git_dir);
        println!("cargo:rerun-if-changed={}", git_dir.join("HEAD").display());
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            let common = git(&["rev-parse", "--git-common-dir"]).map_or(git_dir, PathBuf::from);
            // A path that does not exist would run this script on every build.
            for watched in [common.join(&reference), common.join("packed-refs")] {
                if watched.exists() {
                    println!("cargo:rerun-if-changed={}", watched.display());
                }
            }
        }
    }
}
