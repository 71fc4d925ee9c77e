// The club's ladder: who sits at each seat (named before a game: by the operator, or by the players
// where the table allows it, and what the game on the table records of it), and the members ranked by the
// table's own Elo, each with their games and a link to replay each.
import { api, element, languageMenu, modeName, seatTitle, t, takeTokenFromAddress, withLang } from "./common.js";

const $ = (id) => document.getElementById(id);
let seats = [];
let edited = false;         // the fields hold what someone is typing: a refresh leaves them

takeTokenFromAddress();
languageMenu();
table();
setInterval(table, 4000);
ladder();
setInterval(ladder, 30000);

// Who sits where, and whether the seats may be named now: the table says so.
async function table() {
  let answer;
  try {
    answer = await api("/api/state");
  } catch (error) {
    $("names-state").textContent = error.message;
    return;
  }
  const { table: info, state, rights } = answer;
  const names = (state && state.names) || {};
  if (seats.join() !== info.seats.join()) {
    seats = info.seats;
    $("seat-fields").replaceChildren(...seats.map((seat) => element("label", {}, seatTitle(seat),
      element("input", { name: seat, maxlength: String(info.max_name), autocomplete: "off", "data-seat": seat }))));
    edited = false;
  }
  if (!edited) {
    for (const input of $("seat-fields").querySelectorAll("input")) input.value = names[input.dataset.seat] || "";
  }
  const refused = state && state.naming_refused;
  $("seats-note").textContent = !rights.name ? t("naming-needs-token")
    : refused ? t("naming-not-now", { moves: state.moves }) : t("naming-how");
  $("name-button").disabled = !rights.name || Boolean(refused);
}

$("seat-fields").addEventListener("input", () => { edited = true; });

// What the game on the table records of the names: a demonstration none (nor the next one, a demonstration
// too), a game against the computer only its person's; a game that has ended, none (they are for the next one).
function recorded(answer) {
  const game = answer.game;
  if (game && game.mode === "demo") return t("names-demo");
  if (!game || game.over) return t("names-next-game");
  const kept = Object.entries(game.recorded).map(([seat, name]) => `${seatTitle(seat)}: ${name}`);
  return kept.length ? t("names-recorded", { names: kept.join(", "), mode: modeName(game.mode) })
    : t("names-none-recorded", { mode: modeName(game.mode) });
}

$("names").addEventListener("submit", async (event) => {
  event.preventDefault();
  const names = {};
  for (const input of $("seat-fields").querySelectorAll("input")) {
    const name = input.value.trim();
    if (name) names[input.dataset.seat] = name;
  }
  try {
    const answer = await api("/api/names", { method: "POST", body: { names } });
    const said = Object.entries(answer.names).map(([seat, name]) => `${seatTitle(seat)}: ${name}`);
    $("names-state").textContent = (said.length ? t("named", { names: said.join(", ") }) : t("named-nobody")) +
      " " + recorded(answer);
    $("names-state").className = "ok";
    edited = false;
  } catch (error) {
    $("names-state").textContent = error.message;
    $("names-state").className = "error";
  }
});

$("ladder").addEventListener("click", (event) => {
  const link = event.target.closest("a[data-member]");
  if (!link) return;
  event.preventDefault();
  const details = $(`member-${link.dataset.member}`);
  details.open = true;
  details.scrollIntoView({ block: "nearest" });
});

async function ladder() {
  let club;
  try {
    club = await api("/api/club");
  } catch {
    return;
  }
  $("no-ladder").hidden = club.members.length > 0;
  $("ladder").replaceChildren(...club.members.map((m, i) => element("tr", {},
    element("td", { className: "number", text: String(i + 1) }),
    element("td", {}, element("a", { href: `#member-${i + 1}`, "data-member": String(i + 1), text: m.name })),
    element("td", { className: "number", text: `${m.elo > 0 ? "+" : ""}${m.elo} ±${m.plus_minus}` }),
    element("td", { className: "number", text: String(m.games) }),
    element("td", { className: "number", text: `${m.wins}–${m.draws}–${m.losses}` }),
    element("td", { className: "number", text: `${Math.round(100 * m.score)}%` }))));
  const open = new Set([...$("members").querySelectorAll("details[open]")].map((d) => d.id));
  $("members").replaceChildren(...club.members.map((m, i) => element("details", { id: `member-${i + 1}` },
    element("summary", { text: t(m.games === 1 ? "member-games-one" : "member-games", { name: m.name, n: m.games }) }),
    element("div", { className: "scroll" }, element("table", { className: "list" },
      element("thead", {}, element("tr", {}, ...["#", t("colour"), t("opponent"), t("result"), t("score")].map((h) =>
        element("th", { scope: "col", text: h })))),
      element("tbody", {}, ...m.played.map((g) => element("tr", {},
        element("td", {}, element("a", { href: withLang(`/replay?game=${g.line}`),
          "aria-label": t("replay-of", { line: g.line }), text: String(g.line) })),
        element("td", { text: seatTitle(g.colour) }),
        element("td", { text: g.opponent }),
        element("td", { text: t(`member-${g.result}`) }),
        element("td", { text: g.score })))))))));
  for (const id of open) if ($(id)) $(id).open = true;     // the ladder's refresh keeps what was open
}
