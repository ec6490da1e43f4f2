//! `ludeme player` speaks both forms of the protocol: seed 001's tic-tac-toe trace replayed
//! against two players in the seed's own Gamemaster form and in the GGP HTTP form, ggp-base's
//! headers and CORS, and malformed messages refused one by one while the player stays up.

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

/// The message trace of seed 001 (the Stanford Gamemaster slides "Automatic Game Playing",
/// the "Tic-Tac-Toe Example" slides: the ping slide, the last and fullest slide of the match,
/// and the abort slide), as `message(N, FROM, TO, BODY)` lines. Two slips of the slides are
/// kept as they are but one: the later slides send lara `start(m01,x,...)`, where the first
/// start slide (followed here) gives lara the role o; and the slides' `stop` repeats
/// `mark(1,3)` where the last action was `mark(3,3)` (kept: the reply to `stop` does not
/// depend on it). `ruleset(...)` stands for the game's rules, elided on the slides.
const SEED_001_TRACE: &str = "
message(1,manager,indy,ping())
message(1,manager,lara,ping())
message(1,indy,manager,ready)
message(1,lara,manager,ready)
message(2,manager,indy,start(m01,x,ruleset(...),10,10))
message(2,manager,lara,start(m01,o,ruleset(...),10,10))
message(2,indy,manager,ready)
message(2,lara,manager,ready)
message(3,manager,indy,play(m01,[]))
message(3,manager,lara,play(m01,[]))
message(3,indy,manager,mark(1,1))
message(4,manager,indy,play(m01,mark(1,1)))
message(4,manager,lara,play(m01,mark(1,1)))
message(4,lara,manager,mark(1,2))
message(5,manager,indy,play(m01,mark(1,2)))
message(5,manager,lara,play(m01,mark(1,2)))
message(5,indy,manager,mark(2,2))
message(6,manager,indy,play(m01,mark(2,2)))
message(6,manager,lara,play(m01,mark(2,2)))
message(6,lara,manager,mark(1,3))
message(7,manager,indy,play(m01,mark(1,3)))
message(7,manager,lara,play(m01,mark(1,3)))
message(7,indy,manager,mark(3,3))
message(8,manager,indy,stop(m01,mark(1,3)))
message(8,manager,lara,stop(m01,mark(1,3)))
message(9,manager,indy,abort(m01))
message(9,manager,lara,abort(m01))
";

/// One line of the trace: (message number, sender, receiver, body).
fn trace_line(line: &str) -> (u32, &str, &str, &str) {
    let inner = line
        .strip_prefix("message(")
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("a trace line: {line}"));
    let mut parts = inner.splitn(4, ',');
    let mut next = || parts.next().expect("four parts");
    let number = next().parse().expect("a message number");
    (number, next(), next(), next())
}

/// The project's tic-tac-toe in the Gamemaster's infix GDL (roles `x` and `o`, actions
/// `mark(M,N)` and `noop`), as the `ruleset(...)` of a start message.
fn infix_ruleset() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/gdl/ticTacToe.hrf");
    let text = std::fs::read_to_string(path).expect("the project's infix tic-tac-toe");
    // A rule goes on on indented lines; comments are left out.
    let mut rules: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.split('%').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        match rules.last_mut() {
            Some(rule) if line.starts_with(char::is_whitespace) => rule.push_str(line),
            _ => rules.push(line.to_owned()),
        }
    }
    format!("ruleset({})", rules.join(", "))
}

/// `mark(R,C)` as (R, C) when R and C are in 1..=3.
fn infix_mark(reply: &str) -> Option<(u8, u8)> {
    let (row, column) = reply
        .strip_prefix("mark(")?
        .strip_suffix(')')?
        .split_once(',')?;
    let (row, column) = (row.parse().ok()?, column.parse().ok()?);
    ((1..=3).contains(&row) && (1..=3).contains(&column)).then_some((row, column))
}

/// Seed 001's tic-tac-toe trace, in the seed's own message syntax, replayed against two
/// `ludeme player` processes (indy and lara), each message posted as the body of an HTTP
/// request. Each player gets the seed's replies: `ready` to `ping()` and `start`, a move from
/// the player in control and none from the other, and `done` to `stop` and `abort` (where the
/// slides say the reply is optional). Where the seed's reply is the move its player chose, the
/// reply must be a well-formed `mark(R,C)` on a cell that is free after the trace's moves.
#[test]
fn seed_001_tic_tac_toe_trace_in_the_gamemaster_form() {
    // Alpha-beta solves tic-tac-toe well within the seed's 10 s clock; random answers at once.
    let players = [
        ("indy", PlayerProcess::start("alphabeta")),
        ("lara", PlayerProcess::start("random")),
    ];
    let ruleset = infix_ruleset();
    let lines: Vec<(u32, &str, &str, &str)> = SEED_001_TRACE
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(trace_line)
        .collect();
    let mut taken: Vec<(u8, u8)> = Vec::new();
    for &(number, sender, receiver, body) in &lines {
        if sender != "manager" {
            continue;
        }
        let (_, player) = players
            .iter()
            .find(|(name, _)| *name == receiver)
            .expect("a player of the trace");
        // The trace's own moves are the ones played on: each play message carries the last.
        if let Some(mark) = body
            .strip_prefix("play(m01,")
            .and_then(|rest| infix_mark(rest.strip_suffix(')')?))
            && !taken.contains(&mark)
        {
            taken.push(mark);
        }
        let message = body.replace("ruleset(...)", &ruleset);
        let (status, reply) = post(&player.url, &message);
        assert_eq!(status, 200, "{number} {receiver} {body}: {reply}");
        let seed_reply = lines
            .iter()
            .find(|&&(n, from, to, _)| n == number && from == receiver && to == "manager")
            .map(|&(_, _, _, reply)| reply);
        match seed_reply {
            Some(mark) if infix_mark(mark).is_some() => {
                let chosen = infix_mark(&reply)
                    .unwrap_or_else(|| panic!("{number} {receiver}: `{reply}` is no mark(R,C)"));
                assert!(
                    !taken.contains(&chosen),
                    "{number} {receiver}: `{reply}` marks a taken cell ({taken:?})"
                );
            }
            Some(exact) => assert_eq!(reply, exact, "{number} {receiver} {body}"),
            None if body.starts_with("play(") => {
                assert_eq!(reply, "", "{number} {receiver}: not in control, no reply")
            }
            None => assert_eq!(reply, "done", "{number} {receiver} {body}"),
        }
    }
    assert_eq!(
        taken.len(),
        4,
        "the trace's moves before the last: {taken:?}"
    );
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
        // The Gamemaster form.
        ("play(m01, mark(1,1)", "at byte 19: a missing `)`"),
        ("dance(m01)", "no message of the protocol"),
        ("play(m01, mark(1,1) :- p)", "a rule"),
        ("play(unknown, nil)", "no match `unknown`"),
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

/// Garbage, and valid messages of both forms cut or spliced anywhere, never take the player
/// down: every one gets an answer (`200` or a `400` refusal) and the player still answers
/// `(info)` and `ping()`.
#[test]
fn malformed_requests_never_bring_the_player_down() {
    use proptest::test_runner::{Config, TestRunner};
    // One player for every case: a process per case would be slow.
    let player = PlayerProcess::start("random");
    let valid_messages = [
        "(start m9 xplayer ((role xplayer) (init (cell 1)) (<= (legal xplayer a) (true (cell 1)))) 1 1)",
        "start(m9, xplayer, ruleset(role(xplayer), init(cell(1)), legal(xplayer, a) :- true(cell(1))), 1, 1)",
        "play(m9, [a])",
    ];
    let cases = (
        proptest::collection::vec(any::<u8>(), 0..200),
        0usize..valid_messages.len(),
        0usize..1000,
        "[()\\[\\],%:&|~a-z0-9 ?<=;\n\"#-]{0,20}",
    );
    let mut runner = TestRunner::new(Config {
        cases: 64,
        ..Config::default()
    });
    runner
        .run(&cases, |(garbage, which, cut, splice)| {
            let valid = valid_messages[which];
            let cut = cut % valid.len();
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
            prop_assert_eq!(post(&player.url, "ping()"), (200, "ready".to_owned()));
            Ok(())
        })
        .unwrap();
}

/// A connection that sends its headers and then stalls is cut off with a `408` once the read
/// timeout has passed, and meanwhile the player answers others.
#[test]
fn a_stalled_message_is_cut_off_and_the_player_answers_others() {
    use std::io::{Read, Write};
    let player = PlayerProcess::start("random");
    let authority = player
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let mut stalled = std::net::TcpStream::connect(authority).expect("the player listens");
    write!(
        stalled,
        "POST / HTTP/1.0\r\nHost: {authority}\r\nContent-Length: 100\r\n\r\n(pl"
    )
    .unwrap();
    assert_eq!(post(&player.url, "ping()"), (200, "ready".to_owned()));
    stalled
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut reply = String::new();
    stalled.read_to_string(&mut reply).expect("a reply");
    assert_eq!(reply.split_whitespace().nth(1), Some("408"), "{reply}");
    assert!(reply.contains("did not arrive within"), "{reply}");
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
