// The replay of a game of the archive (/replay?game=LINE): the board after each move as the table lights
// it (positions computed by the table's engine, each game replayed and checked), the move, the scores;
// ←/→, Home/End, the buttons or the slider step through it. A game that is not there is said to be missing,
// and nothing of another game is shown. The page's address is the game's share link, and its record
// downloads as `roseking replay` reads it.
import {
  api, copier, element, gamePlayer, keepInView, languageMenu, makeBoard, plyWords, resultWords, seatTitle, showPly, t,
  withLang,
} from "./common.js";

const $ = (id) => document.getElementById(id);
let game = null;
let lights = null;

languageMenu();
open();

async function open() {
  const asked = new URL(location.href).searchParams.get("game");
  const line = /^\d{1,9}$/.test(asked || "") ? Number(asked) : null;
  try {
    if (line === null) throw Object.assign(new Error(t("no-game-asked")), { status: 404 });
    game = await api(`/api/games/${line}`);
  } catch (error) {
    missing(error.status === 404 ? t("no-such-game", { line: asked || "—" }) : error.message);
    return;
  }
  $("replay-title").textContent = t("replay-of", { line });
  document.title = `${t("game-name")} · ${t("replay-of", { line })}`;
  lights = makeBoard($("replay-board"));
  const seats = Object.keys(game.players || {});
  $("replay-who").textContent = seats.map((seat) => `${seatTitle(seat)}: ${gamePlayer(game, seat)}`).join(" · ") +
    ` · ${resultWords(game.result)}`;
  $("moves").replaceChildren(...game.plies.slice(1).map((ply, i) => element("li", {},
    element("button", { type: "button", "data-ply": String(i + 1), text: `${seatTitle(ply.by)} ${ply.move}` }))));
  $("ply").max = String(game.plies.length - 1);
  $("download").href = `/games/${line}.json`;
  $("share").value = new URL(withLang(`/replay?game=${line}`), location.href).href;
  show(game.plies.length - 1);
}

// The game asked for is not in the archive: say so, and show no board, no moves, no controls.
function missing(words) {
  game = null;
  $("replay-missing").textContent = words;
  $("replay-missing").hidden = false;
  $("replay").hidden = true;
  $("replay-title").textContent = t("title-replay");
}

function show(n) {
  if (!game) return;
  const last = game.plies.length - 1;
  n = Math.max(0, Math.min(last, n));
  showPly($("replay-board"), lights, game, n);
  $("ply").value = String(n);
  $("replay-move").textContent = plyWords(game, n);
  $("replay-board").setAttribute("aria-label", plyWords(game, n));
  for (const item of $("moves").children) item.removeAttribute("aria-current");
  if (n > 0) {
    const item = $("moves").children[n - 1];
    item.setAttribute("aria-current", "step");
    keepInView($("moves"), item);
  }
  $("first").disabled = $("previous").disabled = n === 0;
  $("next").disabled = $("last").disabled = n === last;
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
document.addEventListener("keydown", (event) => {
  if (!game || event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
  if (step !== undefined) {
    event.preventDefault();
    show(Number.isFinite(step) ? current() + step : step < 0 ? 0 : Infinity);
  }
});
copier($("copy"), $("share"));
