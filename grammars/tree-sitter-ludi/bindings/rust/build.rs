//! Compiles the generated Ludi parser (`src/parser.c`) with the `cc` crate.

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

    let parser_path = src_dir.join("parser.c");
    c_config.file(&parser_path);
    println!("cargo:rerun-if-changed={}", parser_path.to_str().unwrap());
    println!("cargo:rerun-if-changed=src/tree_sitter/parser.h");
    println!("cargo:rerun-if-changed=src/tree_sitter/alloc.h");
    println!("cargo:rerun-if-changed=src/tree_sitter/array.h");

    c_config.compile("tree-sitter-ludi");
}
