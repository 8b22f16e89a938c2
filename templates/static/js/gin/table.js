// A Gin Rommé table (docs/TABLES.md "Games", GIN.md): the waiting room while a friend joins,
// then the match to 100 live from the table's event stream, on the Gin board (gin/board.js).
// The match lives on the server: a reload (on any device with the seat's session) shows it as
// it stands. "Wiederholen" deals the same seeded match again at a new, unranked table (a match
// against the bot alone is given up first: nothing is undone).

import {
  ApiError, rematchTable, repeatTable, resignTable, sendTableMove, startTable, table as fetchTable,
  tableEvents,
} from "../lib/api.js";
import { $, clear, copyField, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { rulesSummary } from "../lib/table/summary.js";
import { createGinBoard } from "./board.js";

const tableId = document.body.dataset.table;
const state = { table: null, seq: 0, queue: Promise.resolve(), confirm: null, countdownEnd: 0, deadline: null };

const me = () => state.table.seat;
function nameOf(seat) {
  const s = state.table.seats[seat];
  if (s.kind === "bot") return t("gin.bot", { level: t(`gin.level.${s.level}`) });
  return s.name || t("tables.openSeat");
}

const board = createGinBoard($("#gin-board"), { send: (move) => send(move), nameOf });

function enqueue(step) {
  state.queue = state.queue.then(step).catch((e) => board.say(explain(e), "error"));
  return state.queue;
}

function absorb(T) {
  if (!state.table || T.seq >= state.seq) {
    state.table = T;
    state.seq = T.seq;
  }
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.status = state.table.status;
  render();
}

// ---- the waiting room ----------------------------------------------------------------------
function renderWaiting() {
  const T = state.table;
  const link = `${window.location.origin}/t/${T.invite}`;
  if ($("#invite-link").value !== link) $("#invite-link").value = link;
  const summary = $("#waiting-summary");
  if (!summary.firstChild) summary.append(rulesSummary(T.game, T.rules)); // the game and its rules
  clear($("#waiting-seats")).append(...T.seats.map((s, seat) => h("li", {
    class: `waiting-seat${s.kind === "human" && !s.name ? " open" : ""}`, dataset: { seat: String(seat) },
  }, h("span", { class: "seat-no", text: String(seat + 1) }), h("span", { text: nameOf(seat) }),
  seat === me() ? h("span", { class: "flag", text: t("seat.you") }) : null)));
  const open = T.seats.filter((s) => s.kind === "human" && !s.name).length;
  const creator = me() === T.creator;
  $("#start-button").hidden = !creator;
  $("#waiting-note").textContent = creator ? t("gin.startNote", { n: open })
    : t("tables.waitForStart", { name: nameOf(T.creator) });
  $("#repeat-note").hidden = !T.repeat_of;
}

async function start() {
  $("#start-button").disabled = true;
  try {
    absorb(await startTable(tableId));
  } catch (e) {
    $("#waiting-error").textContent = explain(e);
  }
  $("#start-button").disabled = false;
}

// ---- the match -----------------------------------------------------------------------------
function renderCountdown() {
  const T = state.table;
  const box = $("#countdown");
  if (!T || !T.deadline || T.status !== "playing") {
    box.hidden = true;
    return;
  }
  if (state.deadline !== T.deadline) {
    state.deadline = T.deadline;
    const left = (Date.parse(T.deadline) - Date.now()) / 1000;
    state.countdownEnd = Date.now() + 1000 * Math.max(0, Math.min(T.rules.turn_timer, left));
  }
  const left = Math.max(0, Math.ceil((state.countdownEnd - Date.now()) / 1000));
  box.hidden = false;
  box.textContent = t("tables.countdown", { name: nameOf(T.turn), n: left });
  box.classList.toggle("urgent", left <= 10);
}

function renderStandings() {
  const T = state.table;
  const box = $("#standings");
  const first = box.hidden;
  box.hidden = T.status !== "finished";
  if (box.hidden) return;
  if (first) box.scrollIntoView({ block: "start" });
  const result = T.result || { totals: T.totals, winner: null, end: "score" };
  const winner = result.winner ?? (T.totals[0] >= T.totals[1] ? 0 : 1);
  $("#standings-outcome").textContent = result.end === "resign"
    ? t("gin.resigned", { name: nameOf(1 - winner), winner: nameOf(winner) })
    : t("tables.winner", { name: nameOf(winner) });
  $("#standings-totals").textContent = [0, 1].map((s) => t("gin.totalOf", { name: nameOf(s), n: result.totals[s] })).join(" · ");
  $("#replay-link").href = `/tables/${tableId}/replay`;
  $("#rematch").hidden = me() === null;
  $("#repeat-end").hidden = me() === null;
  $("#rematch").textContent = t(T.rematch ? "tables.toRematch" : "tables.rematch");
}

function render() {
  const T = state.table;
  const waiting = T.status === "waiting";
  $("#waiting").hidden = !waiting;
  $("#table").hidden = waiting;
  if (waiting) {
    renderWaiting();
    return;
  }
  $("#hand-no").textContent = T.view ? t("gin.handN", { n: T.view.hand_no }) : "";
  $("#repeat-flag").hidden = !T.repeat_of;
  if (T.view) board.render(T.view);
  const playing = T.status === "playing";
  $("#resign").hidden = !playing;
  // against the bot alone "Wiederholen" works at any moment (the match is given up first)
  const friends = T.seats.filter((s, seat) => s.kind === "human" && seat !== me()).length;
  $("#repeat").hidden = !playing || friends > 0;
  renderCountdown();
  renderStandings();
}

async function send(move) {
  try {
    const result = await sendTableMove(tableId, move, state.seq);
    await enqueue(() => {
      if (result.table.seq > state.seq) board.noteEvents(result.events); // not seen on the stream yet
      absorb(result.table);
    });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    board.say(explain(e), "error");
    if (e.code === "stale") await enqueue(async () => absorb(await fetchTable(tableId)));
  }
}

// A small confirmation for giving up and for "Wiederholen" while the match runs.
function ask(title, text, then) {
  $("#table-confirm-title").textContent = title;
  $("#table-confirm-text").textContent = text;
  $("#table-confirm").hidden = false;
  state.confirm = then;
  $("#table-confirm-ok").focus();
}

function closeAsk() {
  $("#table-confirm").hidden = true;
  state.confirm = null;
}

async function resign() {
  try {
    const result = await resignTable(tableId);
    await enqueue(() => absorb(result.table));
  } catch (e) {
    board.say(explain(e), "error");
  }
}

// The same seeded match again: a new table (the creator starts it at once) and off to it.
async function repeat() {
  try {
    let next = await repeatTable(tableId);
    if (next.status === "waiting" && next.seat === next.creator
      && !next.seats.some((s) => s.kind === "human" && !s.name)) next = await startTable(next.id);
    window.location.assign(`/tables/${next.id}`);
  } catch (e) {
    const text = explain(e);
    board.say(text, "error");
    $("#end-error").textContent = text;
  }
}

async function rematch() {
  $("#rematch").disabled = true;
  try {
    const next = await rematchTable(tableId);
    window.location.assign(`/tables/${next.id}`);
  } catch (e) {
    $("#end-error").textContent = explain(e);
    $("#rematch").disabled = false;
  }
}

async function main() {
  $("#invite-copy").addEventListener("click", async () => {
    $("#invite-done").textContent = t((await copyField($("#invite-link"))) ? "share.copied" : "share.selectHint");
  });
  $("#start-button").addEventListener("click", start);
  $("#resign").addEventListener("click", () => ask(t("gin.resign"), t("gin.resignText"), resign));
  $("#repeat").addEventListener("click", () => ask(t("gin.repeat"), t("gin.repeatText"), repeat));
  $("#repeat-end").addEventListener("click", repeat);
  $("#rematch").addEventListener("click", rematch);
  $("#table-confirm-ok").addEventListener("click", () => {
    const then = state.confirm;
    closeAsk();
    if (then) then();
  });
  $("#table-confirm-cancel").addEventListener("click", closeAsk);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state.confirm) closeAsk();
  });
  try {
    absorb(await fetchTable(tableId));
  } catch (e) {
    $("#load-error").hidden = false;
    $("#load-error").append(h("p", { text: explain(e) }));
    return;
  }
  if (state.table.seat !== null && state.table.status !== "finished") {
    tableEvents(tableId, state.seq, (message) => enqueue(() => {
      if (message.table.seq > state.seq) board.noteEvents(message.events);
      absorb(message.table);
    }),
      (s) => { document.body.dataset.stream = s; });
  }
  setInterval(renderCountdown, 250);
  document.body.dataset.ready = "1";
}

main();
