// A Pik Dame table (docs/TABLES.md): the waiting room while friends join, then the game live from
// the table's event stream (every seat's moves, presence, the turn timer), the cut, the lucky
// grab, bot levels, resign by consent (R8), round results (with your seat's analysis of the round),
// the final standings and a rematch. The player's side of the table is the daily's (board.js);
// nothing here polls the table (only an analysis while the worker computes it). A ruleset played on
// Pik Dame's board (Tausende) opens the page with what it adds (openTablePage's `ruleset`).

import { showAnalysis } from "../lib/analysis.js";
import {
  ApiError, resignTable, sendTableMove, setBotLevel, table as fetchTable, tableAnalysis, tableHint,
} from "../lib/api.js";
import { announce } from "../lib/announce.js";
import { face } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { signed, t } from "../lib/i18n.js";
import { load, save } from "../lib/store.js";
import { presenceMark } from "../lib/table/seats.js";
import { createShell } from "../lib/table/shell.js";
import { finishingOrder, forfeitText, gameName, seatText } from "../lib/table/summary.js";
import { createBoard } from "./board.js";
import { explainMove } from "./explain.js";
import { closeHint, hintOpen, showHint } from "./hint.js";
import { describe, seatName } from "./moves.js";
import { logLine, play, restoreLog } from "./playback.js";
import { renderOpponents } from "./view.js";

const tableId = document.body.dataset.table;
const LEVELS = ["beginner", "advanced", "zen"];
const ctx = {
  seats: null, me: 0, attemptId: `table.${tableId}`, seatExtras: (seat) => seatExtras(seat),
  seatScore: (seat) => (state.table ? signed(state.table.totals[seat]) : null), // each seat's running total
};
// Every human seat has its name (the player's own too, so sentences read the same for all).
const nameOf = (seat) => seatName(seat, state.table.seats);
// The waiting room, the countdown, the rematch and the live stream are every table's (shell.js).
const shell = createShell(tableId, {
  nameOf, say: (text, kind) => board.say(text, kind), show: (T) => { shell.keep(T); render(); },
});
const { state, me, enqueue } = shell;
// the bot level menu open, the view drawn, the status said, the round whose analysis is shown
const page = { levelMenu: null, shownView: null, said: null, analysed: null };
const board = createBoard(ctx, { send: (move) => send(move), hint: () => hint() });
const dismissedKey = `table.${tableId}.seenRound`;
// What a ruleset adds to the table (openTablePage): render(T, ctx, handlers) beside the board.
let ruleset = { render: () => {} };

const presence = (seat) => presenceMark(state.table.seats[seat], seat);

// A bot's icon: a tap opens its three levels (any human at the table may change them).
function botButton(seat) {
  const s = state.table.seats[seat];
  const open = page.levelMenu === seat;
  const playing = state.table.status === "playing";
  const button = h("button", {
    type: "button", class: "bot-level", "aria-expanded": String(open), disabled: !playing,
    "aria-label": t("tables.botLevel", { name: seatName(seat, state.table.seats), level: t(`level.${s.level}`) }),
    dataset: { botLevel: String(seat) },
    onclick: () => { page.levelMenu = open ? null : seat; render(); },
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
  page.levelMenu = null;
  enqueue(async () => {
    try {
      shell.keep(await setBotLevel(tableId, seat, level));
    } catch (e) {
      board.say(explain(e), "error");
    }
    render();
  });
}

// ---- the waiting room ----------------------------------------------------------------------

function renderWaiting() {
  shell.renderWaiting({
    seatText: (seat) => seatText(state.table.seats[seat]), seatExtra: presence, startNote: "tables.startNote",
  });
}

// ---- the game ------------------------------------------------------------------------------

function renderStrip() {
  const T = state.table;
  clear($("#seat-strip")).append(...T.seats.map((s, seat) => h("li", {
    class: `strip-seat${T.turn === seat && T.status === "playing" ? " to-move" : ""}${seat === me() ? " mine" : ""}`,
    dataset: { seat: String(seat) },
  },
  h("span", { class: "strip-name", text: seat === me() ? `${seatName(seat, T.seats)} (${t("seat.you")})` : seatName(seat, T.seats) }),
  // the dealer's mark ("G"), explained by its title, its spoken name and the legend under the strip
  T.dealer === seat ? h("span", { class: "dealer", title: t("tables.dealer") },
    h("span", { "aria-hidden": "true", text: t("tables.dealerShort") }),
    h("span", { class: "sr", text: t("tables.dealer") })) : null,
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

// The cut's range is the game's (R3: 1 … 109; Tausende's 108 cards, R12.1: 1 … 107).
function showCutValue() {
  const range = $("#cut-range");
  const k = Number(range.value);
  const max = Number(range.max);
  $("#cut-help").textContent = t("tables.cutHelp", { max });
  $("#cut-value").textContent = t("tables.cutAtN", { n: k, max });
  $("#cut-mark").style.left = `${((k - 1) / (max - 1)) * 100}%`;
}

function renderLucky() {
  const T = state.table;
  const box = $("#lucky");
  box.hidden = !(T.status === "playing" && T.lucky && T.lucky.length && !T.awaiting_cut);
  if (box.hidden) return;
  clear(box).append(h("span", { text: t("tables.lucky", { name: nameOf(T.cutter), n: T.lucky.length }) }), " ",
    h("span", { class: "preview-cards" }, T.lucky.map((c) => face(c, { size: "small" }))));
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
  if (page.analysed !== last.round) { // another round's result: its own "Analysieren"
    $("#round-analysis").hidden = true;
    $("#round-analyse").hidden = false;
    $("#round-deal").hidden = false;
  }
  box.dataset.round = String(last.round);
  $("#round-result-title").textContent = t("tables.roundOver", { n: last.round });
  $("#round-outcome").textContent = roundOutcomeText(last);
  clear($("#round-scores")).append(scoreTable(t("tables.roundScores"), {
    columns: [t("tables.roundPoints"), t("tables.total")],
    cells: last.scores.map((score, seat) => [seat, [signed(score), signed(last.totals[seat])]]),
  }));
}

// "Analysieren": your own seat's play in the round just ended (docs/TABLES.md "Analysis"); "In
// diesem Deal": the same decisions played out in the real deal, its seed revealed at the round's
// end (F3), shown as this deal's outcome without marks (docs/ANALYSIS.md "The pages").
function analyseRound(mode) {
  const round = Number($("#round-result").dataset.round);
  page.analysed = round;
  $("#round-analyse").hidden = mode === "view";
  $("#round-deal").hidden = mode === "deal";
  delete $("#round-analysis").dataset.ready;
  showAnalysis($("#round-analysis"), {
    load: () => tableAnalysis(tableId, { round }, null, mode), say: (move) => describe(move),
  });
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

// R8: who ended the game. Against bots alone there was no proposal to agree to: the player
// gave up; with other people at the table, the proposer's name and that all agreed.
function resignedText(T, result) {
  const by = result.resigned_by ?? 0;
  const people = T.seats.filter((s) => s.kind === "human" && s.name).length;
  if (people > 1) return t("tables.resigned", { name: nameOf(by) });
  return by === me() ? t("tables.resignedYou") : t("tables.resignedBy", { name: nameOf(by) });
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
  const order = finishingOrder(result); // a forfeit last (T.result.places)
  $("#standings-outcome").textContent = forfeitText(result, nameOf)
    ?? (result.end === "resign" ? resignedText(T, result)
      : t("tables.winner", { name: nameOf(result.winner ?? order[0][0]) }));
  clear($("#standings-table")).append(scoreTable(t("tables.standings"), {
    columns: [t("tables.place"), t("tables.total")],
    cells: order.map(([seat, place]) => [seat, [String(place), signed(result.totals[seat])]]),
  }));
  $("#replay-link").href = `/tables/${tableId}/replay`;
  $("#rematch").textContent = t(T.rematch ? "tables.toRematch" : "tables.rematch");
}

function renderGame() {
  const T = state.table;
  ctx.seats = T.seats;
  ctx.me = T.seat;
  if (T.status !== "playing") page.levelMenu = null;
  $("#table-title").firstChild.textContent = `${gameName(T.game)} `; // the table's game, not always Pik Dame
  $("#round-no").textContent = T.round ? t("tables.round", { n: T.round }) : "";
  // the bots' pace: only where a bot sits (issue 38)
  $("#speed").closest(".settings").hidden = !T.seats.some((s) => s.kind === "bot");
  renderStrip();
  const view = T.view;
  const showBoard = Boolean(view) && !(T.status === "playing" && T.awaiting_cut);
  $("#table").classList.toggle("no-view", !showBoard);
  // A new view redraws the board; a message that changed no card (presence, a level, a resign
  // proposal) redraws only the other seats, so the player's selection stays.
  const shown = JSON.stringify(view);
  if (view && shown !== page.shownView) {
    page.shownView = shown;
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
  if ((T.awaiting_cut || T.status === "finished") && $("#status").textContent !== page.said) {
    page.said = $("#status").textContent;
    announce(page.said);
  }
  ruleset.render(T, ctx, {
    send, selected: () => board.hand.selectedCards(), say: board.say, action: board.action,
  });
  renderCut();
  renderLucky();
  shell.renderResign();
  shell.renderCountdown();
  renderRoundResult();
  renderStandings();
  $("#hint-btn").hidden = !hintsOn(); // the table's house option (docs/TABLES.md "Hints")
  if (hintOpen() && !myPlayPhase()) closeHint(board.hand); // the turn (or the game) is over
  // Also while a round waits for its cut (R8: the undealt round is dropped); never for a viewer.
  $("#resign").hidden = T.status !== "playing" || me() === null
    || Boolean(T.pending_resign && T.pending_resign.includes(me()));
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

// Events with their seq: the last one is the table's seq.
const numbered = (events, seq) => events.map((e, i) => ({ ...e, seq: seq - events.length + 1 + i }));

// New moves are played out on the table as it stood (the bots' pace setting), then the new table
// replaces it; moves already shown (an own request's answer) are skipped, and a page ``behind``
// newer messages (shell.follow) logs them at once.
async function absorb(T, events, behind = false) {
  const fresh = numbered(events, T.seq).filter((e) => e.seq > state.seq);
  const before = state.table && state.table.view;
  const playing = state.table && !state.table.awaiting_cut && state.table.status === "playing";
  if (fresh.length && before && playing && !behind) {
    await play(fresh, before, ctx);
  } else {
    for (const e of fresh) logLine(e.seat, e.move, ctx, false, e.timer);
  }
  shell.keep(T);
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
    closeHint(board.hand); // the hand changed: the hint was for the one before
    if (result.table.view) board.renderMine(result.table.view);
    await enqueue(() => absorb(result.table, result.events));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    board.say(explainMove(e, move, before), "error");
    if (e.code === "stale") await enqueue(async () => { shell.keep(await fetchTable(tableId)); });
  } finally {
    board.busy = false;
    delete document.body.dataset.busy;
    render();
  }
}

// The own seat's hint, as the daily's (docs/TABLES.md "Hints"), where the table allows hints.
const hintsOn = () => state.table.rules.hints !== false;

const myPlayPhase = () => {
  const T = state.table;
  return T.status === "playing" && Boolean(T.view) && !T.awaiting_cut && T.turn === me()
    && T.view.phase === "play";
};

async function hint() {
  const T = state.table;
  if (!T || board.busy || !hintsOn()) return;
  if (!myPlayPhase()) {
    board.say(t("need.hintPlay"));
    return;
  }
  // a ruleset with an opening (its view has `opened`, R12.3): no hint before the seat has opened
  const opening = T.view.opened && !T.view.opened[me()];
  await showHint(() => tableHint(tableId), board.hand, opening ? { none: t("hint.noneOpening") } : {});
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

// ruleset: what a ruleset played on Pik Dame's board adds: render(T, ctx, handlers) draws its
// part beside the board after each render; opening ({goal, points(meld)}) is its opening rule,
// with which the other seats' moves are played back (playback.js).
export function openTablePage({ render: extra = () => {}, opening = null } = {}) {
  ruleset = { render: extra };
  ctx.opening = opening;
  main();
}

async function main() {
  $("#speed").value = load("speed", "normal");
  $("#speed").addEventListener("change", (e) => save("speed", e.target.value));
  shell.wire({ errorBox: "#rematch-error" });
  $("#cut-range").addEventListener("input", showCutValue);
  $("#cut-button").addEventListener("click", cut);
  $("#resign").addEventListener("click", proposeResign);
  $("#round-analyse").addEventListener("click", () => analyseRound("view"));
  $("#round-deal").addEventListener("click", () => analyseRound("deal"));
  $("#round-close").addEventListener("click", () => {
    const done = state.table.rounds.filter((r) => r.scores);
    if (done.length) save(dismissedKey, done[done.length - 1].round);
    render();
  });
  if (!(await shell.load())) return;
  ctx.me = me();
  ctx.seats = state.table.seats;
  restoreLog(ctx);
  render();
  shell.follow((message, behind) => absorb(message.table, message.events, behind));
}
