//! Compiles the two generated parsers, each with its external scanner:
//! `kif/src` (the prefix KIF grammar, C symbol `tree_sitter_gdl`) and
//! `infix/src` (the infix Gamemaster grammar, C symbol `tree_sitter_hrf`).

use std::path::Path;

fn compile(dir: &str, lib_name: &str) {
    let src_dir = Path::new(dir).join("src");

    let mut c_config = cc::Build::new();
    c_config
        .std("c11")
        .include(&src_dir)
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-but-set-variable")
        .flag_if_supported("-Wno-unused-label")
        .flag_if_supported("-Wno-trigraphs");
    #[cfg(target_env = "msvc")]
    c_config.flag("-utf-8");

    for file in ["parser.c", "scanner.c"] {
        let path = src_dir.join(file);
        c_config.file(&path);
        println!("cargo:rerun-if-changed={}", path.display());
    }
    for header in ["parser.h", "alloc.h", "array.h"] {
        println!(
            "cargo:rerun-if-changed={}",
            src_dir.join("tree_sitter").join(header).display()
        );
    }

    c_config.compile(lib_name);
}

fn main() {
    compile("kif", "tree-sitter-gdl-kif");
    compile("infix", "tree-sitter-gdl-infix");
}
