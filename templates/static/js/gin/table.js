// A Gin Rommé table (docs/TABLES.md "Games", GIN.md): the waiting room while a friend joins,
// then the match to 100 live from the table's event stream, on the Gin board (gin/board.js).
// The match lives on the server: a reload (on any device with the seat's session) shows it as
// it stands. "Wiederholen" deals the same seeded match again at a new, unranked table (a match
// against the bot alone is given up first: nothing is undone). Once a hand has ended, your seat
// may have it analysed ("Analysieren", docs/TABLES.md "Analysis").

import { showAnalysis } from "../lib/analysis.js";
import {
  ApiError, repeatTable, resignTable, sendTableMove, startTable, table as fetchTable, tableAnalysis,
} from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { wirePace } from "../lib/pace.js";
import { presenceMark } from "../lib/table/seats.js";
import { createShell } from "../lib/table/shell.js";
import { forfeitText } from "../lib/table/summary.js";
import { createGinBoard } from "./board.js";
import { ownGinMove } from "./cards.js";

const tableId = document.body.dataset.table;
let confirming = null; // what the open confirmation does on OK
let analysed = null; // the hand whose analysis is shown

function nameOf(seat) {
  const s = state.table.seats[seat];
  if (s.kind === "bot") return t("gin.bot", { level: t(`gin.level.${s.level}`) });
  return s.name || t("tables.openSeat");
}

// The waiting room, the countdown, the rematch and the live stream are every table's (shell.js).
const shell = createShell(tableId, { nameOf, say: (text, kind) => board.say(text, kind), show: (T) => absorb(T) });
const { state, me, enqueue } = shell;
const board = createGinBoard($("#gin-board"), {
  send: (move) => send(move), nameOf, seatExtras: (seat) => presenceMark(state.table.seats[seat], seat),
});

function absorb(T) {
  shell.keep(T);
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.status = state.table.status;
  render();
}

// ---- the waiting room ----------------------------------------------------------------------
function renderWaiting() {
  shell.renderWaiting({ seatText: nameOf, startNote: "gin.startNote" });
  $("#repeat-note").hidden = !state.table.repeat_of;
}

// ---- the match -----------------------------------------------------------------------------
function renderStandings() {
  const T = state.table;
  const box = $("#standings");
  const first = box.hidden;
  box.hidden = T.status !== "finished";
  if (box.hidden) return;
  if (first) box.scrollIntoView({ block: "start" });
  const result = T.result || { totals: T.totals, winner: null, end: "score" };
  const winner = result.winner ?? (T.totals[0] >= T.totals[1] ? 0 : 1);
  $("#standings-outcome").textContent = forfeitText(result, nameOf) ?? (result.end === "resign"
    ? t("gin.resigned", { name: nameOf(1 - winner), winner: nameOf(winner) })
    : t("tables.winner", { name: nameOf(winner) }));
  $("#standings-totals").textContent = [0, 1].map((s) => t("gin.totalOf", { name: nameOf(s), n: result.totals[s] })).join(" · ");
  $("#replay-link").href = `/tables/${tableId}/replay`;
  $("#rematch").hidden = me() === null;
  $("#repeat-end").hidden = me() === null;
  $("#rematch").textContent = t(T.rematch ? "tables.toRematch" : "tables.rematch");
}

// "Analysieren" for the last hand that ended, your own seat (a seated player's only).
function renderHandAnalysis() {
  const T = state.table;
  const last = T.rounds.length;
  $("#hand-analyse-row").hidden = me() === null || last === 0 || analysed === last;
  $("#hand-analyse").textContent = `${t("analysis.open")}: ${t("gin.handNo")} ${last}`;
  $("#hand-analyse").dataset.hand = String(last);
  if (analysed !== null && analysed !== last) $("#hand-analysis").hidden = true;
}

function analyseHand() {
  const hand = Number($("#hand-analyse").dataset.hand);
  analysed = hand;
  $("#hand-analyse-row").hidden = true;
  showAnalysis($("#hand-analysis"), {
    load: () => tableAnalysis(tableId, { hand }), say: ownGinMove,
  });
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
  // the pace of the other seat's moves: only where a bot sits, as at Pik Dame's tables
  $("#speed").closest(".settings").hidden = !T.seats.some((s) => s.kind === "bot");
  if (T.view) board.render(T.view);
  const playing = T.status === "playing";
  $("#resign").hidden = !playing || me() === null; // never for a visitor watching
  // against the bot alone "Wiederholen" works at any moment (the match is given up first)
  const friends = T.seats.filter((s, seat) => s.kind === "human" && seat !== me()).length;
  $("#repeat").hidden = !playing || friends > 0;
  shell.renderResign();
  shell.renderCountdown();
  renderHandAnalysis();
  renderStandings();
}

async function send(move) {
  try {
    const result = await sendTableMove(tableId, move, state.seq);
    await enqueue(async () => {
      if (result.table.seq > state.seq) { // not seen on the stream yet: played out, then drawn
        board.noteEvents(result.events);
        await board.playOut(result.events);
      }
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
  confirming = then;
  $("#table-confirm-ok").focus();
}

function closeAsk() {
  $("#table-confirm").hidden = true;
  confirming = null;
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
  state.leaving = true; // this page goes to the new table itself (after starting it)
  try {
    let next = await repeatTable(tableId);
    if (next.status === "waiting" && next.seat === next.creator
      && !next.seats.some((s) => s.kind === "human" && !s.name)) next = await startTable(next.id);
    window.location.assign(`/tables/${next.id}`);
  } catch (e) {
    state.leaving = false;
    const text = explain(e);
    board.say(text, "error");
    $("#end-error").textContent = text;
  }
}

async function main() {
  wirePace($("#speed"));
  shell.wire({ errorBox: "#end-error" });
  $("#resign").addEventListener("click", () => ask(t("gin.resign"), t("gin.resignText"), resign));
  $("#repeat").addEventListener("click", () => ask(t("gin.repeat"), t("gin.repeatText"), repeat));
  $("#repeat-end").addEventListener("click", repeat);
  $("#hand-analyse").addEventListener("click", analyseHand);
  $("#table-confirm-ok").addEventListener("click", () => {
    const then = confirming;
    closeAsk();
    if (then) then();
  });
  $("#table-confirm-cancel").addEventListener("click", closeAsk);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && confirming) closeAsk();
  });
  if (!(await shell.load())) return;
  absorb(state.table);
  shell.follow(async (message, behind) => {
    if (message.table.seq > state.seq) {
      board.noteEvents(message.events);
      if (!behind) await board.playOut(message.events); // behind: drawn at once
    }
    absorb(message.table);
  });
}

main();
