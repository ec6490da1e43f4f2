//! Compiles the generated parsers: `kif/src` (the prefix KIF grammar, C symbol
//! `tree_sitter_gdl`, with its error-recovery scanner), `kif-fast/src` (the same grammar without
//! the scanner, `tree_sitter_gdl_fast`: see kif/grammar.js) and `infix/src` (the infix Gamemaster
//! grammar, `tree_sitter_hrf`, with its scanner).

use std::path::Path;

fn compile(dir: &str, lib_name: &str, with_scanner: bool) {
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

    let files: &[&str] = if with_scanner {
        &["parser.c", "scanner.c"]
    } else {
        &["parser.c"]
    };
    for file in files {
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
    compile("kif", "tree-sitter-gdl-kif", true);
    compile("kif-fast", "tree-sitter-gdl-kif-fast", false);
    compile("infix", "tree-sitter-gdl-infix", true);
}
