//! Compiles the generated EGGG parser (`src/parser.c`) and its external scanner (`src/scanner.c`)
//! with the `cc` crate.

fn main() {
    let src_dir = std::path::Path::new("src");

    let mut c_config = cc::Build::new();
    c_config
        .std("c11")
        .include(src_dir)
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-but-set-variable")
        .flag_if_supported("-Wno-trigraphs");
    #[cfg(target_env = "msvc")]
    c_config.flag("-utf-8");

    for file in ["parser.c", "scanner.c"] {
        let path = src_dir.join(file);
        c_config.file(&path);
        println!("cargo:rerun-if-changed={}", path.display());
    }
    println!("cargo:rerun-if-changed=src/tree_sitter/parser.h");
    println!("cargo:rerun-if-changed=src/tree_sitter/alloc.h");
    println!("cargo:rerun-if-changed=src/tree_sitter/array.h");

    c_config.compile("tree-sitter-egg");
}
