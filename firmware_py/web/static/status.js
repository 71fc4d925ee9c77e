// The operator's page: the table's health (every two seconds), its last errors, the recent games with a
// step-through replay (positions computed by the table's engine), the archive's download, the token, and
// with the token the operator's actions: a new game, the brightness, a clean shutdown (if allowed).
import { api, element, makeBoard, paintBoard, seatTitle, setToken, takeTokenFromAddress, token } from "./common.js";

const $ = (id) => document.getElementById(id);
let replay = null;      // the game in the viewer: its plies
let lights = null;

takeTokenFromAddress();
showTokenState();
health();
setInterval(health, 2000);
games();
setInterval(games, 15000);
window.addEventListener("hashchange", fromHash);
fromHash();

// --- health -----------------------------------------------------------------------------

function duration(seconds) {
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${s} s`;
}

function bytes(n) {
  if (n === null) return "unknown (the data directory cannot be read)";
  const units = ["B", "kB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
}

async function health() {
  let s;
  try {
    s = await api("/api/status");
  } catch (error) {
    $("connection").textContent = `the table does not answer (${error.message})`;
    $("connection").dataset.state = "lost";
    return;
  }
  $("connection").textContent = "live";
  $("connection").dataset.state = "live";
  const rows = [
    ["Up for", duration(s.uptime_seconds)],
    ["Started", new Date(s.started * 1000).toLocaleString()],
    ["Backend", s.backend === "pi" ? "the Raspberry Pi's devices" : "the simulated table"],
    ["Mode", `${s.mode} (${s.screen})`],
    [`Games today (${s.today})`, `${s.games_started} started, ${s.games_finished} finished`],
    ["Frames per second", `${s.frames_per_second} (${s.frames} shown in all)`],
    ["Brightness", `${Math.round(s.brightness * 100)}%`],
    ["At fault", s.faults.length ? s.faults.join(", ") : "nothing"],
    ["Watchdog", s.watchdog_armed ? (s.last_ping ? `armed, last ping ${new Date(s.last_ping * 1000).toLocaleTimeString()}`
      : "armed") : "not armed (not run by systemd)"],
    ["Watching", `${s.viewers} page${s.viewers === 1 ? "" : "s"}`],
    ["Free space", bytes(s.free_bytes)],
    ["Data directory", s.data_dir],
  ];
  $("health").replaceChildren(...rows.flatMap(([t, v]) => [element("dt", { text: t }), element("dd", { text: v })]));
  $("log").replaceChildren(...s.errors.slice().reverse().map((e) => element("li", {},
    element("time", { datetime: new Date(e.at * 1000).toISOString(), text: new Date(e.at * 1000).toLocaleTimeString() }),
    " ", e.line)));
  $("no-log").hidden = s.errors.length > 0;
}

// --- recent games -------------------------------------------------------------------------

function who(game, colour) {
  if (game.names && game.names[colour]) return game.names[colour];
  const player = game.players[colour];
  if (player === undefined) return "—";
  return player === "human" ? "a person" : `computer (${player})`;
}

async function games() {
  let list;
  try {
    list = (await api("/api/games")).games;
  } catch {
    return;
  }
  $("no-games").hidden = list.length > 0;
  $("games").replaceChildren(...list.map((g) => element("tr", {},
    element("td", { text: String(g.line) }),
    element("td", { text: g.variant === "teams" ? "Red team" : who(g, "red") }),
    element("td", { text: g.variant === "teams" ? "White team" : who(g, "white") }),
    element("td", { className: "number", text: `${g.scores.red}–${g.scores.white}` }),
    element("td", { text: `${g.winner === "draw" ? "a draw" : `${seatTitle(g.winner)} won`} (${g.reason})` }),
    element("td", { className: "number", text: String(g.moves) }),
    element("td", {}, element("a", { href: `#game=${g.line}`, className: "link-button",
      "aria-label": `Replay game ${g.line}`, text: "Replay" })))));
}

// --- the replay viewer -----------------------------------------------------------------------

function fromHash() {
  const match = /^#game=(\d{1,9})$/.exec(location.hash);
  if (match) open(Number(match[1]));
}

async function open(line) {
  const card = $("replay-card");
  card.hidden = false;
  $("replay-title").textContent = `Replay of game ${line}`;
  try {
    replay = await api(`/api/games/${line}`);
  } catch (error) {
    replay = null;
    $("replay-move").textContent = error.message;
    $("moves").replaceChildren();
    return;
  }
  lights = makeBoard($("replay-board"));
  const seats = Object.keys(replay.players || {});
  $("replay-who").textContent = seats.map((seat) => `${seatTitle(seat)}: ${(replay.names || {})[seat] ||
    (replay.players[seat] === "human" ? "a person" : `computer (${replay.players[seat]})`)}`).join(" · ") +
    (replay.result.winner ? ` · ${replay.result.winner === "draw" ? "a draw" : `${seatTitle(replay.result.winner)} won`}` +
      ` (${replay.result.reason})` : " · unfinished");
  $("moves").replaceChildren(...replay.plies.slice(1).map((ply, i) => element("li", {},
    element("button", { type: "button", "data-ply": String(i + 1), text: `${seatTitle(ply.by)} ${ply.move}` }))));
  $("ply").max = String(replay.plies.length - 1);
  show(replay.plies.length - 1);
  card.scrollIntoView({ block: "nearest" });
}

function show(n) {
  if (!replay) return;
  const last = replay.plies.length - 1;
  n = Math.max(0, Math.min(last, n));
  const ply = replay.plies[n];
  paintBoard(lights, ply.board);
  $("ply").value = String(n);
  const what = n === 0 ? "The start" : `Move ${n} of ${last}: ${seatTitle(ply.by)} ${ply.move}`;
  $("replay-move").textContent = `${what}. Red ${ply.scores.red}, White ${ply.scores.white}; ` +
    `${ply.stones_left} stones left; the crown on ${ply.crown}.`;
  for (const item of $("moves").children) item.removeAttribute("aria-current");
  if (n > 0) {
    const item = $("moves").children[n - 1];
    item.setAttribute("aria-current", "step");
    item.scrollIntoView({ block: "nearest" });
  }
}

const current = () => Number($("ply").value);
$("first").addEventListener("click", () => show(0));
$("previous").addEventListener("click", () => show(current() - 1));
$("next").addEventListener("click", () => show(current() + 1));
$("last").addEventListener("click", () => show(Infinity));
$("ply").addEventListener("input", () => show(current()));
$("moves").addEventListener("click", (event) => {
  const ply = event.target.closest("button[data-ply]");
  if (ply) show(Number(ply.dataset.ply));
});
$("replay-card").addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
  if (step !== undefined && event.target.type !== "range") {
    event.preventDefault();
    show(Number.isFinite(step) ? current() + step : step < 0 ? 0 : Infinity);
  }
});

// --- the token --------------------------------------------------------------------------------

async function showTokenState() {
  $("actions").hidden = true;
  if (!token()) {
    $("token-state").textContent = "no token kept";
    return;
  }
  try {
    const { table, rights } = await api("/api/state");
    $("token-state").textContent = rights.operator ? "the operator's token is kept for this tab"
      : "this is not the operator's token";
    $("actions").hidden = !rights.operator;
    $("shutdown-form").hidden = !rights.shutdown;
    const modes = $("new-mode");
    if (modes.options.length === 1) {
      for (const mode of table.modes) modes.append(element("option", { value: mode, text: mode }));
    }
  } catch (error) {
    $("token-state").textContent = error.message;
  }
}

// --- the operator's actions ---------------------------------------------------------------------

async function act(path, body, done) {
  $("action-state").textContent = "…";
  try {
    $("action-state").textContent = done(await api(path, { method: "POST", body }));
    health();
  } catch (error) {
    $("action-state").textContent = error.message;
  }
}

$("new-game-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const mode = $("new-mode").value;
  act("/api/new-game", mode ? { mode } : {}, (answer) => `A new game of ${answer.mode} is on the table.`);
});
$("brightness").addEventListener("input", () => { $("brightness-value").textContent = `${$("brightness").value}%`; });
$("brightness-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act("/api/brightness", { level: Number($("brightness").value) / 100 },
    (answer) => `The brightness is ${Math.round(answer.level * 100)}%.`);
});
$("shutdown-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!window.confirm("Shut the table down? It needs its power switched off and on to start again.")) return;
  act("/api/shutdown", {}, () => "The table is shutting down.");
});

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setToken($("token").value.trim());
  $("token").value = "";
  showTokenState();
});
$("forget").addEventListener("click", () => { setToken(""); showTokenState(); });
