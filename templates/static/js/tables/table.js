// One table (issue 12): the waiting room while friends join, then the game live from the table's
// event stream (every seat's moves, presence, the turn timer), the cut, the lucky grab, bot
// levels, resign by consent (R8), round results, the final standings and a rematch. The player's
// side of the table is the daily's (play/board.js); nothing here polls.

import {
  ApiError, rematchTable, resignTable, sendTableMove, setBotLevel, startTable, table as fetchTable,
  tableEvents,
} from "../lib/api.js";
import { face } from "../lib/cards.js";
import { $, clear, copyField, h } from "../lib/dom.js";
import { explain, explainMove } from "../lib/explain.js";
import { signed, t } from "../lib/i18n.js";
import { seatName } from "../lib/moves.js";
import { load, save } from "../lib/store.js";
import { createBoard } from "../lib/table/board.js";
import { logLine, play, restoreLog } from "../lib/table/playback.js";
import { renderOpponents } from "../lib/table/table.js";
import { renderTausende } from "../lib/table/tausende.js";

const tableId = document.body.dataset.table;
const LEVELS = ["beginner", "advanced", "zen"];
const ctx = { seats: null, me: 0, attemptId: `table.${tableId}`, seatExtras: (seat) => seatExtras(seat) };
const state = {
  table: null, seq: 0, queue: Promise.resolve(), levelMenu: null, timer: null, deadline: null, countdownEnd: 0, shownView: null,
};
const board = createBoard(ctx, { send: (move) => send(move) });
const dismissedKey = `table.${tableId}.seenRound`;

const me = () => state.table.seat;
// Every human seat has its name (the player's own too, so sentences read the same for all).
const nameOf = (seat) => seatName(seat, state.table.seats);

// Work on the table one step at a time: stream messages and answers to own requests in order.
function enqueue(step) {
  state.queue = state.queue.then(step).catch((e) => board.say(explain(e), "error"));
  return state.queue;
}

function presence(seat) {
  const s = state.table.seats[seat];
  if (s.kind !== "human" || !s.name) return null; // a bot, or a seat still open
  const label = t(s.connected ? "tables.online" : "tables.offline");
  return h("span", { class: `presence ${s.connected ? "on" : "off"}`, role: "img", "aria-label": label,
    title: label, dataset: { presence: String(seat) } });
}

// A bot's icon: a tap opens its three levels (any human at the table may change them).
function botButton(seat) {
  const s = state.table.seats[seat];
  const open = state.levelMenu === seat;
  const playing = state.table.status === "playing";
  const button = h("button", {
    type: "button", class: "bot-level", "aria-expanded": String(open), disabled: !playing,
    "aria-label": t("tables.botLevel", { name: seatName(seat, state.table.seats), level: t(`level.${s.level}`) }),
    dataset: { botLevel: String(seat) },
    onclick: () => { state.levelMenu = open ? null : seat; render(); },
  }, t(`level.${s.level}`), h("span", { "aria-hidden": "true", text: " ▾" }));
  if (!open) return button;
  const menu = h("span", { class: "level-menu", role: "group", "aria-label": t("tables.chooseLevel") },
    LEVELS.map((level) => h("button", {
      type: "button", class: `button small${level === s.level ? " current" : ""}`,
      "aria-pressed": String(level === s.level), dataset: { level },
      onclick: () => changeLevel(seat, level),
    }, t(`level.${level}`))));
  return h("span", { class: "bot-box" }, button, menu);
}

function seatExtras(seat) {
  if (!state.table) return null;
  return state.table.seats[seat].kind === "bot" ? botButton(seat) : presence(seat);
}

function changeLevel(seat, level) {
  state.levelMenu = null;
  enqueue(async () => {
    try {
      absorbTable(await setBotLevel(tableId, seat, level));
    } catch (e) {
      board.say(explain(e), "error");
    }
    render();
  });
}

// ---- the waiting room ----------------------------------------------------------------------

function seatLine(seat) {
  const s = state.table.seats[seat];
  let text;
  if (s.kind === "bot") text = t("tables.botSeat", { level: t(`level.${s.level}`) });
  else if (s.name) text = s.name;
  else text = t("tables.openSeat");
  return h("li", { class: `waiting-seat${s.kind === "human" && !s.name ? " open" : ""}`, dataset: { seat: String(seat) } },
    h("span", { class: "seat-no", text: String(seat + 1) }), h("span", { text }),
    seat === me() ? h("span", { class: "flag", text: t("seat.you") }) : null, presence(seat));
}

function renderWaiting() {
  const T = state.table;
  const link = `${window.location.origin}/t/${T.invite}`;
  if ($("#invite-link").value !== link) $("#invite-link").value = link;
  clear($("#waiting-seats")).append(...T.seats.map((_, seat) => seatLine(seat)));
  const open = T.seats.filter((s) => s.kind === "human" && !s.name).length;
  const creator = me() === T.creator;
  $("#start-button").hidden = !creator;
  $("#waiting-note").textContent = creator ? t("tables.startNote", { n: open })
    : t("tables.waitForStart", { name: seatName(T.creator, T.seats) });
}

async function copyInvite() {
  $("#invite-done").textContent = t((await copyField($("#invite-link"))) ? "share.copied" : "share.selectHint");
}

async function start() {
  $("#start-button").disabled = true;
  try {
    absorbTable(await startTable(tableId));
    render();
  } catch (e) {
    $("#waiting-error").textContent = explain(e);
  }
  $("#start-button").disabled = false;
}

// ---- the game ------------------------------------------------------------------------------

function renderStrip() {
  const T = state.table;
  clear($("#seat-strip")).append(...T.seats.map((s, seat) => h("li", {
    class: `strip-seat${T.turn === seat && T.status === "playing" ? " to-move" : ""}${seat === me() ? " mine" : ""}`,
    dataset: { seat: String(seat) },
  },
  h("span", { class: "strip-name", text: seat === me() ? `${seatName(seat, T.seats)} (${t("seat.you")})` : seatName(seat, T.seats) }),
  T.dealer === seat ? h("span", { class: "dealer", title: t("tables.dealer"), text: t("tables.dealerShort") }) : null,
  presence(seat),
  h("strong", { class: "strip-total", dataset: { total: String(seat) }, text: signed(T.totals[seat]) }))));
}

function renderCut() {
  const T = state.table;
  const box = $("#cut-box");
  box.hidden = !(T.status === "playing" && T.awaiting_cut);
  if (box.hidden) return;
  const mine = T.cutter === me();
  $("#cut-title").textContent = mine ? t("tables.youCut") : t("tables.cuts", { name: nameOf(T.cutter) });
  $("#cut-control").hidden = !mine;
  showCutValue();
}

function showCutValue() {
  const k = Number($("#cut-range").value);
  $("#cut-value").textContent = t("tables.cutAtN", { n: k });
  $("#cut-mark").style.left = `${((k - 1) / 108) * 100}%`;
}

function renderLucky() {
  const T = state.table;
  const box = $("#lucky");
  box.hidden = !(T.status === "playing" && T.lucky && T.lucky.length && !T.awaiting_cut);
  if (box.hidden) return;
  clear(box).append(h("span", { text: t("tables.lucky", { name: nameOf(T.cutter), n: T.lucky.length }) }), " ",
    h("span", { class: "preview-cards" }, T.lucky.map((c) => face(c, { size: "small" }))));
}

function renderResign() {
  const T = state.table;
  const agreed = T.pending_resign;
  const box = $("#resign-box");
  box.hidden = !(T.status === "playing" && agreed && agreed.length);
  if (box.hidden) return;
  const humans = T.seats.map((s, seat) => (s.kind === "human" ? seat : null)).filter((s) => s !== null);
  const waiting = humans.filter((seat) => !agreed.includes(seat));
  $("#resign-text").textContent = t("tables.resignProposed", {
    name: nameOf(agreed[0]), waiting: waiting.map(nameOf).join(", "), n: waiting.length,
  });
  $("#resign-agree").hidden = agreed.includes(me());
}

// The turn timer for everyone. The deadline and T.now are the server's clock; the page counts the
// time left between them down from when it learnt it (at most the rule's seconds), so a browser
// clock set wrong still shows the server's countdown.
function renderCountdown() {
  const T = state.table;
  const box = $("#countdown");
  if (!T || !T.deadline || T.status !== "playing") {
    box.hidden = true;
    return;
  }
  if (state.deadline !== T.deadline) {
    state.deadline = T.deadline;
    // The server's time left (deadline − T.now, both the server's clock), counted down on ours.
    const serverNow = T.now ? Date.parse(T.now) : Date.now();
    const left = (Date.parse(T.deadline) - serverNow) / 1000;
    state.countdownEnd = Date.now() + 1000 * Math.max(0, Math.min(T.rules.turn_timer, left));
  }
  const left = Math.max(0, Math.ceil((state.countdownEnd - Date.now()) / 1000));
  box.hidden = false;
  box.textContent = t("tables.countdown", { name: nameOf(T.turn), n: left });
  box.classList.toggle("urgent", left <= 10);
}

function scoreTable(caption, rows) {
  return h("table", { class: "scores" },
    h("caption", { text: caption }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("end.seat") }),
      ...rows.columns.map((c) => h("th", { scope: "col", class: "num", text: c })))),
    h("tbody", {}, rows.cells.map(([seat, values]) => h("tr", { class: seat === me() ? "mine" : "" },
      h("th", { scope: "row", text: nameOf(seat) }),
      ...values.map((v) => h("td", { class: "num", text: v }))))));
}

// The latest finished round's scores and the running totals, until the player closes them.
function renderRoundResult() {
  const T = state.table;
  const done = T.rounds.filter((r) => r.scores !== null && r.scores !== undefined);
  const last = done[done.length - 1];
  const box = $("#round-result");
  if (!last || load(dismissedKey, 0) >= last.round || T.status !== "playing") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("#round-result-title").textContent = t("tables.roundOver", { n: last.round });
  $("#round-outcome").textContent = roundOutcomeText(last);
  clear($("#round-scores")).append(scoreTable(t("tables.roundScores"), {
    columns: [t("tables.roundPoints"), t("tables.total")],
    cells: last.scores.map((score, seat) => [seat, [signed(score), signed(last.totals[seat])]]),
  }));
}

// Who went out (T.rounds[].winner, R7.1) and whether "hand out" doubled the round (R7.3); a game
// without the field (Gin) names the round's best score instead.
function roundOutcomeText(round) {
  if (round.end !== "out") return t(round.end === "resign" ? "end.resign" : "end.stock");
  if (round.winner !== undefined && round.winner !== null) {
    return t(round.doubled ? "tables.roundDoubled" : "end.out", { name: nameOf(round.winner) });
  }
  const best = round.scores.indexOf(Math.max(...round.scores));
  return t("tables.roundBest", { name: nameOf(best), n: round.scores[best] });
}

function renderStandings() {
  const T = state.table;
  const box = $("#standings");
  const first = box.hidden;
  box.hidden = T.status !== "finished";
  $("#table").classList.toggle("finished", !box.hidden);
  if (box.hidden) return;
  if (first) box.scrollIntoView({ block: "start" });
  const result = T.result || { totals: T.totals, winner: null, end: "goal" };
  const order = result.totals.map((total, seat) => [seat, total]).sort((a, b) => b[1] - a[1]);
  $("#standings-outcome").textContent = result.end === "resign"
    ? t("tables.resigned", { name: nameOf(result.resigned_by ?? 0) })
    : t("tables.winner", { name: nameOf(result.winner ?? order[0][0]) });
  clear($("#standings-table")).append(scoreTable(t("tables.standings"), {
    columns: [t("tables.place"), t("tables.total")],
    cells: order.map(([seat, total], i) => [seat, [String(i + 1), signed(total)]]),
  }));
  $("#replay-link").href = `/tables/${tableId}/replay`;
  $("#rematch").textContent = t(T.rematch ? "tables.toRematch" : "tables.rematch");
}

function renderGame() {
  const T = state.table;
  ctx.seats = T.seats;
  ctx.me = T.seat;
  if (T.status !== "playing") state.levelMenu = null;
  $("#round-no").textContent = T.round ? t("tables.round", { n: T.round }) : "";
  renderStrip();
  const view = T.view;
  const showBoard = Boolean(view) && !(T.status === "playing" && T.awaiting_cut);
  $("#table").classList.toggle("no-view", !showBoard);
  // A new view redraws the board; a message that changed no card (presence, a level, a resign
  // proposal) redraws only the other seats, so the player's selection stays.
  const shown = JSON.stringify(view);
  if (view && shown !== state.shownView) {
    state.shownView = shown;
    board.render(view);
  } else if (view) {
    renderOpponents(view, ctx);
    board.enable();
  }
  if (T.status === "playing" && T.awaiting_cut) {
    $("#status").textContent = T.cutter === me() ? t("tables.youCut") : t("tables.cuts", { name: nameOf(T.cutter) });
  } else if (T.status === "finished") {
    $("#status").textContent = t("tables.over");
  }
  if (T.game === "tausende") {
    renderTausende(T, ctx, { send, selected: () => board.hand.selectedCards(), say: board.say });
  }
  renderCut();
  renderLucky();
  renderResign();
  renderCountdown();
  renderRoundResult();
  renderStandings();
  $("#resign").hidden = T.status !== "playing" || Boolean(T.pending_resign && T.pending_resign.includes(me()));
}

function render() {
  const T = state.table;
  const waiting = T.status === "waiting";
  $("#waiting").hidden = !waiting;
  $("#table").hidden = waiting;
  if (waiting) renderWaiting();
  else renderGame();
}

// ---- keeping up with the table --------------------------------------------------------------

function absorbTable(T) {
  if (T.seq >= state.seq) {
    state.table = T;
    state.seq = T.seq;
  }
}

// Events with their seq: the last one is the table's seq.
const numbered = (events, seq) => events.map((e, i) => ({ ...e, seq: seq - events.length + 1 + i }));

// New moves are played out on the table as it stood (the bots' pace setting), then the new table
// replaces it; moves already shown (an own request's answer) are skipped.
async function absorb(T, events) {
  const fresh = numbered(events, T.seq).filter((e) => e.seq > state.seq);
  const before = state.table && state.table.view;
  if (fresh.length && before && !state.table.awaiting_cut && state.table.status === "playing") {
    await play(fresh, before, ctx);
  } else {
    for (const e of fresh) logLine(e.seat, e.move, ctx);
  }
  absorbTable(T);
  render();
}

async function send(move) {
  if (board.busy) return;
  board.busy = true;
  document.body.dataset.busy = "1";
  const before = state.table.view;
  render();
  try {
    const result = await sendTableMove(tableId, move, state.seq);
    if (result.table.view) board.renderMine(result.table.view);
    await enqueue(() => absorb(result.table, result.events));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    board.say(explainMove(e, move, before), "error");
    if (e.code === "stale") await enqueue(async () => { absorbTable(await fetchTable(tableId)); });
  } finally {
    board.busy = false;
    delete document.body.dataset.busy;
    render();
  }
}

function cut() {
  send(`cut ${Number($("#cut-range").value)}`);
}

function proposeResign() {
  board.open({
    title: t("action.resign"),
    body: h("p", { text: t("tables.resignText") }),
    move: () => "resign",
    pickMeld: () => {},
  }, () => resign());
}

async function resign() {
  try {
    const result = await resignTable(tableId);
    await enqueue(() => absorb(result.table, []));
  } catch (e) {
    board.say(explain(e), "error");
  }
}

// A rematch: the same seats and rules at a new table (every human keeps their seat); the first to
// ask makes it, everyone else is led to the same one (T.rematch, also from the stream).
async function rematch() {
  $("#rematch").disabled = true;
  try {
    const next = await rematchTable(tableId);
    window.location.assign(`/tables/${next.id}`);
  } catch (e) {
    $("#rematch-error").textContent = explain(e);
    $("#rematch").disabled = false;
  }
}

async function main() {
  $("#speed").value = load("speed", "normal");
  $("#speed").addEventListener("change", (e) => save("speed", e.target.value));
  $("#invite-copy").addEventListener("click", copyInvite);
  $("#start-button").addEventListener("click", start);
  $("#cut-range").addEventListener("input", showCutValue);
  $("#cut-button").addEventListener("click", cut);
  $("#resign").addEventListener("click", proposeResign);
  $("#resign-agree").addEventListener("click", resign);
  $("#rematch").addEventListener("click", rematch);
  $("#round-close").addEventListener("click", () => {
    const done = state.table.rounds.filter((r) => r.scores);
    if (done.length) save(dismissedKey, done[done.length - 1].round);
    render();
  });
  try {
    absorbTable(await fetchTable(tableId));
  } catch (e) {
    $("#load-error").hidden = false;
    $("#load-error").append(h("p", { text: explain(e) }));
    return;
  }
  ctx.me = me();
  ctx.seats = state.table.seats;
  restoreLog(ctx);
  render();
  if (state.table.seat !== null && state.table.status !== "finished") {
    tableEvents(tableId, state.seq, (message) => enqueue(() => absorb(message.table, message.events)),
      (s) => { document.body.dataset.stream = s; });
  }
  state.timer = setInterval(renderCountdown, 250);
  document.body.dataset.ready = "1";
}

main();
