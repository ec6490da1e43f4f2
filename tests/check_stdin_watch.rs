//! `--stdin-filename` (check and fmt: the game read from standard input, reported under the
//! name given) and `check --watch` (checked again after a change, until stopped).

mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// `ludeme ARGS` in `dir` with `input` on standard input.
fn ludeme_with_input(dir: &Path, args: &[&str], input: &str) -> Output {
    support::ludeme_with_input(args, dir, input)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// A KIF game with an error on line 5: `?y` is bound by nothing (`gdl/unsafe-variable`).
const BROKEN_KIF: &str = "(role x)\n(init (cell 1))\n(<= (legal x noop) (true (cell 1)))\n(<= (next (cell 1)) (does x noop))\n(<= terminal (true (cell ?x)) (distinct ?y 2))\n(<= (goal x 100) terminal)\n";

#[test]
fn check_reports_standard_input_under_the_name_given() {
    let folder = tempfile::tempdir().unwrap();
    // The name need not exist; nothing is written.
    let piped = ludeme_with_input(
        folder.path(),
        &[
            "check",
            "--output-format",
            "concise",
            "--stdin-filename",
            "games/unsaved.kif",
        ],
        BROKEN_KIF,
    );
    let report = text(&piped.stdout);
    assert!(
        report
            .lines()
            .any(|line| line.starts_with("games/unsaved.kif:5:")),
        "{report}{}",
        text(&piped.stderr)
    );
    // The same diagnostics as the file on disk.
    std::fs::create_dir(folder.path().join("games")).unwrap();
    std::fs::write(folder.path().join("games/saved.kif"), BROKEN_KIF).unwrap();
    let saved = support::ludeme_in(
        &["check", "--output-format", "concise", "games/saved.kif"],
        folder.path(),
    );
    assert_eq!(report.replace("unsaved", "saved"), text(&saved.stdout));
    assert_eq!(piped.status.code(), saved.status.code());
    assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 1);

    // The settings are those of the name's folder.
    std::fs::write(
        folder.path().join("games/ludeme.toml"),
        "[rules]\ndisable = [\"gdl\"]\n",
    )
    .unwrap();
    let with_settings = ludeme_with_input(
        folder.path(),
        &[
            "check",
            "--output-format",
            "json",
            "--stdin-filename",
            "games/unsaved.kif",
        ],
        BROKEN_KIF,
    );
    assert_eq!(text(&with_settings.stdout).trim(), "[]");
}

#[test]
fn stdin_filename_takes_no_other_path_and_no_fix() {
    let folder = tempfile::tempdir().unwrap();
    let both = ludeme_with_input(
        folder.path(),
        &["check", "--stdin-filename", "a.kif", "b.kif"],
        BROKEN_KIF,
    );
    assert_eq!(both.status.code(), Some(2));
    assert!(text(&both.stderr).contains("--stdin-filename"));
    let dash = ludeme_with_input(
        folder.path(),
        &["check", "--stdin-filename", "a.kif", "-"],
        BROKEN_KIF,
    );
    assert_eq!(dash.status.code(), Some(1), "{}", text(&dash.stderr));
    let fix = ludeme_with_input(
        folder.path(),
        &["check", "--fix", "--stdin-filename", "a.kif"],
        BROKEN_KIF,
    );
    assert_eq!(fix.status.code(), Some(2));
    // Not a game's name: said so.
    let named = ludeme_with_input(
        folder.path(),
        &["check", "--stdin-filename", "notes.txt"],
        BROKEN_KIF,
    );
    assert_eq!(named.status.code(), Some(2));
    assert!(text(&named.stderr).contains("notes.txt"));
}

#[test]
fn fmt_formats_standard_input_to_standard_output() {
    let folder = tempfile::tempdir().unwrap();
    let messy = "(role x)   (init (cell 1))\n(<= (legal x noop)\n(true (cell 1)))\n";
    std::fs::write(folder.path().join("game.kif"), messy).unwrap();
    let on_disk = support::ludeme_in(&["fmt", "--stdout", "game.kif"], folder.path());
    assert!(on_disk.status.success());
    let piped = ludeme_with_input(
        folder.path(),
        &["fmt", "--stdin-filename", "other.kif"],
        messy,
    );
    assert!(piped.status.success(), "{}", text(&piped.stderr));
    assert_eq!(text(&piped.stdout), text(&on_disk.stdout));
    assert_ne!(text(&piped.stdout), messy);
    // Nothing written.
    assert_eq!(
        std::fs::read_to_string(folder.path().join("game.kif")).unwrap(),
        messy
    );
    assert!(!folder.path().join("other.kif").exists());
    // --check and --diff say what would change.
    let check = ludeme_with_input(
        folder.path(),
        &["fmt", "--check", "--stdin-filename", "other.kif"],
        messy,
    );
    assert_eq!(check.status.code(), Some(1));
    let diff = ludeme_with_input(
        folder.path(),
        &["fmt", "--diff", "--stdin-filename", "other.kif"],
        messy,
    );
    assert_eq!(diff.status.code(), Some(1));
    assert!(
        text(&diff.stdout).contains("+++ b/other.kif"),
        "{}",
        text(&diff.stdout)
    );
    let formatted = ludeme_with_input(
        folder.path(),
        &["fmt", "--check", "--stdin-filename", "other.kif"],
        &text(&on_disk.stdout),
    );
    assert_eq!(formatted.status.code(), Some(0));
}

/// The lines `child` prints, as they come.
fn lines_of(child: &mut std::process::Child) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// Reads lines until one contains `wanted`; fails after a generous time (a debug build on a
/// loaded machine).
fn wait_for(lines: &mpsc::Receiver<String>, wanted: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                let found = line.contains(wanted);
                seen.push(line);
                if found {
                    return seen;
                }
            }
            Err(error) => panic!("no line with {wanted:?} ({error}); seen: {seen:#?}"),
        }
    }
}

#[test]
fn watch_checks_again_after_a_change_until_stopped() {
    let folder = tempfile::tempdir().unwrap();
    let game = folder.path().join("game.kif");
    std::fs::write(&game, BROKEN_KIF).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_ludeme"));
    let mut child = support::interrupt::with_default_interrupt(&mut command)
        .args(["check", "--watch", "--output-format", "concise", "."])
        .current_dir(folder.path())
        .env(support::CACHE_DIR_VARIABLE, support::test_cache_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the ludeme binary runs");
    let lines = lines_of(&mut child);
    let first = wait_for(&lines, "checked 1 file");
    assert!(first[0].contains("watch mode"), "{first:#?}");
    assert!(
        first.iter().any(|line| line.starts_with("./game.kif:5:")),
        "{first:#?}"
    );

    // Fixed: checked again, clean.
    std::fs::write(&game, BROKEN_KIF.replace("?y", "?x")).unwrap();
    let second = wait_for(&lines, "checked 1 file");
    assert!(second[0].contains("File change detected"), "{second:#?}");
    assert!(
        !second.iter().any(|line| line.contains("game.kif:5:")),
        "{second:#?}"
    );

    // A new game is a change too.
    std::fs::write(folder.path().join("other.kif"), BROKEN_KIF).unwrap();
    let third = wait_for(&lines, "checked 2 files");
    assert!(
        third.iter().any(|line| line.starts_with("./other.kif:5:")),
        "{third:#?}"
    );

    // Stopped as a person stops it: Ctrl-C.
    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    let status = child.wait().unwrap();
    assert!(!status.success());
}
