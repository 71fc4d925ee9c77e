// What the pages share: their words (from the table's message catalogue, put in the page by the server),
// the board and the card displays drawn as the table lights them, the operator's token, and requests to the
// table. Every fact the pages show comes from the table's service; nothing here knows the rules. Text goes
// into the page as text (textContent), never as HTML.

export const FILES = "abcdefghi";
const TOKEN_KEY = "roseking-token";

// --- words ---------------------------------------------------------------------------------------

const WORDS = JSON.parse(document.getElementById("page-words").textContent);
export const LANG = WORDS.lang;

// A word of the pages in the page's language, its {fields} filled in.
export function t(key, fields = {}) {
  const text = WORDS.page[key];
  if (text === undefined) throw new Error(`no word ${key}`);
  return text.replace(/\{(\w+)\}/g, (_, name) => String(fields[name]));
}

// A word of the displays (HERO, WAIT, …), as the table's displays say it.
export function said(key, fields = {}) {
  const text = WORDS.table[key];
  if (text === undefined) throw new Error(`no word ${key}`);
  return text.replace(/\{(\w+)\}/g, (_, name) => String(fields[name]));
}

// A colour's or a seat's name as people write it: red → Red (Rot, Rød, Rojo), white2 → White 2.
export function seatTitle(seat) {
  const word = seat.replace(/\d+$/, "");
  const number = seat.slice(word.length);
  return t(`colour-${word}`) + (number ? ` ${number}` : "");
}

// Who plays a seat, in words: the person's name, a person, or the computer at its level ({name, player}).
export function playerWords(seat) {
  if (seat.name) return seat.name;
  return seat.player === "human" ? t("a-person") : t("the-computer", { level: levelName(seat.player) });
}

// Who played `seat` in a game of the archive (its `players` and `names`), in words; "—" for a seat it lacks.
export function gamePlayer(game, seat) {
  const player = (game.players || {})[seat];
  return player === undefined ? "—" : playerWords({ name: (game.names || {})[seat], player });
}

export function levelName(level) {
  const key = `level-${level}`;
  return WORDS.table[key] ? WORDS.table[key].toLowerCase() : level;
}

export function modeName(mode) {
  return t(`mode-${mode}`);
}

// The page's word on its connection to the table: its `kind` (connecting, live, stale, lost) and `text`, shown
// as it changes (a stale page counts its seconds) and announced once a kind (the status region beside it).
export function connectionSays(kind, text) {
  const node = document.getElementById("connection");
  if (node.dataset.state !== kind) {
    node.dataset.state = kind;
    document.getElementById("connection-said").textContent = text;
  }
  if (node.textContent !== text) node.textContent = text;
  document.body.classList.toggle("stale", kind !== "live");
}

// The page's language menu: the table's languages, each in its own words; the page is made anew in the
// language chosen (?lang=), and the links to the other pages keep it.
export function languageMenu() {
  const select = document.getElementById("language");
  if (!select) return;
  for (const [code, name] of Object.entries(WORDS.languages)) {
    select.append(element("option", { value: code, text: name }));
  }
  select.value = LANG;
  select.addEventListener("change", () => {
    const url = new URL(location.href);
    url.searchParams.set("lang", select.value);
    location.assign(url.pathname + url.search + url.hash);
  });
  const asked = new URL(location.href).searchParams.get("lang");
  if (asked) {
    for (const link of document.querySelectorAll("a[href^='/']")) link.href = withLang(link.getAttribute("href"));
  }
}

// A path of the pages, keeping the language the visitor chose.
export function withLang(path) {
  const asked = new URL(location.href).searchParams.get("lang");
  if (!asked || path.startsWith("/api/") || path.startsWith("/games/") || path.endsWith(".jsonl")) return path;
  const url = new URL(path, location.href);
  url.searchParams.set("lang", asked);
  return url.pathname + url.search + url.hash;
}

// --- the operator's token ------------------------------------------------------------------------

// A token given in the address (?token=…) is kept for this tab and taken out of the address bar,
// so that it is neither bookmarked nor shown; the server never logs a query.
export function takeTokenFromAddress() {
  const url = new URL(location.href);
  const given = url.searchParams.get("token");
  if (given !== null) {
    sessionStorage.setItem(TOKEN_KEY, given);
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

// A request to the table's API: the answer's JSON, or an Error with the server's own words. A request
// that has no answer within `timeout` ms is given up (a network that hangs is not a table that answers).
export async function api(path, options = {}, timeout = 8000) {
  const headers = { ...(options.headers || {}) };
  if (token()) headers.Authorization = `Bearer ${token()}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeout);
  let response;
  try {
    response = await fetch(path, { ...options, headers, signal: abort.signal, body: options.body === undefined
      ? undefined : JSON.stringify(options.body) });
  } catch (error) {
    throw new Error(error.name === "AbortError" ? t("no-answer") : t("unreachable"));
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "className") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.dataset[key.slice(5).replace(/-(\w)/g, (_, c) => c.toUpperCase())] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// The result of a game in words: who won and why (R16, R17, R19).
export function resultWords(result) {
  if (!result.winner) return t("unfinished");
  const why = t(`reason-${result.reason}`);
  return result.winner === "draw" ? t("result-draw", { why }) : t("result-won", { seat: seatTitle(result.winner), why });
}

// --- the board ---------------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";

// The crown's mark, drawn over its square: seen on a stone, and told from a red stone without its colour.
function crownMark() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 20 16");
  svg.setAttribute("class", "crown-mark");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M2 13 L1 3 L6 8 L10 1 L14 8 L19 3 L18 13 Z");
  svg.append(path);
  return svg;
}

// The square at frame index `i` (rank 9 first, file a first).
export function squareOf(i) {
  return FILES[i % 9] + (9 - Math.floor(i / 9));
}

// A 9 × 9 board of round lights in `container`, turned `turns` quarter turns clockwise from the table seen
// from the south (rank 9 at the top), with its rank and file labels as they fall; returns the 81 lights
// in the frames' order (rank 9 first, file a first). Each cell knows its square (data-square).
export function makeBoard(container, turns = 0) {
  const lights = [];
  container.replaceChildren();
  container.classList.add("board");
  const at = (i) => {                   // where frame index i is drawn: [row, column], 0-based
    let [row, col] = [Math.floor(i / 9), i % 9];
    for (let k = 0; k < turns % 4; k++) [row, col] = [col, 8 - row];
    return [row, col];
  };
  const label = (i, rank) => (rank ? String(9 - Math.floor(i / 9)) : FILES[i % 9]);
  const rowLabels = [], colLabels = [];
  for (let i = 0; i < 81; i++) {
    const [row, col] = at(i);
    const light = element("span", { className: "led" });
    const cell = element("span", { className: "cell", "data-square": squareOf(i), "data-index": String(i) }, light);
    cell.style.gridRow = String(row + 1);
    cell.style.gridColumn = String(col + 2);
    container.append(cell);
    lights.push(light);
    rowLabels[row] = label(i, turns % 2 === 0);       // a drawn row holds one rank (or one file, turned by 90°)
    colLabels[col] = label(i, turns % 2 === 1);
  }
  rowLabels.forEach((text, row) => {
    const span = element("span", { className: "rank", "aria-hidden": "true", text });
    span.style.gridRow = String(row + 1);
    span.style.gridColumn = "1";
    container.append(span);
  });
  colLabels.forEach((text, col) => {
    const span = element("span", { className: "file", "aria-hidden": "true", text });
    span.style.gridRow = "10";
    span.style.gridColumn = String(col + 2);
    container.append(span);
  });
  return lights;
}

// Light the board: `colours` are 81 "#rrggbb", as the table's frames give them.
export function paintBoard(lights, colours) {
  colours.forEach((colour, i) => {
    const light = lights[i];
    if (light.dataset.colour === colour) return;
    light.dataset.colour = colour;
    light.style.setProperty("--c", colour);
    light.classList.toggle("lit", colour !== "#000000");
  });
}

// Mark squares on the board: `marks` maps a class (crown, last, last-from, …) to a square name or null.
export function markBoard(container, marks) {
  for (const [name, square] of Object.entries(marks)) {
    const old = container.querySelector(`.cell.${name}`);
    const cell = square ? container.querySelector(`.cell[data-square="${square}"]`) : null;
    if (old === cell) continue;
    if (old) {
      old.classList.remove(name);
      if (name === "crown") old.querySelector(".crown-mark")?.remove();
    }
    if (cell) {
      cell.classList.add(name);
      if (name === "crown") cell.append(crownMark());
    }
  }
}

// The board in words, for screen readers and anyone who asks: every stone and the crown, rank by rank,
// in `table` (a <table> with a caption), from the lists of squares of the state.
export function textBoard(table, { red = [], white = [], crown = null }) {
  const stones = new Map([...red.map((s) => [s, "red"]), ...white.map((s) => [s, "white"])]);
  const head = element("tr", {}, element("th", { scope: "col", text: t("rank") }),
    ...[...FILES].map((f) => element("th", { scope: "col", text: f })));
  const rows = [];
  for (let rank = 9; rank >= 1; rank--) {
    rows.push(element("tr", {}, element("th", { scope: "row", text: String(rank) }), ...[...FILES].map((f) => {
      const square = `${f}${rank}`;
      const stone = stones.get(square);
      const words = [stone ? t(`stone-${stone}`) : "", square === crown ? t("crown") : ""].filter(Boolean);
      return element("td", { text: words.join(", ") || "·", "aria-label": `${square}: ${words.join(", ") || t("empty")}` });
    })));
  }
  table.replaceChildren(element("caption", { text: boardWords({ red, white, crown }) }),
    element("thead", {}, head), element("tbody", {}, ...rows));
}

// The board in one sentence: each colour's stones by square, and where the crown stands.
export function boardWords({ red = [], white = [], crown = null }) {
  const on = red.includes(crown) ? t("on-red-stone") : white.includes(crown) ? t("on-white-stone") : t("on-empty");
  return t("board-words", { red: red.length ? red.join(" ") : t("none"), nred: red.length,
    white: white.length ? white.join(" ") : t("none"), nwhite: white.length, crown: crown || "—", on });
}

// --- the card displays -------------------------------------------------------------------------

const DOT = 10;   // canvas pixels per dot

// An 8 × 8 dot matrix: a canvas.
export function makeMatrix() {
  return element("canvas", { width: String(8 * DOT), height: String(8 * DOT), className: "matrix" });
}

// Draw `rows` (8 row bytes, bit 7 the left column) on `canvas`; a dimmed display is lit at the dim level.
export function paintMatrix(canvas, rows, dimmed, dots) {
  const key = `${rows.join(",")}|${dimmed}`;
  if (canvas.dataset.shown === key) return;
  canvas.dataset.shown = key;
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const lit = (rows[y] >> (7 - x)) & 1;
      ctx.fillStyle = lit ? (dimmed ? dots.dim : dots.on) : dots.off;
      ctx.beginPath();
      ctx.arc(x * DOT + DOT / 2, y * DOT + DOT / 2, DOT * 0.4, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}

// Scroll the list `box` (not the page) so that `item` shows in it.
export function keepInView(box, item) {
  const top = item.offsetTop, bottom = top + item.offsetHeight;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
}

// A button that copies the text of `field` (a link to share); where the clipboard is closed to the page
// (an address that is not HTTPS), the text is selected for the visitor to copy.
export function copier(button, field) {
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = t("copied");
      setTimeout(() => { button.textContent = t("copy"); }, 2000);
    } catch {
      field.focus();
      field.select();
    }
  });
}

// --- a game move by move (the replay, and the game in progress looked back on) -------------------------

// Show ply `n` of `game` (the table's replay: plies with the board, the crown, the move) on `board`, whose
// lights are `lights`: the picture, the crown's mark and the last move's squares.
export function showPly(board, lights, game, n) {
  const ply = game.plies[n];
  paintBoard(lights, ply.board);
  const card = n > 0 && !/^(draw|pass)/.test(ply.move);
  markBoard(board, { crown: ply.crown, last: card ? ply.crown : null, "last-from": card ? game.plies[n - 1].crown : null });
}

// The words of ply `n`: which move of how many, who made it, the scores and the stones left.
export function plyWords(game, n) {
  const last = game.plies.length - 1;
  const ply = game.plies[n];
  const what = n === 0 ? t("the-start") : t("move-of", { n, last, seat: seatTitle(ply.by), move: ply.move });
  return t("ply-words", { what, red: ply.scores.red, white: ply.scores.white, stones: ply.stones_left,
    crown: ply.crown });
}
