// The mirror: the table's frames as they come (the board, every card display, the crown's animation), the
// game in words beside them, the moves so far (any of them looked back on without disturbing the game),
// and, where this page may play, the table's buttons by click, touch and the terminal's keys, and the
// board's squares: a square a card reaches previews that card, a second click plays it. Presses and
// releases go to the table as they happen; the table's own rule makes them presses, holds and releases, as
// it does for its push buttons. The table beats (once a second, unless configured otherwise): without a beat
// the page says it is stale, then reconnects by itself, trying again less and less often. With less motion
// asked for, the board stands still: the position in words, drawn.
import {
  LANG, api, boardWords, connectionSays, copier, element, keepInView, languageMenu, makeBoard, makeMatrix, markBoard,
  modeName, paintBoard, paintMatrix, playerWords, plyWords, said, seatTitle, setToken, showPly, squareOf, t,
  takeTokenFromAddress, textBoard, token, withLang,
} from "./common.js";

const $ = (id) => document.getElementById(id);
const ORDER = ["north", "east", "south", "west"];          // clockwise
const VIEW_TURNS = { south: 0, east: 1, north: 2, west: 3 };   // quarter turns that bring a side to the bottom
const REFUSALS = new Set(["wait", "empty", "off-board", "own-stone", "no-hero", "card-first", "hand-full"]);
const STALE_BEATS = 3;          // beats missed before the page says it is stale
const DROP_BEATS = 6;           // beats missed before it gives the connection up and makes a new one
const FIRST_TRY_BEATS = 0.5;    // the wait before a new connection: half a beat, twice as long each time…
const LAST_TRY_BEATS = 8;       // … up to eight beats
const CONNECT_MS = 5000;        // a connection not open by then is given up
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

let socket = null;
let table = null;           // what the table is: seats, sides, display slots, buttons, keys, colours
let rights = { play: false };
let lights = null;
let matrices = new Map();   // slot → canvas
let cards = new Map();      // slot → its button (or its picture, on a page that only watches)
let frame = null;           // the last frame
let state = null;           // the last state
let spoken = "", told = "";
let tries = 0;              // connections given up since the last one opened
let retryTimer = null;
let heard = 0;              // when the table was last heard from (performance.now())
let opened = 0;
let turns = null;           // how the picture is turned: quarter turns clockwise from the table's south view
let chosenSeat = new URL(location.href).searchParams.get("seat");
let turnedFor = null;       // the game the view was turned for, by itself, to its one person's seat
let review = null;          // looking back: { game, n }
let keyMap = new Map();     // key → button, as the terminal has them
const held = new Set();     // the buttons this page holds down

takeTokenFromAddress();
languageMenu();
connect();
setInterval(watch, 500);

// --- the connection: beats, stale, reconnecting ---------------------------------------------------

// One connection at a time: a new one closes the one before.
function connect() {
  clearTimeout(retryTimer);
  if (socket) {
    const old = socket;
    socket = null;
    old.close();
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws?lang=${LANG}`);
  socket = ws;
  opened = performance.now();
  connectionSays("connecting", t("connecting"));
  ws.addEventListener("open", () => {
    if (ws !== socket) return;
    tries = 0;
    heard = performance.now();
    if (token()) send({ type: "auth", token: token() });
  });
  ws.addEventListener("message", (event) => {
    if (ws !== socket) return;
    heard = performance.now();
    receive(JSON.parse(event.data));
  });
  ws.addEventListener("close", () => {
    if (ws === socket) lost();
  });
}

// The connection is gone (closed, or given up): let go of every button, and try again after a while, twice as
// long each time (in beats: 0.5 s, 1 s, … up to 8 s), a little at random so that many pages do not all come at once.
function lost() {
  letGoOfAll();
  const old = socket;
  socket = null;
  if (old && old.readyState < WebSocket.CLOSING) old.close();
  const beat = table ? table.beat * 1000 : 1000;
  const wait = beat * Math.min(LAST_TRY_BEATS, FIRST_TRY_BEATS * 2 ** tries) * (0.8 + 0.4 * Math.random());
  tries += 1;
  connectionSays("lost", t("reconnecting", { seconds: Math.ceil(wait / 1000) }));
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, wait);
}

// Twice a second: is the table still there? Without a beat the page is stale; later it reconnects.
function watch() {
  if (!socket) return;
  const now = performance.now();
  if (socket.readyState === WebSocket.CONNECTING) {
    if (now - opened > CONNECT_MS) lost();
    return;
  }
  if (socket.readyState !== WebSocket.OPEN || !table) return;
  const silent = (now - heard) / 1000;
  if (silent > DROP_BEATS * table.beat) lost();
  else if (silent > STALE_BEATS * table.beat) connectionSays("stale", t("stale", { seconds: Math.floor(silent) }));
  else connectionSays("live", t("live"));
}

// Back on the network, or in view again, while waiting to try again: try now (a connection on its way is left be).
window.addEventListener("online", () => { if (!socket) connect(); });
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !socket) connect();
});

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "hello") {
    table = message.table;
    keyMap = new Map(table.keys);
    rights = message.rights;
    connectionSays("live", t("live"));
    build();
  } else if (message.type === "rights") {
    rights = message.rights;
    build();
  } else if (message.type === "frame") {
    frame = message;
    paint();
  } else if (message.type === "state") {
    state = message.state;
    turnToThePerson();
    say();
  } else if (message.type === "error") {
    const error = $("error");
    const wrongToken = message.about === "auth";
    if (wrongToken) setToken("");          // not sent again at each new connection
    error.textContent = (wrongToken ? t("error-wrong-token") : { 403: t("error-watch-only"), 429: t("error-too-fast") }[
      message.status]) || message.error;
    clearTimeout(error.timer);
    error.timer = setTimeout(() => { error.textContent = ""; }, 5000);
  }
}

// --- the picture ----------------------------------------------------------------------------------

// Where a side of the table is drawn, the picture turned.
function drawnAt(side) {
  return ORDER[(ORDER.indexOf(side) + turns) % 4];
}

// The slots along `side` (as seen from above, `table.panels`) in the order they are drawn, turned.
function along(side, slots) {
  let at = side, list = [...slots];
  for (let k = 0; k < turns; k++) {
    if (at === "east" || at === "west") list.reverse();
    at = ORDER[(ORDER.indexOf(at) + 1) % 4];
  }
  return list;
}

function viewTurns() {
  const side = chosenSeat && table.sides[chosenSeat];
  return side ? VIEW_TURNS[side] : 0;
}

// A game against the computer is seen from its one person's seat, unless the address chose a seat.
function turnToThePerson() {
  if (!state || !table || chosenSeat || state.number === turnedFor || !state.seats.length) return;
  turnedFor = state.number;
  const people = state.seats.filter((s) => s.player === "human");
  const want = people.length === 1 ? VIEW_TURNS[table.sides[people[0].seat]] : 0;
  if (want !== turns) {
    turns = want;
    build();
  }
}

function build() {
  if (turns === null) turns = viewTurns();
  lights = makeBoard($("board"), turns);
  matrices = new Map();
  cards = new Map();
  for (const side of ORDER) $(side).replaceChildren();
  for (const [seat, side] of Object.entries(table.sides)) {
    const at = drawnAt(side);
    const slots = along(side, table.panels[side] || []);
    const row = element("div", { className: "displays" });
    for (const slot of slots) {
      const canvas = makeMatrix();
      canvas.style.transform = `rotate(${turns * 90}deg)`;
      matrices.set(slot, canvas);
      const holder = rights.play && table.buttons.includes(slot)
        ? pressable(element("button", { type: "button", className: "display", "data-button": slot }))
        : element("div", { className: "display", role: "img" });
      holder.setAttribute("aria-label", cardLabel(slot));
      holder.append(canvas);
      cards.set(slot, holder);
      row.append(holder);
    }
    const extras = rights.play ? ["hero", "draw"].map((c) => `${seat}.${c}`)
      .filter((name) => table.buttons.includes(name) && !slots.includes(name)) : [];
    const controls = element("div", { className: "controls" }, ...extras.map((name) => pressable(element("button", {
      type: "button", className: "control", "data-button": name,
      "aria-label": `${seatTitle(seat)}: ${said(name.split(".")[1])}`, text: said(name.split(".")[1]) }))));
    const title = element("p", { className: "seat-title", "data-seat": seat },
      element("span", { className: `colour ${seat.replace(/\d+$/, "")}`, text: seatTitle(seat) }),
      element("span", { className: "person" }), element("span", { className: "mover", text: ` ◀ ${t("to-move")}` }));
    $(at).append(title, controls, row);
  }
  $("table").classList.toggle("teams", Boolean(table.panels.west || table.panels.east));
  $("table").dataset.turns = String(turns);
  $("menu").hidden = !rights.play;
  $("menu").textContent = said("menu");
  if (rights.play) pressable($("menu"));
  $("keys").textContent = rights.play ? keyLegend() : t("watch-only");
  if (frame) paint();
  if (state) say();
  if (review) showReview();           // the board made anew, the position looked back on drawn again
}

// A frame: the card displays as they are lit, and the board, unless it is looked back on or stands still.
function paint() {
  if (!lights || !frame) return;
  if (!review && !reducedMotion.matches) paintBoard(lights, frame.board);
  const dimmed = new Set(frame.dimmed);
  for (const [slot, canvas] of matrices) {
    paintMatrix(canvas, frame.displays[slot] || [0, 0, 0, 0, 0, 0, 0, 0], dimmed.has(slot), table.dots);
  }
  $("caption").textContent = frame.caption;
}

// With less motion asked for, nothing on the board moves: it is drawn when the state in words changes, not at
// each frame. During a game it is the position: each stone, the crown on its square (its stone's colour, or its
// own; its mark shows it) and the chosen card's square in its seat's colour, as the table blinks them; with no
// game (a menu, attract mode), the frame shown with the state, until the state changes.
function paintStill() {
  if (!lights || review || !reducedMotion.matches) return;
  if (state && state.crown) paintBoard(lights, stillColours());
  else if (frame) paintBoard(lights, frame.board);
}

function stillColours() {
  const colours = table.colours;
  const red = new Set(state.red_stones), white = new Set(state.white_stones);
  const p = state.preview;
  const chosen = p && p.square && p.kind !== "no" ? p.square : null;
  return Array.from({ length: 81 }, (_, i) => {
    const square = squareOf(i);
    const stone = red.has(square) ? colours.red : white.has(square) ? colours.white : null;
    if (square === chosen) return colours[p.seat.replace(/\d+$/, "")];
    if (square === state.crown) return stone || colours.crown;
    return stone || "#000000";
  });
}

reducedMotion.addEventListener("change", () => (reducedMotion.matches ? paintStill() : paint()));

// --- the game in words ------------------------------------------------------------------------------

function cardLabel(slot) {
  const [seat, control] = slot.split(".");
  if (!control.startsWith("card")) {                  // a display of its own for HERO (its heroes left) or DRAW
    const sitting = state && state.seats.find((s) => s.seat === seat);
    return `${seatTitle(seat)}: ${said(control)}` + (sitting && control === "hero" ? ` (${sitting.heroes})` : "");
  }
  const k = Number(control.replace("card", ""));
  const name = `${seatTitle(seat)}, ${t("card-n", { n: k })}`;
  const sitting = state && state.seats.find((s) => s.seat === seat);
  const card = sitting && sitting.cards[k - 1];
  if (!card) return `${name}: ${state && state.screen === "play" ? t("empty-slot") : t("no-card")}`;
  const reach = state.reach.find((r) => r.slot === k && state.to_move === seat);
  const p = state.preview;
  const previewed = p && p.seat === seat && p.slot === k;
  let what = card;
  if (reach) what += ` (${reachWords(reach)})`;
  if (previewed) what += `, ${t("previewed")}`;
  return `${name}: ${what}`;
}

function reachWords(reach) {
  if (reach.kind === "play") return t("reach-play", { square: reach.square });
  if (reach.kind === "hero") return t("reach-hero", { square: reach.square });
  return reach.square ? t("reach-no", { square: reach.square }) : t("reach-off");
}

function say() {
  if (!state || !table) return;
  const seats = state.seats || [];
  let summary;
  if (state.screen === "menu") summary = t("summary-menu");
  else if (state.screen === "attract") summary = t("summary-attract");
  else if (state.screen === "asleep") summary = t("summary-asleep");
  else if (state.screen === "staff") summary = t("summary-staff");
  else if (state.screen === "over") summary = t("summary-over", { result: state.result });
  else {
    const mover = seats.find((s) => s.seat === state.to_move);
    summary = t("summary-play", { seat: seatTitle(state.to_move), who: mover ? playerWords(mover) : "",
      red: state.scores[0], white: state.scores[1] });
    if (state.last_move) summary += " " + t("summary-last", { move: state.last_move });
  }
  if (state.screen === "options") summary += " " + t("summary-options");
  if (summary !== spoken) {          // the live region speaks only when the state in words changes
    spoken = summary;
    $("summary").textContent = summary;
  }
  const news = saidWords();
  if (news !== told) {
    told = news;
    $("said").textContent = news;
  }
  const facts = state.seats.length ? [
    [t("score"), `${seatTitle("red")} ${state.scores[0]} · ${seatTitle("white")} ${state.scores[1]}`],
    [t("turn"), state.to_move ? seatTitle(state.to_move) : t("nobody-over")],
    [t("stones-left"), String(state.stones_left)], [t("pile"), t("cards-count", { n: state.pile })],
    [t("moves"), String(state.moves)], [t("mode"), state.mode ? modeName(state.mode) : "—"]] : [];
  $("facts").replaceChildren(...facts.flatMap(([term, value]) => [element("dt", { text: term }),
    element("dd", { text: value })]));
  $("seats").replaceChildren(...seats.map((seat) => element("section", {
    className: `seat${seat.seat === state.to_move ? " to-move" : ""}`, "aria-label": seatTitle(seat.seat) },
  element("h2", { text: `${seatTitle(seat.seat)}: ${playerWords(seat)}` }),
  element("p", { text: t("heroes-cards", { heroes: seat.heroes, cards: handWords(seat.cards) }) }))));
  const names = Object.fromEntries(seats.map((s) => [s.seat, s.name]));
  for (const title of document.querySelectorAll(".seat-title")) {
    const seat = title.dataset.seat;
    title.querySelector(".person").textContent = names[seat] || state.names[seat] || "";
    title.classList.toggle("to-move", seat === state.to_move);
  }
  for (const [slot, holder] of cards) holder.setAttribute("aria-label", cardLabel(slot));
  menuHelp();
  movesList();
  reachable();
  if (!review) {                       // looking back, the board and its words are the position looked back on
    marks();
    const position = { red: state.red_stones, white: state.white_stones, crown: state.crown };
    textBoard($("text-board"), position);
    $("board").setAttribute("aria-label", state.crown ? boardWords(position) : t("board-label"));
    paintStill();
  }
  const game = state.seats.length > 0;
  $("download").hidden = !game;
  $("share").value = shareLink();
}

// A seat's cards in words, card 1 first, its empty buttons counted: "NE2 W1 (3 empty)".
function handWords(cards) {
  const held = cards.filter(Boolean);
  const empty = cards.length - held.length;
  return (held.join(" ") || "—") + (empty ? ` (${t("empty-count", { n: empty })})` : "");
}

// What the table's displays say of a press, in words: the preview, a refusal and why, HERO?, WAIT; in a menu,
// its cards.
function saidWords() {
  const s = state.said, p = state.preview;
  if (s && REFUSALS.has(s.key)) {
    const who = s.seat ? `${seatTitle(s.seat)}: ` : "";
    return `${who}${s.text}. ${t(`why-${s.key}`, { seat: state.to_move ? seatTitle(state.to_move) : "" })}`;
  }
  if (p && p.kind === "hero") return t("said-hero", { seat: seatTitle(p.seat), move: p.move, square: p.square });
  if (p && p.kind === "play") return t("said-preview", { seat: seatTitle(p.seat), move: p.move, square: p.square });
  if (s && s.key === "passes" && s.by) return t("said-passes", { seat: seatTitle(s.by) });
  if (s && s.key === "hero") return t("said-hero-played");
  if (s && s.key === "undone") return s.text;
  if (state.screen === "menu" || state.screen === "options") {     // a menu's cards, said as they change
    const cards = state.menu.map((label, k) => (label ? `${t("card-n", { n: k + 1 })}: ${label}` : "")).filter(Boolean);
    return `${t(state.screen === "menu" ? "new-game-menu" : "game-menu")}: ${cards.join("; ")}.`;
  }
  return "";
}

// The menus' cards, each with what it does.
function menuHelp() {
  const open = state.screen === "menu" || state.screen === "options";
  $("menu-help").hidden = !open;
  if (!open) return;
  const labels = state.menu;
  const game = state.screen === "options";
  $("menu-help-title").textContent = game ? t("game-menu") : t("new-game-menu");
  $("menu-cards").replaceChildren(...labels.map((label, k) => {
    if (!label) return null;
    const what = game ? t(`${state.menu_keys[k]}-does`)
      : t(k === labels.length - 1 ? "menu-card-start" : `menu-card-${k + 1}`);
    return element("li", { text: `${t("card-n", { n: k + 1 })}: ${label} — ${what}` });
  }).filter(Boolean));
  $("menu-note").textContent = game ? t("game-menu-note") : t("new-game-menu-note");
}

function keyLegend() {
  const bySeat = new Map();
  for (const [key, name] of table.keys) {
    const [seat, control] = name.includes(".") ? name.split(".") : ["", name];
    if (!bySeat.has(seat)) bySeat.set(seat, []);
    bySeat.get(seat).push(`${key} ${control.replace("card", `${t("card-short")} `)}`);
  }
  return t("keys", { keys: [...bySeat].map(([seat, keys]) => (seat ? `${seatTitle(seat)}: ` : "") + keys.join(", "))
    .join("; ") });
}

function shareLink() {
  const url = new URL("/", location.href);
  if (chosenSeat) url.searchParams.set("seat", chosenSeat);
  return url.href;
}

// --- the board's marks and squares ---------------------------------------------------------------------

function marks() {
  const last = state.last;
  markBoard($("board"), { crown: state.crown, last: last && last.target, "last-from": last && last.origin,
    preview: state.preview && state.preview.kind !== "no" ? state.preview.square : null });
}

// The squares the cards of the seat to move reach, pressable where this page plays.
function reachable() {
  const reach = new Map(rights.play && !review ? state.reach.filter((r) => r.square).map((r) => [r.square, r]) : []);
  for (const cell of $("board").querySelectorAll(".cell")) {
    const r = reach.get(cell.dataset.square);
    if (r) {
      cell.setAttribute("role", "button");
      cell.tabIndex = 0;
      cell.setAttribute("aria-label", `${cell.dataset.square}: ${seatTitle(state.to_move)} ${r.card}, ${reachWords(r)}`);
      cell.removeAttribute("aria-hidden");
      cell.classList.add("reach");
      cell.dataset.kind = r.kind;
    } else if (cell.classList.contains("reach") || !cell.hasAttribute("aria-hidden")) {
      cell.removeAttribute("role");
      cell.removeAttribute("tabindex");
      cell.removeAttribute("aria-label");
      cell.setAttribute("aria-hidden", "true");
      cell.classList.remove("reach");
    }
  }
}

// A square a card reaches: the first click previews the card, the second plays it (HERO, for a hero's move).
function clickSquare(event) {
  const cell = event.target.closest(".cell.reach");
  if (!cell || !state) return;
  const r = state.reach.find((x) => x.square === cell.dataset.square);
  if (!r) return;
  const p = state.preview;
  const again = p && p.seat === state.to_move && p.slot === r.slot;
  tap(again && p.kind === "hero" ? `${state.to_move}.hero` : `${state.to_move}.card${r.slot}`);
}

function keySquare(event) {
  if ((event.key === "Enter" || event.key === " ") && event.target.closest(".cell.reach")) {
    event.preventDefault();
    clickSquare(event);
  }
}

function tap(name) {
  press(name, true);
  press(name, false);
}

// --- the moves so far, and looking back on them ----------------------------------------------------------

// The list follows the game's moves, each item's words compared (a takeback, a new game change them).
function movesList() {
  const list = $("moves");
  const history = state.history || [];
  $("no-moves").hidden = history.length > 0;
  while (list.children.length > history.length) list.lastElementChild.remove();
  history.forEach(([seat, move], n) => {
    const text = `${seatTitle(seat)} ${move}`;
    const item = list.children[n];
    if (!item) {
      list.append(element("li", {}, element("button", { type: "button", "data-ply": String(n + 1), text })));
    } else if (item.textContent !== text) {
      item.firstElementChild.textContent = text;
    }
  });
  current();
}

function current() {
  const n = review ? review.n : (state.history || []).length;
  for (const item of $("moves").children) item.removeAttribute("aria-current");
  const item = n > 0 ? $("moves").children[n - 1] : null;
  if (item) {
    item.setAttribute("aria-current", "step");
    keepInView($("moves"), item);
  }
  $("back").disabled = n === 0;
  $("on").disabled = !review;
}

// Look at the position after move `n` of the game on the table (the table's own replay of it); the game
// goes on meanwhile, and the page follows it again with "back to the game" (or any press).
async function lookBack(n) {
  const history = state.history || [];
  if (n >= history.length) { toLive(); return; }
  n = Math.max(0, n);
  let game = review && review.game;
  if (!game || review.number !== state.number || !sameMoves(game, history)) {
    try {
      game = await api("/api/games/current");
    } catch (error) {
      $("error").textContent = error.message;
      return;
    }
  }
  review = { game, n, number: state.number };
  showReview();
}

// Whether `game` (the table's replay of the game on it) is still the game's moves, move for move: after a
// takeback, or a new game, it is not.
function sameMoves(game, history) {
  return game.plies.length === history.length + 1 && history.every(([, move], k) => game.plies[k + 1].move === move);
}

// The position looked back on: the board, its marks and its words.
function showReview() {
  const { game, n } = review;
  document.body.classList.add("reviewing");
  $("review").hidden = false;
  $("review-text").textContent = `${t("looking-back")} ${plyWords(game, n)}`;
  showPly($("board"), lights, game, n);
  markBoard($("board"), { preview: null });
  const ply = game.plies[n];
  const position = { red: ply.red_stones, white: ply.white_stones, crown: ply.crown };
  textBoard($("text-board"), position);
  $("board").setAttribute("aria-label", boardWords(position));
  reachable();
  current();
}

function toLive() {
  review = null;
  document.body.classList.remove("reviewing");
  $("review").hidden = true;
  paint();
  say();
}

$("board").addEventListener("click", clickSquare);
$("board").addEventListener("keydown", keySquare);
$("moves").addEventListener("click", (event) => {
  const ply = event.target.closest("button[data-ply]");
  if (ply) lookBack(Number(ply.dataset.ply));
});
$("back").addEventListener("click", () => lookBack((review ? review.n : (state.history || []).length) - 1));
$("on").addEventListener("click", () => review && lookBack(review.n + 1));
$("live").addEventListener("click", toLive);
$("flip").addEventListener("click", () => {
  turns = (turns + 2) % 4;
  const bottom = Object.entries(table.sides).find(([, side]) => drawnAt(side) === "south");
  chosenSeat = bottom ? bottom[0] : null;
  const url = new URL(location.href);
  if (chosenSeat) url.searchParams.set("seat", chosenSeat); else url.searchParams.delete("seat");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
  build();
});
copier($("copy"), $("share"));
for (const link of document.querySelectorAll("nav a")) link.href = withLang(link.getAttribute("href"));

// --- pressing -------------------------------------------------------------------------------------

function press(name, down) {
  if (!rights.play || down === held.has(name)) return;
  if (down && review) toLive();          // a press is made on the game as it is
  if (down) held.add(name); else held.delete(name);
  document.querySelectorAll(`[data-button="${CSS.escape(name)}"]`).forEach((b) => b.classList.toggle("down", down));
  send({ type: "button", name, down });
}

function letGoOfAll() {
  for (const name of [...held]) press(name, false);
}

function pressable(button) {
  if (button.dataset.pressable) return button;
  button.dataset.pressable = "yes";
  const name = button.dataset.button;
  button.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    button.setPointerCapture(event.pointerId);
    press(name, true);
  });
  for (const end of ["pointerup", "pointercancel", "lostpointercapture"]) {
    button.addEventListener(end, () => press(name, false));
  }
  button.addEventListener("keydown", (event) => {
    if ((event.key === " " || event.key === "Enter") && !event.repeat) { event.preventDefault(); press(name, true); }
  });
  button.addEventListener("keyup", (event) => {
    if (event.key === " " || event.key === "Enter") { event.preventDefault(); press(name, false); }
  });
  button.addEventListener("contextmenu", (event) => event.preventDefault());
  return button;
}

function keyed(event, down) {
  if (!table || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (down && (event.key === "ArrowLeft" || event.key === "ArrowRight") && state) {
    event.preventDefault();
    const n = review ? review.n : (state.history || []).length;
    lookBack(n + (event.key === "ArrowLeft" ? -1 : 1));
    return;
  }
  if (!rights.play) return;
  const name = keyMap.get(event.key.toLowerCase());
  if (!name) return;
  event.preventDefault();
  if (!event.repeat) press(name, down);
}

document.addEventListener("keydown", (event) => keyed(event, true));
document.addEventListener("keyup", (event) => keyed(event, false));
window.addEventListener("blur", letGoOfAll);
