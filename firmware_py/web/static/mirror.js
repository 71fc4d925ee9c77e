// The mirror: the table's frames as they come (the board, every card display, the crown's animation),
// the game in words beside them, and, where this page may play, the table's buttons by click, touch
// and the terminal's keys. Presses and releases go to the table as they happen; the table's own rule
// makes them presses, holds and releases, as it does for its push buttons.
import {
  element, makeBoard, makeMatrix, paintBoard, paintMatrix, playerWords, seatTitle, takeTokenFromAddress, token,
} from "./common.js";

const $ = (id) => document.getElementById(id);
const SIDES = ["north", "west", "east", "south"];
const REVERSED = new Set(["north", "east"]);  // along these edges a seat's first card is at the far end

let socket = null;
let table = null;           // what the table is: seats, sides, display slots, buttons, keys, dot colours
let rights = { play: false };
let lights = null;
let matrices = new Map();   // slot → canvas
let frame = null;           // the last frame
let spoken = "";
let retry = 500;
let keyMap = new Map();     // key → button, as the terminal has them
const held = new Set();     // the buttons this page holds down

takeTokenFromAddress();
connect();

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener("open", () => {
    retry = 500;
    $("connection").textContent = "live";
    $("connection").dataset.state = "live";
    if (token()) send({ type: "auth", token: token() });
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    letGoOfAll();
    $("connection").textContent = "reconnecting…";
    $("connection").dataset.state = "lost";
    setTimeout(connect, retry);
    retry = Math.min(5000, retry * 2);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "hello") {
    table = message.table;
    keyMap = new Map(table.keys);
    rights = message.rights;
    build();
  } else if (message.type === "rights") {
    rights = message.rights;
    build();
  } else if (message.type === "frame") {
    frame = message;
    paint();
  } else if (message.type === "error") {
    const error = $("error");
    error.textContent = message.error;
    clearTimeout(error.timer);
    error.timer = setTimeout(() => { error.textContent = ""; }, 5000);
  }
}

// --- the picture --------------------------------------------------------------------------

function build() {
  lights = makeBoard($("board"));
  matrices = new Map();
  const seatOf = Object.fromEntries(Object.entries(table.sides).map(([seat, side]) => [side, seat]));
  for (const side of SIDES) {
    const box = $(side);
    box.replaceChildren();
    const slots = table.panels[side] || [];
    const seat = seatOf[side];
    if (!seat) continue;
    const row = element("div", { className: "displays" });
    for (const slot of slots) {
      const control = slot.split(".")[1];
      const label = `${seatTitle(seat)} ${control.replace("card", "card ")}`;
      const canvas = makeMatrix();
      matrices.set(slot, canvas);
      const holder = rights.play && table.buttons.includes(slot)
        ? pressable(element("button", { type: "button", className: "display", "aria-label": label, "data-button": slot }))
        : element("div", { className: "display", role: "img", "aria-label": label });
      holder.append(canvas);
      row.append(holder);
    }
    const extras = rights.play ? ["hero", "draw"].filter((c) => !slots.includes(`${seat}.${c}`))
      .map((c) => `${seat}.${c}`).filter((name) => table.buttons.includes(name)) : [];
    const controls = extras.map((name) => pressable(element("button", {
      type: "button", className: "control", "data-button": name,
      "aria-label": `${seatTitle(seat)} ${name.split(".")[1]}`, text: name.split(".")[1].toUpperCase() })));
    if (controls.length) {
      const stack = element("div", { className: "controls" }, ...controls);
      if (REVERSED.has(side)) row.prepend(stack); else row.append(stack);
    }
    const title = element("p", { className: "seat-title", "data-seat": seat },
      element("span", { className: `colour ${seat.replace(/\d+$/, "")}`, text: seatTitle(seat) }),
      element("span", { className: "person" }), element("span", { className: "mover", text: " ◀ to move" }));
    box.append(title, row);
  }
  $("table").classList.toggle("teams", Boolean(table.panels.west || table.panels.east));
  $("play").hidden = !rights.play;
  if (rights.play) pressable($("menu"));
  $("keys").textContent = keyLegend();
  if (frame) paint();
}

function paint() {
  if (!lights) return;
  paintBoard(lights, frame.board);
  const dimmed = new Set(frame.dimmed);
  for (const [slot, canvas] of matrices) {
    paintMatrix(canvas, frame.displays[slot] || [0, 0, 0, 0, 0, 0, 0, 0], dimmed.has(slot), table.dots);
  }
  say(frame.state);
  $("caption").textContent = frame.caption;
}

// --- the game in words -----------------------------------------------------------------------

function say(state) {
  const facts = [];
  let summary;
  const seats = state.seats || [];
  if (state.screen === "menu") {
    summary = `The new-game menu: ${state.menu.join(" · ")}.`;
  } else if (state.screen === "over") {
    summary = `Game over. ${state.result}.`;
  } else {
    const mover = seats.find((s) => s.seat === state.to_move);
    summary = `${seatTitle(state.to_move)} to move${mover && mover.name ? ` (${mover.name})` : ""}. ` +
      `Red ${state.scores[0]}, White ${state.scores[1]}.` + (state.last_move ? ` Last move: ${state.last_move}.` : "");
  }
  if (state.screen === "options") summary += " The game menu is open.";
  if (state.screen !== "menu") {
    facts.push(["Score", `Red ${state.scores[0]} · White ${state.scores[1]}`],
      ["Turn", state.to_move ? seatTitle(state.to_move) : "none (the game is over)"],
      ["Stones left", String(state.stones_left)], ["Pile", `${state.pile} cards`],
      ["Moves", String(state.moves)], ["Last move", state.last_move || "none yet"], ["Mode", state.mode]);
  }
  if (summary !== spoken) {          // the live region speaks only when the state in words changes
    spoken = summary;
    $("summary").textContent = summary;
  }
  $("facts").replaceChildren(...facts.flatMap(([term, value]) => [element("dt", { text: term }),
    element("dd", { text: value })]));
  $("seats").replaceChildren(...seats.map((seat) => element("section", {
    className: `seat${seat.seat === state.to_move ? " to-move" : ""}`, "aria-label": seatTitle(seat.seat) },
  element("h2", { text: `${seatTitle(seat.seat)}: ${playerWords(seat)}` }),
  element("p", { text: `Heroes ${seat.heroes} · cards ${seat.cards.map((c) => c || "—").join(" ")}` }))));
  const names = Object.fromEntries(seats.map((s) => [s.seat, s.name]));
  for (const title of document.querySelectorAll(".seat-title")) {
    const seat = title.dataset.seat;
    title.querySelector(".person").textContent = names[seat] || state.names[seat] || "";
    title.classList.toggle("to-move", seat === state.to_move);
  }
}

function keyLegend() {
  const bySeat = new Map();
  for (const [key, name] of table.keys) {
    const [seat, control] = name.includes(".") ? name.split(".") : ["", name];
    if (!bySeat.has(seat)) bySeat.set(seat, []);
    bySeat.get(seat).push(`${key} ${control}`);
  }
  return "Keys: " + [...bySeat].map(([seat, keys]) => (seat ? `${seatTitle(seat)}: ` : "") + keys.join(", "))
    .join("; ") + ". Hold a key or a button to hold it.";
}

// --- pressing -------------------------------------------------------------------------------

function press(name, down) {
  if (!rights.play || down === held.has(name)) return;
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
  if (!table || !rights.play || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLInputElement) return;
  const name = keyMap.get(event.key.toLowerCase());
  if (!name) return;
  event.preventDefault();
  if (!event.repeat) press(name, down);
}

document.addEventListener("keydown", (event) => keyed(event, true));
document.addEventListener("keyup", (event) => keyed(event, false));
window.addEventListener("blur", letGoOfAll);
