//! `ludeme player` speaks the GGP HTTP protocol: seed 001's tic-tac-toe trace replayed against
//! two players, ggp-base's headers and CORS, and malformed messages refused one by one while
//! the player stays up.

#[path = "ggp_support.rs"]
mod ggp_support;

use ggp_support::{PlayerProcess, exchange, post};
use proptest::prelude::*;

/// The project's tic-tac-toe rules (roles `xplayer` and `oplayer`, moves `(mark R C)`).
fn rules() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/gdl/ticTacToe.kif");
    let text = std::fs::read_to_string(path).expect("the project's tic-tac-toe");
    // A message carries the rules as one list; comments would swallow the rest of a line.
    let rules: Vec<&str> = text
        .lines()
        .map(|line| line.split(';').next().unwrap_or(""))
        .collect();
    format!("({})", rules.join("\n"))
}

/// Whether `reply` is one of the moves `(mark R C)` on a free cell, R and C in 1..=3.
fn is_mark_on_free_cell(reply: &str, taken: &[(u8, u8)]) -> bool {
    let words: Vec<&str> = reply
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split_whitespace()
        .collect();
    match words.as_slice() {
        ["mark", row, column] => match (row.parse::<u8>(), column.parse::<u8>()) {
            (Ok(r), Ok(c)) => {
                (1..=3).contains(&r) && (1..=3).contains(&c) && !taken.contains(&(r, c))
            }
            _ => false,
        },
        _ => false,
    }
}

/// Seed 001's trace: indy plays x, lara plays o; start, then the play messages with the
/// seed's moves mark(1,1), mark(1,2), mark(2,2), mark(1,3), mark(3,3), then stop and abort.
/// The seed's replies: `ready` to start, an action from the player in control, `done` after.
#[test]
fn seed_001_tic_tac_toe_trace() {
    let indy = PlayerProcess::start("mcts");
    let lara = PlayerProcess::start("alphabeta");
    let rules = rules();
    for (player, role) in [(&indy, "xplayer"), (&lara, "oplayer")] {
        let (status, reply) = post(&player.url, &format!("(start m01 {role} {rules} 10 1)"));
        assert_eq!((status, reply.as_str()), (200, "ready"), "start of {role}");
    }
    let seed_moves = [(1, 1), (1, 2), (2, 2), (1, 3), (3, 3)];
    let mut previous = "nil".to_owned();
    let mut taken = Vec::new();
    for (step, &(row, column)) in seed_moves.iter().enumerate() {
        let message = format!("(play m01 {previous})");
        let (x_status, x_reply) = post(&indy.url, &message);
        let (o_status, o_reply) = post(&lara.url, &message);
        assert_eq!((x_status, o_status), (200, 200), "{x_reply} / {o_reply}");
        // x is in control at even steps: it answers a mark, its opponent the no-op.
        let (mover, idle) = if step % 2 == 0 {
            (&x_reply, &o_reply)
        } else {
            (&o_reply, &x_reply)
        };
        assert!(
            is_mark_on_free_cell(mover, &taken),
            "step {step}: `{mover}`"
        );
        assert_eq!(idle.trim(), "noop", "step {step}");
        taken.push((row, column));
        let mark = format!("(mark {row} {column})");
        previous = if step % 2 == 0 {
            format!("({mark} noop)")
        } else {
            format!("(noop {mark})")
        };
    }
    for player in [&indy, &lara] {
        assert_eq!(
            post(&player.url, &format!("(stop m01 {previous})")),
            (200, "done".to_owned())
        );
        // The match is over: play messages for it are refused, an abort is acknowledged.
        assert_eq!(post(&player.url, "(play m01 nil)").0, 400);
        assert_eq!(post(&player.url, "(abort m01)"), (200, "done".to_owned()));
    }
}

#[test]
fn replies_carry_ggp_base_headers_and_open_cors() {
    let player = PlayerProcess::start("random");
    let info = exchange(&player.url, "POST", b"(info)");
    assert_eq!(info.status, 200);
    assert!(info.body.contains("(status available)"), "{}", info.body);
    assert_eq!(info.header("content-type"), Some("text/acknowledge"));
    assert_eq!(info.header("access-control-allow-origin"), Some("*"));
    let preflight = exchange(&player.url, "OPTIONS", b"");
    assert_eq!(preflight.status, 200);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    assert!(
        preflight
            .header("access-control-allow-methods")
            .is_some_and(|methods| methods.contains("POST"))
    );
    let rules = rules();
    assert_eq!(
        post(&player.url, &format!("(preview {rules} 5)")),
        (200, "ready".to_owned())
    );
}

#[test]
fn each_malformed_message_gets_one_error_with_its_position() {
    let player = PlayerProcess::start("random");
    let cases = [
        ("(play m01", "at byte 9"),
        ("(dance m01)", "no message of the protocol"),
        ("(start m01 xplayer)", "takes 5 argument(s)"),
        ("(play m01 nil) (info)", "one list"),
        (
            "(start m01 xplayer ((role xplayer)) ten 1)",
            "whole seconds",
        ),
        ("(play unknown nil)", "no match `unknown`"),
    ];
    for (message, expected) in cases {
        let (status, reply) = post(&player.url, message);
        assert_eq!(status, 400, "{message}: {reply}");
        assert!(reply.contains(expected), "{message}: `{reply}`");
        assert_eq!(reply.lines().count(), 1, "one error: {reply}");
    }
    // Rules that are no game: refused at start, and the player goes on.
    let (status, reply) = post(
        &player.url,
        "(start m02 xplayer ((role xplayer) (<= p ?x)) 2 1)",
    );
    assert_eq!(status, 400, "{reply}");
    assert_eq!(post(&player.url, "(info)").0, 200);
}

/// Garbage, and valid messages cut or spliced anywhere, never take the player down: every
/// one gets an answer (`200` or a `400` refusal) and the player still answers `(info)`.
#[test]
fn malformed_requests_never_bring_the_player_down() {
    use proptest::test_runner::{Config, TestRunner};
    // One player for every case: a process per case would be slow.
    let player = PlayerProcess::start("random");
    let valid = "(start m9 xplayer ((role xplayer) (init (cell 1)) (<= (legal xplayer a) (true (cell 1)))) 1 1)";
    let cases = (
        proptest::collection::vec(any::<u8>(), 0..200),
        0usize..valid.len(),
        "[()a-z0-9 ?<=;\n\"#]{0,20}",
    );
    let mut runner = TestRunner::new(Config {
        cases: 64,
        ..Config::default()
    });
    runner
        .run(&cases, |(garbage, cut, splice)| {
            let spliced = format!("{}{splice}{}", &valid[..cut], &valid[cut..]);
            for body in [
                garbage.as_slice(),
                &valid.as_bytes()[..cut],
                spliced.as_bytes(),
            ] {
                let reply = exchange(&player.url, "POST", body);
                prop_assert!(
                    reply.status == 200 || reply.status == 400,
                    "{}",
                    reply.status
                );
                post(&player.url, "(abort m9)");
            }
            prop_assert_eq!(post(&player.url, "(info)").0, 200);
            Ok(())
        })
        .unwrap();
}

#[test]
fn an_illegal_joint_move_is_refused_and_the_match_goes_on() {
    let player = PlayerProcess::start("random");
    let rules = rules();
    assert_eq!(
        post(&player.url, &format!("(start m03 oplayer {rules} 10 1)")).0,
        200
    );
    assert_eq!(
        post(&player.url, "(play m03 nil)"),
        (200, "noop".to_owned())
    );
    let (status, reply) = post(&player.url, "(play m03 ((mark 7 7) noop))");
    assert_eq!(status, 400, "{reply}");
    assert!(reply.contains("(mark 7 7)"), "{reply}");
    // The refused move was not kept: the legal one is played from the same position.
    let (status, reply) = post(&player.url, "(play m03 ((mark 2 2) noop))");
    assert_eq!(status, 200, "{reply}");
    assert!(is_mark_on_free_cell(&reply, &[(2, 2)]), "{reply}");
}
