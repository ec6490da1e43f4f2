//! `ludeme explain CODE`: the long form of a diagnostic.

use ludeme_analysis::rules;

use crate::exit;

pub fn run(code: Option<&str>) -> u8 {
    let Some(code) = code else {
        for rule in rules::all() {
            println!(
                "{:<28} {:<8} {}",
                rule.code,
                rule.severity.as_str(),
                rule.summary
            );
        }
        return exit::CLEAN;
    };
    match rules::find(code) {
        Some(rule) => {
            println!("{} ({})", rule.code, rule.severity.as_str());
            println!();
            println!("{}", rule.summary);
            println!();
            println!("{}", rule.explanation);
            exit::CLEAN
        }
        None => {
            eprintln!(
                "ludeme explain: no diagnostic has the code `{code}`; `ludeme explain` lists them all"
            );
            exit::FAILURE
        }
    }
}
