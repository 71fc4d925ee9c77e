// The operator's page: the table's health (every two seconds, and said to be stale when the table does
// not answer), its last errors, what was refused to the network (apart: no crowd of requests wipes the
// errors), the recent games with their replays and the archive's download, the token, and with the token
// the operator's actions: a new game, the brightness, a clean shutdown (if allowed).
import {
  api, connectionSays, element, gamePlayer, languageMenu, modeName, resultWords, setToken, t, takeTokenFromAddress,
  token, withLang,
} from "./common.js";

const $ = (id) => document.getElementById(id);
const STALE_MS = 5000;
let answered = 0;       // when the table last answered (performance.now())

const legacy = /^#game=(\d{1,9})$/.exec(location.hash);     // the replay's old address
if (legacy) location.replace(withLang(`/replay?game=${legacy[1]}`));
takeTokenFromAddress();
languageMenu();
showTokenState();
health();
setInterval(health, 2000);
setInterval(stale, 1000);
games();
setInterval(games, 15000);

// --- health -------------------------------------------------------------------------------------

function duration(seconds) {
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  return d ? t("days-hours", { d, h }) : h ? t("hours-minutes", { h, m }) : m ? t("minutes-seconds", { m, s: s % 60 })
    : t("seconds", { s });
}

function bytes(n) {
  if (n === null) return t("free-unknown");
  const units = ["B", "kB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${n.toLocaleString(document.documentElement.lang, { maximumFractionDigits: i ? 1 : 0 })} ${units[i]}`;
}

function when(at, time = true) {
  const date = new Date(at * 1000);
  return time ? date.toLocaleTimeString(document.documentElement.lang) : date.toLocaleString(document.documentElement.lang);
}

function stale() {
  if (answered && performance.now() - answered > STALE_MS) {
    connectionSays("stale", t("stale", { seconds: Math.floor((performance.now() - answered) / 1000) }));
  }
}

async function health() {
  let s;
  try {
    s = await api("/api/status", {}, 4000);
  } catch (error) {
    connectionSays("lost", t("no-answer-now", { why: error.message }));
    return;
  }
  answered = performance.now();
  connectionSays("live", t("live"));
  const rows = [
    [t("up-for"), duration(s.uptime_seconds)],
    [t("started"), when(s.started, false)],
    [t("backend"), s.backend === "pi" ? t("backend-pi") : t("backend-sim")],
    [t("mode"), s.mode === s.screen ? t(`screen-${s.screen}`) : `${modeName(s.mode)} (${t(`screen-${s.screen}`)})`],
    [t("games-today", { day: s.today }), t("games-started-finished", { started: s.games_started, finished: s.games_finished })],
    [t("frames-per-second"), t("frames-shown", { fps: s.frames_per_second, frames: s.frames })],
    [t("brightness"), `${Math.round(s.brightness * 100)}%`],
    [t("at-fault"), s.faults.length ? s.faults.join(", ") : t("nothing")],
    [t("watchdog"), s.watchdog_armed ? (s.last_ping ? t("watchdog-pinged", { at: when(s.last_ping) }) : t("watchdog-armed"))
      : t("watchdog-off")],
    [t("watching"), t(s.viewers === 1 ? "pages-count-one" : "pages-count", { n: s.viewers })],
    [t("free-space"), bytes(s.free_bytes)],
    [t("data-directory"), s.data_dir],
  ];
  $("health").replaceChildren(...rows.flatMap(([term, v]) => [element("dt", { text: term }), element("dd", { text: v })]));
  $("log").replaceChildren(...s.errors.slice().reverse().map((e) => element("li", {},
    element("time", { datetime: new Date(e.at * 1000).toISOString(), text: when(e.at) }), " ", e.line)));
  $("no-log").hidden = s.errors.length > 0;
  const refused = s.refused;
  $("refused").textContent = refused.total ? t("refused-count", { n: refused.total,
    kinds: Object.entries(refused.by_status).map(([status, n]) => `${status} ×${n}`).join(", ") }) : t("refused-none");
  $("refusals").replaceChildren(...refused.last.slice().reverse().map((r) => element("li", {},
    element("time", { datetime: new Date(r.at * 1000).toISOString(), text: when(r.at) }),
    ` ${r.status} ${r.what} ${t("from")} ${r.from}: ${r.why}`)));
}

// --- recent games -----------------------------------------------------------------------------------

async function games() {
  let list;
  try {
    list = (await api("/api/games")).games;
  } catch {
    return;
  }
  $("no-games").hidden = list.length > 0;
  $("games").replaceChildren(...list.map((g) => element("tr", {},
    element("td", {}, element("a", { href: withLang(`/replay?game=${g.line}`), "aria-label": t("replay-of", { line: g.line }),
      text: String(g.line) })),
    element("td", { text: g.variant === "teams" ? t("teams-game")
      : `${gamePlayer(g, "red")} – ${gamePlayer(g, "white")}` }),
    element("td", { className: "number", text: `${g.scores.red}–${g.scores.white}` }),
    element("td", { text: resultWords({ winner: g.winner, reason: g.reason }) }),
    element("td", { className: "number", text: String(g.moves) }))));
}

// --- the token ------------------------------------------------------------------------------------

async function showTokenState() {
  $("actions").hidden = true;
  if (!token()) {
    $("token-state").textContent = t("token-none");
    return;
  }
  try {
    const { table, rights } = await api("/api/state");
    $("token-state").textContent = rights.operator ? t("token-kept") : t("token-wrong");
    $("actions").hidden = !rights.operator;
    $("shutdown-form").hidden = !rights.shutdown;
    const modes = $("new-mode");
    if (modes.options.length === 1) {
      for (const mode of table.modes) modes.append(element("option", { value: mode, text: modeName(mode) }));
    }
  } catch (error) {
    $("token-state").textContent = error.message;
  }
}

// --- the operator's actions ----------------------------------------------------------------------------

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
  act("/api/new-game", mode ? { mode } : {}, (answer) => t("new-game-dealt", { mode: modeName(answer.mode) }));
});
$("brightness").addEventListener("input", () => { $("brightness-value").textContent = `${$("brightness").value}%`; });
$("brightness-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act("/api/brightness", { level: Number($("brightness").value) / 100 },
    (answer) => t("brightness-set", { percent: Math.round(answer.level * 100) }));
});
$("shutdown-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!window.confirm(t("shut-down-confirm"))) return;
  act("/api/shutdown", {}, () => t("shutting-down"));
});

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setToken($("token").value.trim());
  $("token").value = "";
  showTokenState();
});
$("forget").addEventListener("click", () => { setToken(""); showTokenState(); });
