// The replay viewer: steps through a finished game's record (F6) move by move, every hand open.
// Only for closed days (the server refuses while the day's seed is secret): nothing is spoiled.
// Before the close the owner of a finished attempt sees it as seat 0 saw it ("seen_by": 0): the
// cards they did not see come as "??" and are shown face down.
// A finished table's game is shown the same way, one round at a time.
// "Analysieren" shows the game's analysis (docs/ANALYSIS.md: the daily player's, a table round's
// first human seat's); each marked decision jumps to its position and names the better move.

import { exact, showAnalysis } from "../lib/analysis.js";
import { ApiError, analysis, replayPositions, tableAnalysis, tablePositions } from "../lib/api.js";
import { back, face } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { formatDate, signed, t } from "../lib/i18n.js";
import { meldList } from "./melds.js";
import { describe, goesOut, seatName } from "./moves.js";

const attemptId = document.body.dataset.attempt;
const tableId = document.body.dataset.table;
const state = { record: null, positions: [], step: 0, rounds: null, round: 1, note: null, marked: [] };
const HIDDEN = "??"; // a card the owner did not see (their early replay)

function seatLabel(seat) {
  return seatName(seat, state.record.seats);
}

// Move number `step` (1-based) in words; a discard of the seat's last card goes out face down
// (R4.3), shown as the live table shows it.
function moveText(step) {
  const { seat, move } = state.record.moves[step - 1];
  const before = state.positions[step - 1];
  const goingOut = Boolean(before) && goesOut(move, before.hands[seat].length);
  return describe(move, { goingOut });
}

function render() {
  const { record, positions, step } = state;
  const position = positions[step];
  const seats = clear($("#replay-seats"));
  position.hands.forEach((hand, seat) => {
    seats.append(h("section", { class: `seat${position.turn === seat && !position.outcome ? " to-move" : ""}` },
      h("header", {}, h("h3", { text: seatLabel(seat) }),
        h("span", { class: "level", text: t("table.handSize", { n: hand.length }) })),
      h("div", { class: "replay-hand" }, hand.map((c) => (c === HIDDEN ? back({ size: "small" })
        : face(c, { size: "small" })))),
      meldList(position.melds[seat])));
  });
  $("#replay-stock").textContent = String(position.stock.length);
  const top = clear($("#replay-discard"));
  const pile = position.discard;
  top.append(pile.length ? face(pile[pile.length - 1], { size: "large" })
    : h("span", { class: "card card-large empty-slot", text: t("table.pileEmpty") }));
  const moves = record.moves;
  $("#replay-step").textContent = step === 0 ? t("replay.deal", { n: moves.length })
    : t("replay.at", { step, n: moves.length, name: seatLabel(moves[step - 1].seat),
      move: moveText(step) });
  const note = $("#replay-better");
  note.hidden = !(state.note && state.note.step === step);
  note.textContent = note.hidden ? "" : state.note.text;
  [...$("#replay-moves").children].forEach((li, i) => {
    li.classList.toggle("current", i === step - 1);
    li.classList.toggle("analysis-marked", state.marked.includes(i));
    if (i === step - 1) li.scrollIntoView({ block: "nearest" });
  });
  $("#step-range").value = String(step);
  const outcome = position.outcome;
  $("#replay-result").textContent = outcome
    ? t("replay.result", { scores: outcome.round_scores.map((s, i) => `${seatLabel(i)} ${signed(s)}`).join(", ") })
    : "";
}

function go(step) {
  state.step = Math.max(0, Math.min(state.positions.length - 1, step));
  render();
}

// A marked decision's position: the one before its move (positions[k] follows k moves), with
// the move played there and the analyst's better one.
function jump(decision) {
  state.note = {
    step: decision.move_index,
    text: t("analysis.atMove", {
      played: describe(decision.played), best: describe(decision.best), cost: Math.round(exact(decision.cost) * 10) / 10,
    }),
  };
  go(decision.move_index);
  $("#step-range").focus();
}

function analyse() {
  const seat = state.record.seats.findIndex((s) => s.kind === "human");
  const load = tableId
    ? () => tableAnalysis(tableId, { round: state.round }, Math.max(seat, 0))
    : () => analysis(attemptId);
  $("#replay-analyse").hidden = true;
  showAnalysis($("#replay-analysis"), {
    load: async () => {
      const doc = await load();
      state.marked = (doc.decisions || []).filter((d) => d.mark).map((d) => d.move_index);
      return doc;
    },
    jump,
    say: (move) => describe(move),
  });
}

// One game (the daily's, or one round of a table): its moves and positions.
function show(record, positions) {
  state.record = record;
  state.positions = positions;
  state.note = null;
  state.marked = [];
  $("#replay-analysis").hidden = true;
  $("#replay-analyse").hidden = false;
  const list = clear($("#replay-moves"));
  record.moves.forEach((m, i) => list.append(h("li", {},
    h("span", { class: "move-no", text: String(i + 1) }),
    h("button", { type: "button", class: "link", onclick: () => go(i + 1) },
      `${seatLabel(m.seat)}: ${moveText(i + 1)}`))));
  $("#step-range").max = String(positions.length - 1);
  go(0);
}

// A table's rounds as tabs above the viewer.
function showRounds(rounds) {
  const nav = clear($("#replay-rounds"));
  nav.hidden = false;
  rounds.forEach((round, i) => nav.append(h("button", {
    type: "button", class: "button small", dataset: { round: String(i + 1) },
    onclick: () => {
      nav.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b === nav.children[i])));
      $("#replay-date").textContent = t("replay.round", { n: i + 1 });
      state.round = i + 1;
      show(round.record, round.positions);
    },
  }, t("replay.round", { n: i + 1 }))));
  nav.children[0].click();
}

async function load() {
  if (tableId) {
    const data = await tablePositions(tableId);
    showRounds(data.rounds);
    return;
  }
  const data = await replayPositions(attemptId);
  if (data.game && data.game !== "pikdame") { // another daily game's match: its own viewer
    window.location.replace(`/${data.game}/replay/${encodeURIComponent(attemptId)}`);
    return;
  }
  $("#replay-date").textContent = formatDate(data.date);
  $("#replay-own").hidden = data.seen_by !== 0;
  show(data.record, data.positions);
}

async function main() {
  $("#step-range").addEventListener("input", (e) => go(Number(e.target.value)));
  $("#first").addEventListener("click", () => go(0));
  $("#back").addEventListener("click", () => go(state.step - 1));
  $("#forward").addEventListener("click", () => go(state.step + 1));
  $("#last").addEventListener("click", () => go(state.positions.length - 1));
  $("#replay-analyse").addEventListener("click", analyse);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowRight") go(state.step + 1);
    else if (e.key === "ArrowLeft") go(state.step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(state.positions.length - 1);
  });
  $("#replay").hidden = false;
  try {
    await load();
  } catch (e) {
    $("#replay").hidden = true;
    const closedOnly = e instanceof ApiError && e.code === "day_open";
    $("#replay-error").textContent = closedOnly ? t("replay.notYet") : explain(e);
    return;
  }
  document.body.dataset.ready = "1";
}

main();
