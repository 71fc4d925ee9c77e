// What the pages share: the board and the card displays drawn as the table lights them, the
// operator's token, and requests to the table. Every text the pages show comes from the table's
// service; nothing here knows the rules. Text goes into the page as text (textContent), never as HTML.

export const FILES = "abcdefghi";
const TOKEN_KEY = "roseking-token";

// --- the operator's token ----------------------------------------------------------------

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

// A request to the table's API: the answer's JSON, or an Error with the server's own words.
export async function api(path, options = {}) {
  const headers = { ...(options.headers || {}) };
  if (token()) headers.Authorization = `Bearer ${token()}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { ...options, headers, body: options.body === undefined ? undefined
    : JSON.stringify(options.body) });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  return data;
}

// --- words ---------------------------------------------------------------------------------

// A seat's name as people write it: red → Red, white2 → White 2.
export function seatTitle(seat) {
  const word = seat.replace(/\d+$/, "");
  const number = seat.slice(word.length);
  return word.charAt(0).toUpperCase() + word.slice(1) + (number ? ` ${number}` : "");
}

// Who plays a seat, in words: the person's name, a person, or the computer at its level.
export function playerWords(seat) {
  if (seat.name) return seat.name;
  return seat.player === "human" ? "a person" : `the computer (${seat.player})`;
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

// --- the board -------------------------------------------------------------------------------

// A 9 × 9 board of round lights in `container`, rank 9 at the top, with rank and file labels;
// returns the 81 lights in the frames' order (rank 9 first, file a first).
export function makeBoard(container) {
  const lights = [];
  container.replaceChildren();
  container.classList.add("board");
  for (let row = 0; row < 9; row++) {
    container.append(element("span", { className: "rank", "aria-hidden": "true", text: String(9 - row) }));
    for (let col = 0; col < 9; col++) {
      const light = element("span", { className: "led" });
      container.append(element("span", { className: "cell", "data-square": FILES[col] + (9 - row) }, light));
      lights.push(light);
    }
  }
  container.append(element("span", { className: "corner" }));
  for (const file of FILES) container.append(element("span", { className: "file", "aria-hidden": "true", text: file }));
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

// --- the card displays -----------------------------------------------------------------------

const DOT = 10;   // canvas pixels per dot

// An 8 × 8 dot matrix: a canvas.
export function makeMatrix() {
  const canvas = element("canvas", { width: String(8 * DOT), height: String(8 * DOT), className: "matrix" });
  return canvas;
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
