//! The play page of `ludeme serve` in a real headless Chromium (Debian's `chromium` and
//! `chromium-driver`), driven over WebDriver with fantoccini: for tic-tac-toe in each of the
//! three languages, it opens the game, plays a full game against the random player by clicking
//! the highlighted cells, sees the result announced, takes a move back, then saves a broken
//! version of the file and sees its diagnostics on the page.
//!
//! Screenshots of the page are kept in `target/browser-screenshots/` as the test's artefacts.
//!
//! Nothing is downloaded: the browser and its driver are the machine's (CI installs them in
//! `.ci/run`). Without them the test fails and says how to install them, unless
//! `LUDEME_SKIP_BROWSER_TESTS=1` is set outside CI.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const BROWSERS: [&str; 3] = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "chromium"];
const DRIVERS: [&str; 2] = ["/usr/bin/chromedriver", "chromedriver"];

/// How long the page may take to reach a state it is waiting for.
const PATIENCE: Duration = Duration::from_secs(20);

/// A child process killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The first of `candidates` that runs with `--version`.
fn installed(candidates: &[&str]) -> Option<String> {
    candidates.iter().find_map(|candidate| {
        let ran = Command::new(candidate)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        ran.is_ok_and(|status| status.success())
            .then(|| (*candidate).to_owned())
    })
}

/// The browser and its driver, or `None` when the test is to be skipped.
fn browser_and_driver() -> Option<(String, String)> {
    match (installed(&BROWSERS), installed(&DRIVERS)) {
        (Some(browser), Some(driver)) => Some((browser, driver)),
        _ => {
            let skip = std::env::var("LUDEME_SKIP_BROWSER_TESTS").is_ok_and(|v| v == "1");
            let in_ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
            if skip && !in_ci {
                eprintln!("browser test skipped: LUDEME_SKIP_BROWSER_TESTS=1 and no Chromium");
                return None;
            }
            panic!(
                "the browser test needs Chromium and its WebDriver: install them with \
                 `apt-get install -y chromium chromium-driver` (Debian), or set \
                 LUDEME_SKIP_BROWSER_TESTS=1 to skip this test outside CI"
            );
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free port")
}

/// `chromedriver` on a free port, once it accepts connections.
fn start_driver(driver: &str) -> (Running, u16) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let running = Running(child);
    let deadline = Instant::now() + Duration::from_secs(15);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    (running, port)
}

/// `ludeme serve FOLDER --port 0`, with the page's address.
fn start_server(folder: &Path) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(["serve", "--port", "0"])
        .arg(folder)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("ludeme serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its output"))
        .read_line(&mut line)
        .expect("it says where it serves");
    let url = line
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    (Running(child), url)
}

fn screenshot_folder() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let folder = target.join("browser-screenshots");
    std::fs::create_dir_all(&folder).expect("the screenshot folder");
    folder
}

/// The page's `data-state` and `data-plies`.
async fn page_state(client: &Client) -> (String, usize) {
    let answer = client
        .execute(
            "return [document.body.dataset.state || '', document.body.dataset.plies || '0'];",
            vec![],
        )
        .await
        .expect("the page answers");
    let state = answer[0].as_str().unwrap_or_default().to_owned();
    let plies = answer[1].as_str().and_then(|p| p.parse().ok()).unwrap_or(0);
    (state, plies)
}

async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|_| panic!("the page has {css}"))
        .text()
        .await
        .expect("its text")
}

/// Waits until the page's state and plies satisfy `wanted`; fails with what the page shows.
async fn wait_for(
    client: &Client,
    what: &str,
    wanted: impl Fn(&str, usize) -> bool,
) -> (String, usize) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (state, plies) = page_state(client).await;
        if wanted(&state, plies) {
            return (state, plies);
        }
        if Instant::now() > deadline || state == "error" {
            let status = text_of(client, "#status").await;
            let notice = text_of(client, "#notice").await;
            panic!(
                "waiting for {what}: the page is `{state}` after {plies} plies: {status} {notice}"
            );
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(screenshot_folder().join(format!("{name}.png")), png).expect("it is saved");
}

async fn is_shown(client: &Client, css: &str) -> bool {
    match client.find(Locator::Css(css)).await {
        Ok(found) => found.is_displayed().await.unwrap_or(false),
        Err(_) => false,
    }
}

/// Plays one tic-tac-toe on the page: a person (the first role) against the random player.
async fn play_a_game(client: &Client, url: &str, game: &str, broken: &str, folder: &Path) {
    let tag = game.replace(['/', '.'], "-");
    client
        .goto(&format!("{url}#{}", game.replace('/', "%2F")))
        .await
        .expect("the page opens");
    wait_for(client, "the person's first move", |state, plies| {
        state == "your-turn" && plies == 0
    })
    .await;
    let opponent = client
        .find(Locator::Css(r#"select[data-role="1"]"#))
        .await
        .expect("the second role's seat");
    opponent
        .select_by_value("random")
        .await
        .expect("the random player is offered");
    wait_for(client, "the game against random", |state, _| {
        state == "your-turn"
    })
    .await;
    screenshot(client, &format!("{tag}-1-start")).await;
    assert_eq!(
        client
            .find_all(Locator::Css("#board polygon.cell.legal"))
            .await
            .unwrap()
            .len(),
        9,
        "{game}: every cell of the empty board is a legal move"
    );

    let mut plies = 0;
    loop {
        let cells: Vec<Element> = client
            .find_all(Locator::Css("#board polygon.cell.legal"))
            .await
            .unwrap();
        assert!(!cells.is_empty(), "{game}: the person has a cell to click");
        // Every third cell still free, so that games differ in their course.
        cells[(plies * 3) % cells.len()]
            .click()
            .await
            .expect("a click");
        let (state, now) = wait_for(client, "the reply", |state, now| {
            now > plies && (state == "your-turn" || state == "over")
        })
        .await;
        assert!(now <= 9, "{game}: tic-tac-toe ends within nine moves");
        plies = now;
        if state == "over" {
            break;
        }
    }
    let result = text_of(client, "#result").await;
    assert!(
        is_shown(client, "#result").await,
        "{game}: the result is shown"
    );
    assert!(
        result.contains(" wins (") || result.starts_with("a draw ("),
        "{game}: the result is announced: {result:?}"
    );
    let listed = client
        .find_all(Locator::Css("#move-list li"))
        .await
        .unwrap();
    assert_eq!(listed.len(), plies, "{game}: every move is listed");
    screenshot(client, &format!("{tag}-2-over")).await;

    client
        .find(Locator::Css("#undo"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let (_, after_undo) = wait_for(client, "the person's move again", |state, now| {
        state == "your-turn" && now < plies
    })
    .await;
    assert!(
        !is_shown(client, "#result").await,
        "{game}: no result after undo"
    );
    let listed = client
        .find_all(Locator::Css("#move-list li"))
        .await
        .unwrap();
    assert_eq!(
        listed.len(),
        after_undo,
        "{game}: the move list lost the moves undone"
    );
    assert!(
        !client
            .find_all(Locator::Css("#board polygon.cell.legal"))
            .await
            .unwrap()
            .is_empty(),
        "{game}: the person has moves again"
    );
    screenshot(client, &format!("{tag}-3-undone")).await;

    // The report beside the board: opened, it frames the game's self-play verdict.
    client
        .find(Locator::Css("#report summary"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let frame = client
        .find(Locator::Css("#report-frame"))
        .await
        .expect("the report's frame");
    frame.clone().enter_frame().await.expect("the frame opens");
    let deadline = Instant::now() + PATIENCE;
    let verdict = loop {
        let found = client.find(Locator::Css("#verdict .verdict")).await;
        if let Ok(verdict) = found {
            break verdict.text().await.expect("the verdict's text");
        }
        assert!(Instant::now() < deadline, "{game}: the report came in time");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        verdict == "Viable" || verdict == "Not viable",
        "{game}: a verdict, not {verdict:?}"
    );
    client.enter_parent_frame().await.expect("back to the page");
    screenshot(client, &format!("{tag}-3b-report")).await;

    // An editor saves a broken version: the page reads it again and shows why.
    std::fs::write(folder.join(game), broken).expect("the broken file is written");
    wait_for(client, "the broken file", |state, _| state == "unplayable").await;
    assert!(
        is_shown(client, "#diagnostics").await,
        "{game}: diagnostics shown"
    );
    let errors = client
        .find_all(Locator::Css("#diagnostic-list li.error"))
        .await
        .unwrap();
    assert!(!errors.is_empty(), "{game}: an error is listed");
    let title = text_of(client, "#diagnostics-title").await;
    assert!(
        title.starts_with("The game does not check"),
        "{game}: {title}"
    );
    assert!(
        is_shown(client, "#problem").await,
        "{game}: why it cannot be played"
    );
    screenshot(client, &format!("{tag}-4-broken")).await;
}

/// A step is two clicks in Breakthrough: a pawn (its moves narrow to those that leave its
/// cell), then where it goes.
async fn play_a_step(client: &Client, url: &str) {
    client
        .goto(&format!("{url}#ludi%2Fbreakthrough.ludi"))
        .await
        .expect("the page opens");
    wait_for(client, "the person's first move", |state, plies| {
        state == "your-turn" && plies == 0
    })
    .await;
    client
        .find(Locator::Css(r#"select[data-role="1"]"#))
        .await
        .expect("the second role's seat")
        .select_by_value("random")
        .await
        .expect("the random player is offered");
    wait_for(client, "the game against random", |state, _| {
        state == "your-turn"
    })
    .await;
    let buttons = |client: &Client| {
        let client = client.clone();
        async move {
            client
                .find_all(Locator::Css("#move-buttons button"))
                .await
                .unwrap()
                .len()
        }
    };
    let every_move = buttons(client).await;
    let pawns = client
        .find_all(Locator::Css("#board g.legal[data-cell]"))
        .await
        .unwrap();
    assert!(!pawns.is_empty(), "pawns that can move are highlighted");
    pawns[pawns.len() / 2]
        .click()
        .await
        .expect("a click on a pawn");
    let selected = client
        .find_all(Locator::Css("#board polygon.cell.selected"))
        .await
        .unwrap();
    assert_eq!(selected.len(), 1, "the pawn's cell is selected");
    let its_moves = buttons(client).await;
    assert!(
        (1..every_move).contains(&its_moves),
        "the moves narrow to the pawn's: {its_moves} of {every_move}"
    );
    screenshot(client, "ludi-breakthrough-selected").await;
    let targets = client
        .find_all(Locator::Css("#board polygon.cell.legal"))
        .await
        .unwrap();
    assert_eq!(targets.len(), its_moves, "each of its moves reaches a cell");
    targets[0].click().await.expect("a click on a target");
    wait_for(client, "the reply to the step", |state, plies| {
        state == "your-turn" && plies == 2
    })
    .await;
    screenshot(client, "ludi-breakthrough-stepped").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tic_tac_toe_is_played_on_the_page_in_every_language() {
    let Some((browser, driver)) = browser_and_driver() else {
        return;
    };
    let started = Instant::now();
    let folder = tempfile::tempdir().unwrap();
    let games = [
        (
            "gdl/ticTacToe.kif",
            include_str!("../corpus/gdl/ticTacToe.kif"),
            "(role xplayer)\n(role oplayer)\n(<= (legal ?p (mark ?x ?y))\n",
        ),
        (
            "ludi/tic-tac-toe.ludi",
            include_str!("../corpus/ludi/tic-tac-toe.ludi"),
            "(game Tic-Tac-Toe\n  (players White Black)\n  (board (tiling square",
        ),
        (
            "egg/tic-tac-toe.egg",
            include_str!("../corpus/egg/tic-tac-toe.egg"),
            "game is tic-tac-toe\nplayers are x and o\ngoal is ThreeInARow\ngoal is\n",
        ),
    ];
    for (path, text, _) in &games {
        let path = folder.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::write(
        folder.path().join("ludi/breakthrough.ludi"),
        include_str!("../corpus/ludi/breakthrough.ludi"),
    )
    .unwrap();
    let (_server, url) = start_server(folder.path());
    let (_driver, port) = start_driver(&driver);
    let capabilities = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": browser,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1280,900"],
        },
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!("an object")
    };
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session");

    client.goto(&url).await.expect("the page opens");
    wait_for(&client, "the list of games", |state, _| state == "idle").await;
    let listed = client
        .find_all(Locator::Css("#game-list a[data-game]"))
        .await
        .unwrap();
    assert_eq!(listed.len(), 4, "the four games are listed");
    screenshot(&client, "0-list").await;

    play_a_step(&client, &url).await;
    for (game, _, broken) in &games {
        play_a_game(&client, &url, game, broken, folder.path()).await;
    }
    client.close().await.expect("the session ends");
    eprintln!("browser test: {:?}", started.elapsed());
}
