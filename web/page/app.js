// The play page of `ludeme serve`: the games of the folder, a game's board, and play.
//
// Everything about a game comes from the server's JSON API (web/src/api.rs): this script knows
// no game language. A position arrives as an SVG board whose cells and pieces carry
// `data-cell`, with the legal moves of each role to choose, each naming the cells it changes;
// a click on cells narrows the moves of the person to move until one is left, and the moves are
// also offered as buttons. The page keeps the plies played and asks for the position after
// them, so undo is dropping plies. It follows the file through server-sent events.
//
// The body's `data-state` says what the page waits for (loading, your-turn, thinking, over,
// paused, stuck, unplayable, error), and `data-plies` how many plies were played: the browser
// test reads them.
//
// The JSDoc types check with TypeScript in strict mode (no build step: the file is served as
// written): `tsc --noEmit --allowJs --checkJs --strict --lib dom,dom.iterable,es2022 app.js`.

// @ts-check
"use strict";

/** @typedef {{name: string, cells: number[]}} Move */
/** @typedef {{role: number, role_name: string, moves: Move[]}} Choice */
/**
 * @typedef {{revision: number, plies: number, svg: string, over: boolean,
 *   goals: number[] | null, outcome: string | null, choices: Choice[],
 *   forced: string | null, stuck: string | null}} Position
 */
/**
 * @typedef {{severity: string, code: string, message: string, line: number,
 *   column: number}} DiagnosticView
 */
/**
 * @typedef {{path: string, language: string, revision: number, roles: string[],
 *   random_roles: number[], players: string[], diagnostics: DiagnosticView[],
 *   errors: number, rules: string, problem: string | null}} GameInfo
 */
/** @typedef {{text: string, label: string, byPerson: boolean}} Ply */

/** The seat of a role played by a person at this screen. */
const PERSON = "person";

/** The player a new game gives the roles after the first. */
const DEFAULT_OPPONENT = "mcts";

/** The most move buttons shown at once; clicks on cells narrow the rest. */
const MOVE_BUTTONS = 300;

/** The width a small board is drawn at, in pixels, growing it at most BOARD_GROWTH times. */
const BOARD_WIDTH = 520;
const BOARD_GROWTH = 1.8;

/** A pause before a forced ply is played, so that the board can be seen. */
const FORCED_PLY_DELAY_MS = 300;

const page = {
  /** @type {GameInfo | null} */
  game: null,
  /** @type {Ply[]} The plies played from the start. */
  plies: [],
  /** @type {string[]} Per role: PERSON or a player's name. */
  seats: [],
  /** @type {Position | null} */
  position: null,
  /** @type {Map<number, string>} The moves chosen so far for the ply being made, by role. */
  chosen: new Map(),
  /** @type {Set<number>} The roles whose player is thinking. */
  thinking: new Set(),
  /** @type {number[]} The cells clicked so far for the person's move. */
  selection: [],
  /** Grows to abandon the answers of work started before (undo, new game, reload). */
  generation: 0,
  paused: false,
  /** @type {EventSource | null} */
  events: null,
};

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found;
}

/** @param {string} state */
function setState(state) {
  document.body.dataset.state = state;
  document.body.dataset.plies = String(page.plies.length);
}

/** A refusal of the server, with its status and message. */
class ApiFailure extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Calls the API: GET without a body, POST with one.
 * @param {string} address
 * @param {unknown} [body]
 */
async function api(address, body) {
  const options = body === undefined
    ? {}
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(address, options);
  let answer;
  try {
    answer = await response.json();
  } catch {
    throw new ApiFailure(response.status, `the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new ApiFailure(response.status, answer.error ?? `status ${response.status}`);
  return answer;
}

/** @param {string | null} text */
function showNotice(text) {
  const notice = element("notice");
  notice.textContent = text ?? "";
  notice.hidden = !text;
}

// ── The list of games ──────────────────────────────────────────────────────────────────────

/** @type {{path: string, language: string | null, problem: string | null}[]} */
let allGames = [];

async function loadGames() {
  const list = await api("/api/games");
  element("folder").textContent = list.folder;
  allGames = list.games;
  renderGames();
}

function renderGames() {
  const filter = /** @type {HTMLInputElement} */ (element("filter")).value.trim().toLowerCase();
  const list = element("game-list");
  list.replaceChildren();
  for (const game of allGames) {
    if (filter && !game.path.toLowerCase().includes(filter)) continue;
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${encodeURIComponent(game.path)}`;
    link.dataset.game = game.path;
    link.textContent = game.path;
    if (page.game?.path === game.path) link.setAttribute("aria-current", "page");
    const language = document.createElement("span");
    language.className = "language";
    language.textContent = game.language ?? "unreadable";
    if (game.problem) link.title = game.problem;
    link.append(language);
    item.append(link);
    list.append(item);
  }
  if (allGames.length === 0) {
    const item = document.createElement("li");
    item.textContent = "No game files in this folder.";
    list.append(item);
  }
}

function openFromAddress() {
  const path = decodeURIComponent(location.hash.slice(1));
  if (path) openGame(path, false).catch(failed);
}

// ── One game ───────────────────────────────────────────────────────────────────────────────

/**
 * Loads the report of the game shown into its frame when the report is open (its self-play
 * takes seconds, so only then), and again for each new revision of the file.
 * @param {string} path
 * @param {number} revision
 */
function showReport(path, revision) {
  const frame = /** @type {HTMLIFrameElement} */ (element("report-frame"));
  frame.dataset.wanted = `/api/report?path=${encodeURIComponent(path)}&revision=${revision}`;
  loadReportIfOpen();
}

/** Loads the report last asked for into its frame, if the report is open and shows another. */
function loadReportIfOpen() {
  const frame = /** @type {HTMLIFrameElement} */ (element("report-frame"));
  const open = /** @type {HTMLDetailsElement} */ (element("report")).open;
  const wanted = frame.dataset.wanted;
  if (open && wanted && frame.getAttribute("src") !== wanted) frame.setAttribute("src", wanted);
}

/**
 * Shows a game: its diagnostics, rules and board. `again` keeps the plies and seats (the file
 * changed on disk).
 * @param {string} path
 * @param {boolean} again
 */
async function openGame(path, again) {
  const generation = ++page.generation;
  setState("loading");
  if (!again) showNotice(null);
  /** @type {GameInfo} */
  let game;
  try {
    game = await api(`/api/game?path=${encodeURIComponent(path)}`);
  } catch (error) {
    if (generation !== page.generation) return;
    element("welcome").hidden = true;
    element("game").hidden = true;
    throw error;
  }
  if (generation !== page.generation) return;
  const sameRoles = again && page.game !== null
    && JSON.stringify(page.game.roles) === JSON.stringify(game.roles);
  page.game = game;
  element("welcome").hidden = true;
  element("game").hidden = false;
  element("title").textContent = path;
  element("language").textContent = `${game.language} · revision ${game.revision}`;
  element("rules-text").textContent = game.rules;
  showReport(path, game.revision);
  renderDiagnostics(game);
  renderGames();
  if (!again) follow(path);
  if (!sameRoles) {
    page.seats = game.roles.map((_, role) => (role === 0 ? PERSON : DEFAULT_OPPONENT));
    if (!again) page.plies = [];
  }
  const problem = element("problem");
  problem.textContent = game.problem ?? "";
  problem.hidden = !game.problem;
  element("play").hidden = Boolean(game.problem);
  if (game.problem) {
    setState("unplayable");
    return;
  }
  renderSeats();
  await showPosition();
}

/** @param {GameInfo} game */
function renderDiagnostics(game) {
  const section = element("diagnostics");
  const list = element("diagnostic-list");
  list.replaceChildren();
  const shown = game.diagnostics.filter((d) => d.severity !== "info");
  section.hidden = shown.length === 0;
  section.classList.toggle("clean-of-errors", game.errors === 0);
  const warnings = shown.length - game.errors;
  const counts = [];
  if (game.errors) counts.push(`${game.errors} error${game.errors === 1 ? "" : "s"}`);
  if (warnings) counts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  element("diagnostics-title").textContent = game.errors
    ? `The game does not check: ${counts.join(", ")}`
    : `Diagnostics: ${counts.join(", ")}`;
  for (const diagnostic of shown) {
    const item = document.createElement("li");
    item.className = diagnostic.severity;
    const severity = document.createElement("span");
    severity.className = "severity";
    severity.textContent = diagnostic.severity;
    const code = document.createElement("code");
    code.textContent = `[${diagnostic.code}]`;
    item.append(
      severity, " ", code,
      ` line ${diagnostic.line}, column ${diagnostic.column}: ${diagnostic.message}`,
    );
    list.append(item);
  }
}

function renderSeats() {
  const game = page.game;
  if (!game) return;
  const seats = element("seats");
  seats.replaceChildren();
  game.roles.forEach((role, index) => {
    const label = document.createElement("label");
    label.append(`${role}: `);
    const select = document.createElement("select");
    select.dataset.role = String(index);
    if (game.random_roles.includes(index)) {
      select.append(new Option("random (the game's chance)", "random"));
      select.disabled = true;
    } else {
      select.append(new Option("a person", PERSON));
      for (const player of game.players) select.append(new Option(player, player));
      select.value = page.seats[index] ?? PERSON;
    }
    select.addEventListener("change", () => {
      page.seats[index] = select.value;
      showPosition().catch(failed);
    });
    label.append(select);
    seats.append(label);
  });
}

/** @param {number} role */
function seatOf(role) {
  if (page.game?.random_roles.includes(role)) return "random";
  return page.seats[role] ?? PERSON;
}

/** Whether any role is played by a person. */
function hasPerson() {
  return (page.game?.roles ?? []).some((_, role) => seatOf(role) === PERSON);
}

/** Follows the file: the server says when it changed on disk. @param {string} path */
function follow(path) {
  page.events?.close();
  const events = new EventSource(`/api/events?path=${encodeURIComponent(path)}`);
  events.addEventListener("changed", (event) => {
    const news = JSON.parse(/** @type {MessageEvent} */ (event).data);
    if (news.problem) {
      showNotice(`The file can no longer be read: ${news.problem}`);
      return;
    }
    showNotice("The file changed on disk: it was read again.");
    openGame(path, true).catch(failed);
  });
  page.events = events;
}

// ── Positions and play ─────────────────────────────────────────────────────────────────────

/** Asks for the position after the plies played, shows it and lets its players move. */
async function showPosition() {
  const game = page.game;
  if (!game) return;
  const generation = ++page.generation;
  page.chosen.clear();
  page.thinking.clear();
  page.selection = [];
  setState("loading");
  /** @type {Position} */
  let position;
  try {
    position = await api("/api/position", { game: game.path, moves: page.plies.map((p) => p.text) });
  } catch (error) {
    if (generation !== page.generation) return;
    if (error instanceof ApiFailure && error.status === 422 && page.plies.length > 0) {
      // The rules changed under the plies played (or a ply became illegal): start again.
      showNotice(`The moves played are no longer legal (${error.message}); the game starts again.`);
      page.plies = [];
      await showPosition();
      return;
    }
    throw error;
  }
  if (generation !== page.generation) return;
  page.position = position;
  showBoard(position.svg);
  renderHistory();
  const result = element("result");
  result.textContent = position.outcome ?? "";
  result.hidden = !position.over;
  advance(generation);
}

/**
 * Shows the board (an SVG written by the server, every text from the game escaped), drawn
 * larger when small, so that its cells are easy to click.
 * @param {string} svg
 */
function showBoard(svg) {
  const board = element("board");
  board.innerHTML = svg;
  const picture = board.querySelector("svg");
  const width = Number(picture?.getAttribute("width"));
  const height = Number(picture?.getAttribute("height"));
  if (!picture || !(width > 0) || !(height > 0)) return;
  const scale = Math.min(BOARD_GROWTH, Math.max(1, BOARD_WIDTH / width));
  picture.setAttribute("width", String(width * scale));
  picture.setAttribute("height", String(height * scale));
}

/** Lets whoever is to move in the position shown move. @param {number} generation */
function advance(generation) {
  const position = page.position;
  if (!position) return;
  const status = element("status");
  if (position.stuck) {
    status.textContent = `The game cannot go on: ${position.stuck}`;
    setState("stuck");
    renderPersonMoves();
    return;
  }
  if (position.over) {
    status.textContent = `Game over after ${page.plies.length} move${page.plies.length === 1 ? "" : "s"}.`;
    setState("over");
    renderPersonMoves();
    return;
  }
  if (page.paused) {
    status.textContent = "Paused.";
    setState("paused");
    renderPersonMoves();
    return;
  }
  if (position.forced !== null) {
    const forced = position.forced;
    status.textContent = `Forced: ${forced}`;
    setState("thinking");
    renderPersonMoves();
    setTimeout(() => {
      if (generation === page.generation) play(forced, `${forced} (the only move)`, false);
    }, FORCED_PLY_DELAY_MS);
    return;
  }
  for (const choice of position.choices) {
    const seat = seatOf(choice.role);
    if (seat !== PERSON) askPlayer(choice, seat, generation);
  }
  update(generation);
}

/**
 * Asks the server for a player's move.
 * @param {Choice} choice
 * @param {string} player
 * @param {number} generation
 */
function askPlayer(choice, player, generation) {
  const game = page.game;
  if (!game) return;
  const seconds = Number(/** @type {HTMLInputElement} */ (element("seconds")).value) || 1;
  page.thinking.add(choice.role);
  api("/api/move", {
    game: game.path,
    moves: page.plies.map((p) => p.text),
    role: choice.role,
    player,
    seconds,
  }).then((answer) => {
    if (generation !== page.generation) return;
    page.thinking.delete(choice.role);
    page.chosen.set(choice.role, answer.name);
    update(generation);
  }).catch((error) => {
    if (generation !== page.generation) return;
    failed(error);
  });
}

/** The person's choice to make now: the first role played by a person still without a move. */
function personToMove() {
  const position = page.position;
  if (!position || position.over || position.stuck || page.paused) return null;
  return position.choices.find(
    (choice) => seatOf(choice.role) === PERSON && !page.chosen.has(choice.role),
  ) ?? null;
}

/**
 * Plays the ply once every role to choose has chosen; else shows who is still to.
 * @param {number} generation
 */
function update(generation) {
  const position = page.position;
  if (!position || generation !== page.generation) return;
  const choices = position.choices;
  if (choices.length > 0 && choices.every((choice) => page.chosen.has(choice.role))) {
    const names = choices.map((choice) => page.chosen.get(choice.role) ?? "");
    const label = choices
      .map((choice) => `${choice.role_name} ${page.chosen.get(choice.role)}`)
      .join(", ");
    const byPerson = choices.some((choice) => seatOf(choice.role) === PERSON);
    play(names.join(" & "), label, byPerson);
    return;
  }
  const person = personToMove();
  const status = element("status");
  if (person) {
    status.textContent = `${person.role_name} to move: click a highlighted cell or a move.`;
    setState("your-turn");
  } else {
    const thinkers = choices
      .filter((choice) => page.thinking.has(choice.role))
      .map((choice) => `${choice.role_name} (${seatOf(choice.role)})`);
    status.textContent = `${thinkers.join(" and ")} thinking`;
    setState("thinking");
  }
  renderPersonMoves();
}

/**
 * Plays a ply and shows the position after it.
 * @param {string} text
 * @param {string} label
 * @param {boolean} byPerson
 */
function play(text, label, byPerson) {
  page.plies.push({ text, label, byPerson });
  showPosition().catch(failed);
}

/** The person's moves that every cell clicked so far belongs to. @param {Choice} choice */
function candidates(choice) {
  return choice.moves.filter((move) => page.selection.every((cell) => move.cells.includes(cell)));
}

/** Highlights the cells of the person's candidate moves and lists them as buttons. */
function renderPersonMoves() {
  const board = element("board");
  for (const marked of board.querySelectorAll(".legal, .selected")) {
    marked.classList.remove("legal", "selected");
  }
  const section = element("legal-moves");
  const buttons = element("move-buttons");
  buttons.replaceChildren();
  const person = personToMove();
  section.hidden = !person;
  if (!person) return;
  const moves = candidates(person);
  const highlighted = new Set(moves.flatMap((move) => move.cells));
  for (const cell of highlighted) {
    for (const part of board.querySelectorAll(`[data-cell="${cell}"]`)) {
      part.classList.add(page.selection.includes(cell) ? "selected" : "legal");
    }
  }
  element("legal-moves-title").textContent = `Moves of ${person.role_name}`;
  for (const move of moves.slice(0, MOVE_BUTTONS)) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.name;
    button.dataset.move = move.name;
    button.addEventListener("click", () => choose(person, move.name));
    buttons.append(button);
  }
  if (moves.length > MOVE_BUTTONS) {
    buttons.append(`… and ${moves.length - MOVE_BUTTONS} more: click cells to narrow them.`);
  }
}

/**
 * The person chose a move.
 * @param {Choice} choice
 * @param {string} name
 */
function choose(choice, name) {
  page.chosen.set(choice.role, name);
  page.selection = [];
  update(page.generation);
}

/** A click on a cell: narrows the person's moves to those that change it. @param {number} cell */
function clickCell(cell) {
  const person = personToMove();
  if (!person) return;
  page.selection.push(cell);
  let moves = candidates(person);
  if (moves.length === 0) {
    // A click that fits none of the moves so far starts a new selection.
    page.selection = [cell];
    moves = candidates(person);
  }
  if (moves.length === 0) {
    page.selection = [];
  } else if (moves.length === 1) {
    choose(person, moves[0].name);
    return;
  } else {
    const exact = moves.filter((move) => move.cells.length === page.selection.length);
    if (exact.length === 1 && moves.every((move) => move.cells.length >= page.selection.length)) {
      // Every cell of one move is clicked, and the others need more: that one is meant.
      choose(person, exact[0].name);
      return;
    }
  }
  renderPersonMoves();
}

function renderHistory() {
  const list = element("move-list");
  list.replaceChildren();
  for (const ply of page.plies) {
    const item = document.createElement("li");
    item.textContent = ply.label;
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

/** Takes back the last ply, and the players' replies after a person's move. */
function undo() {
  if (page.plies.length === 0) return;
  if (hasPerson()) {
    // Back to the person's last move, taken back too: the players' replies go with it.
    while (page.plies.length > 0) {
      const ply = page.plies.pop();
      if (ply?.byPerson) break;
    }
  } else {
    page.plies.pop();
    setPaused(true);
  }
  showNotice(null);
  showPosition().catch(failed);
}

/** @param {boolean} paused */
function setPaused(paused) {
  page.paused = paused;
  element("pause").textContent = paused ? "Resume" : "Pause";
}

/** @param {unknown} error */
function failed(error) {
  const message = error instanceof Error ? error.message : String(error);
  element("status").textContent = `Error: ${message}`;
  showNotice(message);
  setState("error");
}

function start() {
  element("filter").addEventListener("input", renderGames);
  element("board").addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    const cell = target.closest("[data-cell]");
    if (cell instanceof SVGElement && cell.dataset.cell !== undefined) {
      clickCell(Number(cell.dataset.cell));
    }
  });
  element("new-game").addEventListener("click", () => {
    page.plies = [];
    setPaused(false);
    showNotice(null);
    showPosition().catch(failed);
  });
  element("undo").addEventListener("click", undo);
  element("report").addEventListener("toggle", loadReportIfOpen);
  element("pause").addEventListener("click", () => {
    setPaused(!page.paused);
    showPosition().catch(failed);
  });
  window.addEventListener("hashchange", openFromAddress);
  loadGames()
    .then(() => {
      if (location.hash.length > 1) openFromAddress();
      else setState("idle");
    })
    .catch(failed);
}

start();
