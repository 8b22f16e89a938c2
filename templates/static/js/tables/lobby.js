// The "Spielen" page's lobby (docs/LOBBY.md): the open public tables, live from
// /api/lobby/events, joined in one click, and the public games playing (presence, whose turn),
// each watched on its table page; and the quick match, whose waiting ticket follows
// /api/match/events until it is matched (then to the table, while it waits or plays) or left.
// A join or a ticket carries the player's name: the account's, else the one asked for here.

import {
  currentMatch, joinMatch, joinPublicTable, leaveMatch, lobbyEvents, matchEvents,
} from "../lib/api.js";
import { $, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { playerName, save } from "../lib/store.js";

// The name a join or a ticket carries: the account's, else the one asked for (remembered).
const signedIn = Boolean(document.body.dataset.accountName);
// (the lobby's field, or the one of the form that makes a table, filled already)
const name = () => (signedIn ? playerName()
  : ($("#lobby-name").value || "").trim() || ($("#name").value || "").trim());

// Without a name nothing is joined: the field says so and takes the focus.
function named(errorBox) {
  if (name()) return true;
  $(errorBox).textContent = t("lobby.nameNeeded");
  $("#lobby-name").focus();
  return false;
}

function seatText(seat) {
  if (seat.kind === "bot") return t("tables.botSeat", { level: t(`level.${seat.level}`) });
  if (!seat.name) return t("lobby.freeSeat");
  const rating = seat.rating === null || seat.rating === undefined ? ""
    : ` (${seat.rating}${seat.provisional ? "?" : ""})`;
  return `${seat.name}${rating}${seat.away ? ` · ${t("lobby.away")}` : ""}`;
}

function rulesText(rules) {
  const timer = rules.turn_timer ? t("tables.timerS", { n: rules.turn_timer }) : t("tables.timerOff");
  return `${t("tables.playersN", { n: rules.players })} · ${timer}`;
}

async function join(entry, button) {
  $("#lobby-error").textContent = "";
  if (!named("#lobby-error")) return;
  button.disabled = true;
  try {
    const joined = await joinPublicTable(entry.id, name());
    save("name", name());
    window.location.assign(`/tables/${joined.table.id}`);
  } catch (err) {
    $("#lobby-error").textContent = explain(err);
    button.disabled = false;
  }
}

function entryRow(entry) {
  const button = h("button", { type: "button", class: "button primary lobby-join",
    dataset: { table: entry.id } }, t("lobby.join"));
  button.addEventListener("click", () => join(entry, button));
  return h("li", { class: "lobby-table", dataset: { table: entry.id, game: entry.game } },
    h("strong", { class: "lobby-game" }, t(`tables.game.${entry.game}`)),
    entry.rated ? h("span", { class: "lobby-rated" }, t("lobby.ratedFlag")) : null,
    h("span", { class: "lobby-rules" }, rulesText(entry.rules)),
    h("span", { class: "lobby-free" }, t("lobby.free", { n: entry.free })),
    h("ul", { class: "lobby-seats" }, entry.seats.map((seat) => h("li", {}, seatText(seat)))),
    button);
}

// A game playing: its seats with presence, whose turn it is, and a link to watch it.
function playingRow(entry) {
  const seats = entry.seats.map((seat, n) => h("li", {
    class: `lobby-seat${seat.connected ? " on" : ""}${entry.turn === n ? " turn" : ""}`,
  }, seatText(seat), entry.turn === n ? h("span", { class: "flag" }, t("lobby.turn")) : null));
  return h("li", { class: "lobby-table playing", dataset: { table: entry.id, game: entry.game } },
    h("strong", { class: "lobby-game" }, t(`tables.game.${entry.game}`)),
    entry.rated ? h("span", { class: "lobby-rated" }, t("lobby.ratedFlag")) : null,
    h("span", { class: "lobby-rules" }, rulesText(entry.rules)),
    h("ul", { class: "lobby-seats" }, seats),
    h("a", { class: "button lobby-watch", href: `/tables/${entry.id}` }, t("lobby.watch")));
}

function showLobby(doc) {
  const list = clear($("#lobby-open"));
  for (const entry of doc.open) list.append(entryRow(entry));
  $("#lobby-empty").hidden = doc.open.length > 0;
  const playing = clear($("#lobby-playing"));
  for (const entry of doc.playing || []) playing.append(playingRow(entry));
  $("#lobby-playing-empty").hidden = playing.children.length > 0;
  document.body.dataset.playing = String(playing.children.length);
  const queued = Object.values(doc.queued || {}).reduce((a, b) => a + b, 0);
  $("#lobby-online").textContent = t("lobby.online", { n: doc.online, q: queued });
  document.body.dataset.lobby = String(doc.open.length);
}

// The quick match.
const matchGame = () => $("#match-game").selectedOptions[0];

function refreshSeats() {
  const seats = clear($("#match-seats"));
  for (const n of matchGame().dataset.seats.split(",")) {
    seats.append(h("option", { value: n }, t("tables.playersN", { n })));
  }
}

let ticketStream = null;

function showTicket(match) {
  document.body.dataset.match = match.status;
  // matched while its table is still being made: the stream names it next, so it is followed on
  const making = match.status === "matched" && !match.table;
  const waiting = match.status === "waiting" || making;
  $("#match-form").hidden = waiting;
  $("#match-waiting").hidden = !waiting;
  // to the table while it waits or plays; a finished (or gone) one is not gone back to
  const live = match.table_status === "waiting" || match.table_status === "playing";
  if (match.status === "matched" && match.table && live) {
    ticketStream?.close();
    window.location.assign(`/tables/${match.table}`);
    return;
  }
  if (making) return;
  if (!waiting) {
    ticketStream?.close();
    ticketStream = null;
    if (match.status === "expired") $("#match-error").textContent = t("lobby.expired");
    return;
  }
  $("#match-status").textContent = t("lobby.waiting", {
    s: Math.floor(match.waited_ms / 1000), range: match.range, n: match.waiting,
  });
}

// A ticket still to be followed: waiting, or matched while its table is being made.
const unsettled = (match) => match.status === "waiting" || (match.status === "matched" && !match.table);

function follow() {
  ticketStream?.close();
  ticketStream = matchEvents(showTicket);
}

async function findMatch(e) {
  e.preventDefault();
  $("#match-error").textContent = "";
  if (!named("#match-error")) return;
  const button = $("#match-button");
  button.disabled = true;
  const spec = {
    game: $("#match-game").value, name: name(), seats: Number($("#match-seats").value),
    turn_timer: Number($("#match-timer").value), rated: $("#match-rated").checked,
    bots_after: $("#match-bots").checked ? 20 : null,
  };
  try {
    const match = await joinMatch(spec);
    save("name", spec.name);
    showTicket(match);
    if (unsettled(match)) follow();
  } catch (err) {
    $("#match-error").textContent = explain(err);
  } finally {
    button.disabled = false;
  }
}

async function leave() {
  ticketStream?.close();
  ticketStream = null;
  try {
    showTicket(await leaveMatch());
  } catch (err) {
    if (err.detail?.match) showTicket(err.detail.match); // matched meanwhile: to the table
    else showTicket({ status: "left" });
  }
}

// Signed in: the account's name, nothing to ask; else the name remembered from the last time.
$("#lobby-name-row").hidden = signedIn;
$("#lobby-name").value = signedIn ? "" : playerName();
$("#match-game").addEventListener("change", refreshSeats);
$("#match-form").addEventListener("submit", findMatch);
$("#match-leave").addEventListener("click", leave);
refreshSeats();
lobbyEvents(showLobby);
// A ticket still waiting from before a reload is followed again.
currentMatch().then((match) => {
  showTicket(match);
  if (unsettled(match)) follow();
}).catch(() => {});
