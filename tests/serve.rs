//! `ludeme serve`'s HTTP API, end to end: the binary serves a temporary folder on a free port,
//! and requests are written by hand on a TCP socket, so that they can carry what a browser
//! would never send (`..` in the path, a foreign `Host`, broken JSON).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TIC_TAC_TOE_KIF: &str = include_str!("../corpus/gdl/ticTacToe.kif");
const TIC_TAC_TOE_LUDI: &str = include_str!("../corpus/ludi/tic-tac-toe.ludi");
const TIC_TAC_TOE_EGG: &str = include_str!("../corpus/egg/tic-tac-toe.egg");
const HEX_LUDI: &str = include_str!("../corpus/ludi/hex.ludi");

/// Servers of the tests run side by side, except the one whose answers are timed: it runs
/// alone, so that the other servers' work does not count against its time.
static TURNS: RwLock<()> = RwLock::new(());

enum Turn {
    Shared(#[allow(dead_code)] RwLockReadGuard<'static, ()>),
    Alone(#[allow(dead_code)] RwLockWriteGuard<'static, ()>),
}

impl Turn {
    fn shared() -> Turn {
        Turn::Shared(
            TURNS
                .read()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        )
    }

    fn alone() -> Turn {
        Turn::Alone(
            TURNS
                .write()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        )
    }
}

/// A `ludeme serve` process on a temporary folder, stopped when dropped.
struct Server {
    child: Child,
    address: SocketAddr,
    folder: tempfile::TempDir,
    /// Held while the server runs.
    _turn: Turn,
}

impl Server {
    /// Serves a folder holding `files` (relative path, text) on a free port.
    fn start(files: &[(&str, &str)], turn: Turn) -> Server {
        let folder = tempfile::tempdir().unwrap();
        let games = folder.path().join("games");
        for (path, text) in files {
            let path = games.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
            .args(["serve", "--port", "0"])
            .arg(&games)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        let address = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap();
        Server {
            child,
            address,
            folder,
            _turn: turn,
        }
    }

    fn games(&self) -> PathBuf {
        self.folder.path().join("games")
    }

    fn get(&self, path: &str) -> Answer {
        self.send("GET", path, &self.host(), None)
    }

    fn post(&self, path: &str, body: &Value) -> Answer {
        let body = body.to_string();
        self.send(
            "POST",
            path,
            &self.host(),
            Some(("application/json", &body)),
        )
    }

    fn host(&self) -> String {
        format!("localhost:{}", self.address.port())
    }

    /// One request on its own connection, read to its end.
    fn send(&self, method: &str, path: &str, host: &str, body: Option<(&str, &str)>) -> Answer {
        let mut stream = TcpStream::connect(self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut request =
            format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
        if let Some((content_type, body)) = body {
            request.push_str(&format!(
                "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        request.push_str("\r\n");
        if let Some((_, body)) = body {
            request.push_str(body);
        }
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("no end of headers in {response:?}"));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        Answer {
            status,
            head: head.to_owned(),
            body: body.to_owned(),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|error| panic!("not JSON ({error}): {}", self.body))
    }

    /// The message of a JSON error.
    fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message in {}", self.body))
            .to_owned()
    }
}

const GAMES: [(&str, &str); 4] = [
    ("gdl/ticTacToe.kif", TIC_TAC_TOE_KIF),
    ("tic-tac-toe.ludi", TIC_TAC_TOE_LUDI),
    ("tic-tac-toe.egg", TIC_TAC_TOE_EGG),
    ("hex.ludi", HEX_LUDI),
];

fn tic_tac_toes() -> Server {
    Server::start(&GAMES, Turn::shared())
}

#[test]
fn the_folder_is_listed_and_a_game_described() {
    let server = tic_tac_toes();
    let list = server.get("/api/games");
    assert_eq!(list.status, 200, "{}", list.body);
    let games: Vec<(String, String)> = list.json()["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| {
            (
                game["path"].as_str().unwrap().to_owned(),
                game["language"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        games,
        [
            ("gdl/ticTacToe.kif", "GDL (KIF)"),
            ("hex.ludi", "Ludi GDL"),
            ("tic-tac-toe.egg", "EGGG"),
            ("tic-tac-toe.ludi", "Ludi GDL"),
        ]
        .map(|(path, language)| (path.to_owned(), language.to_owned()))
    );
    let game = server.get("/api/game?path=gdl%2FticTacToe.kif");
    assert_eq!(game.status, 200, "{}", game.body);
    let game = game.json();
    assert_eq!(game["roles"], json!(["xplayer", "oplayer"]));
    assert_eq!(game["errors"], 0);
    assert!(game["problem"].is_null());
    assert!(game["players"].as_array().unwrap().contains(&json!("mcts")));
    assert!(game["rules"].as_str().unwrap().contains("xplayer"));

    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.head.contains("text/html"), "{}", page.head);
    assert!(
        page.head.contains("content-security-policy"),
        "{}",
        page.head
    );
    assert!(page.body.contains("/app.js"));
    assert_eq!(server.get("/app.js").status, 200);
    assert_eq!(server.get("/style.css").status, 200);
}

#[test]
fn a_position_has_its_board_with_cell_ids_and_each_move_its_cell() {
    let server = tic_tac_toes();
    let answer = server.post(
        "/api/position",
        &json!({"game": "tic-tac-toe.ludi", "moves": ["B2"]}),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    let position = answer.json();
    let svg = position["svg"].as_str().unwrap();
    assert_eq!(
        svg.matches(r#"<polygon class="cell" data-cell="#).count(),
        9
    );
    assert_eq!(position["plies"], 1);
    assert_eq!(position["over"], false);
    let choices = position["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 1);
    assert_eq!(choices[0]["role"], 1);
    let moves = choices[0]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8, "B2 is taken");
    for named in moves {
        let cells = named["cells"].as_array().unwrap();
        assert_eq!(cells.len(), 1, "{named}");
        let cell = cells[0].as_u64().unwrap();
        assert!(svg.contains(&format!(r#"data-cell="{cell}""#)));
    }
}

#[test]
fn a_game_played_to_its_end_is_announced() {
    let server = tic_tac_toes();
    for game in ["gdl/ticTacToe.kif", "tic-tac-toe.ludi", "tic-tac-toe.egg"] {
        let mut moves: Vec<String> = Vec::new();
        let position = loop {
            let answer = server.post("/api/position", &json!({"game": game, "moves": moves}));
            assert_eq!(answer.status, 200, "{game}: {}", answer.body);
            let position = answer.json();
            if position["over"] == true {
                break position;
            }
            let role = position["choices"][0]["role"].clone();
            let answer = server.post(
                "/api/move",
                &json!({"game": game, "moves": moves, "role": role, "player": "random",
                        "seconds": 1, "seed": moves.len()}),
            );
            assert_eq!(answer.status, 200, "{game}: {}", answer.body);
            moves.push(answer.json()["name"].as_str().unwrap().to_owned());
            assert!(moves.len() <= 9, "{game}: {moves:?}");
        };
        let outcome = position["outcome"].as_str().unwrap();
        assert!(
            outcome.contains(" wins (") || outcome.starts_with("a draw ("),
            "{game}: {outcome}"
        );
        assert_eq!(position["goals"].as_array().unwrap().len(), 2);
        assert!(position["choices"].as_array().unwrap().is_empty());
    }
}

/// The report shown beside the board: `ludeme report`'s page, under a policy that lets it
/// style itself and run nothing, framed by the page only.
#[test]
fn a_game_has_its_report() {
    let server = tic_tac_toes();
    let answer = server.get("/api/report?path=tic-tac-toe.ludi");
    assert_eq!(answer.status, 200, "{}", answer.body);
    let head = answer.head.to_lowercase();
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(
        head.contains("default-src 'none'; style-src 'unsafe-inline'"),
        "{head}"
    );
    assert!(head.contains("frame-ancestors 'self'"), "{head}");
    for part in ["id=\"verdict\"", "id=\"rules\"", "<svg", "tic-tac-toe.ludi"] {
        assert!(answer.body.contains(part), "the report has {part}");
    }
    assert!(!answer.body.contains("<script"), "a report runs nothing");
    // The page may frame it.
    let page = server.get("/");
    assert!(page.head.contains("frame-src 'self'"), "{}", page.head);
    assert!(page.body.contains("id=\"report-frame\""));
    let unknown = server.get("/api/report?path=chess.kif");
    assert_eq!(unknown.status, 404);
    let outside = server.get("/api/report?path=..%2F..%2Fetc%2Fpasswd");
    assert_eq!(outside.status, 403, "{}", outside.body);
}

#[test]
fn an_unknown_game_is_404() {
    let server = tic_tac_toes();
    let answer = server.get("/api/game?path=chess.kif");
    assert_eq!(answer.status, 404);
    assert!(
        answer.error().contains("no game `chess.kif`"),
        "{}",
        answer.body
    );
    let answer = server.post(
        "/api/position",
        &json!({"game": "nowhere/go.ludi", "moves": []}),
    );
    assert_eq!(answer.status, 404);
    assert!(
        answer.error().contains("nowhere/go.ludi"),
        "{}",
        answer.body
    );
    let answer = server.get("/api/nothing-here");
    assert_eq!(answer.status, 404);
    assert!(answer.error().contains("/api/nothing-here"));
}

#[test]
fn an_illegal_move_is_refused_with_the_legal_ones() {
    let server = tic_tac_toes();
    let answer = server.post(
        "/api/position",
        &json!({"game": "tic-tac-toe.ludi", "moves": ["B2", "B2"]}),
    );
    assert_eq!(answer.status, 422, "{}", answer.body);
    let message = answer.error();
    assert!(
        message.starts_with("move 2 (`B2`): not a legal move"),
        "{message}"
    );
    assert!(
        message.contains("A1"),
        "the legal moves are named: {message}"
    );
    let answer = server.post(
        "/api/move",
        &json!({"game": "gdl/ticTacToe.kif", "moves": ["(mark 9 9)"], "role": 1,
                "player": "mcts", "seconds": 0.1}),
    );
    assert_eq!(answer.status, 422, "{}", answer.body);
    assert!(answer.error().contains("`(mark 9 9)`"), "{}", answer.body);
}

#[test]
fn malformed_requests_are_400_with_a_json_message() {
    let server = tic_tac_toes();
    let host = server.host();
    let broken = server.send(
        "POST",
        "/api/position",
        &host,
        Some((
            "application/json",
            r#"{"game": "tic-tac-toe.ludi", "moves": ["#,
        )),
    );
    assert_eq!(broken.status, 400, "{}", broken.body);
    assert!(!broken.error().is_empty());
    let wrong_type = server.post(
        "/api/position",
        &json!({"game": "tic-tac-toe.ludi", "moves": "B2"}),
    );
    assert_eq!(wrong_type.status, 400, "{}", wrong_type.body);
    assert!(wrong_type.error().contains("moves"), "{}", wrong_type.body);
    let missing = server.post("/api/position", &json!({"moves": []}));
    assert_eq!(missing.status, 400, "{}", missing.body);
    assert!(missing.error().contains("game"), "{}", missing.body);
    let unknown_field = server.post(
        "/api/position",
        &json!({"game": "tic-tac-toe.ludi", "moves": [], "cheat": true}),
    );
    assert_eq!(unknown_field.status, 400, "{}", unknown_field.body);
    let not_json = server.send(
        "POST",
        "/api/position",
        &host,
        Some(("text/plain", r#"{"game": "tic-tac-toe.ludi", "moves": []}"#)),
    );
    assert_eq!(not_json.status, 415, "{}", not_json.body);
    assert!(not_json.error().contains("application/json"));
    let no_path = server.get("/api/game");
    assert_eq!(no_path.status, 400, "{}", no_path.body);
    let too_many = server.post(
        "/api/position",
        &json!({"game": "tic-tac-toe.ludi", "moves": vec!["B2"; 5_001]}),
    );
    assert_eq!(too_many.status, 400, "{}", too_many.body);
    let wrong_method = server.send("DELETE", "/api/position", &host, None);
    assert_eq!(wrong_method.status, 405, "{}", wrong_method.body);
    assert!(wrong_method.error().contains("POST"));

    for (request, expected) in [
        (
            json!({"game": "tic-tac-toe.ludi", "moves": [], "role": 0, "player": "oracle", "seconds": 1}),
            "no player is called `oracle`",
        ),
        (
            json!({"game": "tic-tac-toe.ludi", "moves": [], "role": 0, "player": "mcts", "seconds": 0}),
            "time per move",
        ),
        (
            json!({"game": "tic-tac-toe.ludi", "moves": [], "role": 0, "player": "mcts", "seconds": 3600}),
            "time per move",
        ),
        (
            json!({"game": "tic-tac-toe.ludi", "moves": [], "role": 5, "player": "random", "seconds": 1}),
            "no role 5",
        ),
    ] {
        let answer = server.post("/api/move", &request);
        assert_eq!(answer.status, 422, "{request}: {}", answer.body);
        assert!(
            answer.error().contains(expected),
            "{request}: {}",
            answer.body
        );
    }
}

#[test]
fn paths_outside_the_folder_are_refused() {
    let server = tic_tac_toes();
    // A real game beside the folder served, which `..` would reach.
    std::fs::write(server.folder.path().join("outside.kif"), TIC_TAC_TOE_KIF).unwrap();
    let inside = server.games().join("tic-tac-toe.ludi");
    let absolute = inside.canonicalize().unwrap().display().to_string();
    for name in [
        "../outside.kif",
        "gdl/../../outside.kif",
        "./tic-tac-toe.ludi",
        absolute.as_str(),
    ] {
        let query = format!("/api/game?path={}", percent_encode(name));
        let answer = server.get(&query);
        assert_eq!(answer.status, 403, "{name}: {}", answer.body);
        assert!(answer.error().contains("not a path inside the folder"));
        let answer = server.post("/api/position", &json!({"game": name, "moves": []}));
        assert_eq!(answer.status, 403, "{name}: {}", answer.body);
        let answer = server.get(&format!("/api/events?path={}", percent_encode(name)));
        assert_eq!(answer.status, 403, "{name}: {}", answer.body);
    }
    // The page's own files are the only others served, whatever the path says.
    for path in [
        "/../outside.kif",
        "/%2e%2e/outside.kif",
        "/games/tic-tac-toe.ludi",
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status, 404, "{path}: {}", answer.body);
        assert!(!answer.body.contains("role xplayer"), "{path}");
    }
}

#[test]
fn requests_addressed_to_another_host_are_refused() {
    let server = tic_tac_toes();
    for host in ["evil.example", "evil.example:80", "127.0.0.1.evil.example"] {
        let answer = server.send("GET", "/api/games", host, None);
        assert_eq!(answer.status, 403, "{host}");
        assert!(answer.error().contains("localhost"), "{}", answer.body);
    }
    for host in [
        format!("127.0.0.1:{}", server.address.port()),
        format!("localhost:{}", server.address.port()),
    ] {
        assert_eq!(server.send("GET", "/api/games", &host, None).status, 200);
    }
}

#[test]
fn mcts_answers_within_its_time_per_move_and_100_ms() {
    let server = Server::start(&GAMES, Turn::alone());
    let time = Duration::from_millis(500);
    for (game, moves) in [
        ("gdl/ticTacToe.kif", json!(["(mark 2 2)"])),
        ("tic-tac-toe.ludi", json!([])),
        ("tic-tac-toe.egg", json!(["B2"])),
        ("hex.ludi", json!(["F6"])),
    ] {
        // The first request builds the engine, as opening the game on the page does.
        let opened = server.post("/api/position", &json!({"game": game, "moves": moves}));
        assert_eq!(opened.status, 200, "{game}: {}", opened.body);
        let opened = opened.json();
        let role = opened["choices"][0]["role"].clone();
        let legal: Vec<Value> = opened["choices"][0]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|named| named["name"].clone())
            .collect();
        let request = json!({"game": game, "moves": moves, "role": role, "player": "mcts",
                             "seconds": time.as_secs_f64(), "seed": 7});
        let started = Instant::now();
        let answer = server.post("/api/move", &request);
        let took = started.elapsed();
        assert_eq!(answer.status, 200, "{game}: {}", answer.body);
        assert!(
            took <= time + Duration::from_millis(100),
            "{game}: MCTS answered in {took:?}, more than {time:?} + 100 ms"
        );
        assert!(
            legal.contains(&answer.json()["name"]),
            "{game}: {}",
            answer.body
        );
    }
}

#[test]
fn a_saved_file_is_announced_and_its_diagnostics_shown() {
    let server = tic_tac_toes();
    let mut events = TcpStream::connect(server.address).unwrap();
    events
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        events,
        "GET /api/events?path=tic-tac-toe.ludi HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.host()
    )
    .unwrap();
    let mut events = BufReader::new(events);
    let mut line = String::new();
    events.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    // The watcher has read the file once the headers are sent; a save after them is news.
    let broken = "(game Tic-Tac-Toe\n  (players White Black)\n  (board (tiling square";
    std::fs::write(server.games().join("tic-tac-toe.ludi"), broken).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = String::new();
    while !seen.contains("event: changed") {
        assert!(Instant::now() < deadline, "no change event in {seen:?}");
        line.clear();
        events.read_line(&mut line).unwrap();
        seen.push_str(&line);
    }
    let game = server.get("/api/game?path=tic-tac-toe.ludi").json();
    assert!(game["errors"].as_u64().unwrap() > 0, "{game}");
    let errors: Vec<&Value> = game["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert!(
        errors.iter().all(|d| d["line"]
            .as_u64()
            .is_some_and(|line| (1..=3).contains(&line))),
        "each error is placed in the three lines of the file: {errors:?}"
    );
    assert!(
        game["problem"]
            .as_str()
            .unwrap()
            .starts_with("the game cannot be played"),
        "{game}"
    );
    let answer = server.post(
        "/api/position",
        &json!({"game": "tic-tac-toe.ludi", "moves": []}),
    );
    assert_eq!(answer.status, 409, "{}", answer.body);
}

/// `text` with every byte but unreserved ones percent-encoded, for a query parameter.
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(byte).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}
