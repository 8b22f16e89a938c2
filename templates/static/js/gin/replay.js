// The Gin replay viewer (a finished table's match, or a daily match of a closed day): every
// position of the public record, hand by hand, both hands open (the seed is public by then).
// ←/→ step, Home/End jump; the positions come from the server's engine (docs/GIN_DAILY.md).
// "Analysieren" shows the analysis of the hand on screen (docs/ANALYSIS.md: the daily player's,
// a table's first human seat's); each marked decision jumps to its position.

import { exact, showAnalysis } from "../lib/analysis.js";
import { analysis, replayPositions, tableAnalysis, tablePositions } from "../lib/api.js";
import { back, cardList, face } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { formatNumber, t } from "../lib/i18n.js";
import { describeGinMove, ownGinMove, sortGin } from "./cards.js";

const { attempt: attemptId, table: tableId } = document.body.dataset;
// moveStep[i]: the step whose position move i (the record's numbering) was played from
const state = { data: null, step: 0, steps: [], moveStep: [], note: null };

function nameOf(seat) {
  const s = state.data.record.seats[seat];
  return s.kind === "bot" ? t("gin.bot", { level: t(`gin.level.${s.level}`) }) : s.name;
}

// Step 0 is the first deal; step i > 0 the position after move i − 1; a new hand's deal is its
// own step after the move that ended the hand before.
function buildSteps(data) {
  const steps = [{ position: data.deals[0], move: null }];
  state.moveStep = [];
  let hand = 0;
  data.positions.forEach((position, i) => {
    state.moveStep.push(steps.length - 1);
    steps.push({ position, move: data.record.moves[i] });
    if (position.outcome && data.deals[hand + 1]) {
      hand += 1;
      steps.push({ position: data.deals[hand], move: null, deal: true });
    }
  });
  return steps;
}

function totalsBefore(handNo) {
  const totals = [0, 0];
  for (const r of state.data.record.hands) {
    if (r.hand < handNo) r.scores.forEach((s, i) => { totals[i] += s; });
  }
  return totals;
}

// A card the owner did not see: their early replay (before the close, "seen_by": 0) shows the
// bot's hand face down until it was laid open, as the table did.
const HIDDEN = "??";

function seatBox(p, seat) {
  const hand = p.hands[seat];
  const hidden = hand.includes(HIDDEN);
  const cards = hidden ? hand : sortGin(hand);
  return h("section", { class: "gin-other", dataset: { seat: String(seat) } },
    h("h2", {}, nameOf(seat), p.dealer === seat ? h("span", { class: "flag", text: t("gin.dealer") }) : null,
      p.turn === seat && !p.outcome ? h("span", { class: "turn-flag", text: t("gin.toMove") }) : null),
    h("p", { class: "meld-cards gin-revealed" }, cards.map((c) => (c === HIDDEN ? back({ size: "small" })
      : face(c, { size: "small" })))));
}

function show() {
  const step = state.steps[state.step];
  const p = step.position;
  $("#replay-hand").textContent = t("gin.handN", { n: p.hand });
  $("#replay-move").textContent = step.move
    ? describeGinMove(step.move.move, nameOf(step.move.seat), false)
    : t("gin.replay.deal", { n: p.hand, name: nameOf(p.dealer) });
  clear($("#replay-seats")).append(seatBox(p, 0), seatBox(p, 1));
  clear($("#replay-stock")).append(back({ size: "small" }), h("span", { text: formatNumber(p.stock.length) }));
  $("#replay-pile-title").textContent = t("gin.pile", { n: p.discard.length });
  const top = p.discard[p.discard.length - 1];
  clear($("#replay-pile")).append(top ? face(top) : h("span", { class: "empty", text: t("gin.pileEmpty") }));
  const knock = clear($("#replay-knock"));
  if (p.knock) {
    knock.append(h("p", { text: t("gin.replay.knock", { name: nameOf(p.knock.seat), n: p.knock.deadwood }) }),
      h("div", { class: "meld-list" }, p.knock.melds.map((m, i) => h("span", { class: "meld" },
        h("span", { class: "meld-no", text: String(i + 1) }),
        cardList(m, { className: "meld-cards" })))));
  }
  if (p.outcome) {
    const w = p.outcome.winner;
    knock.append(h("p", { class: "gin-after", text: w === null ? t("gin.end.wall")
      : t("gin.replay.outcome", { name: nameOf(w), n: p.outcome.scores[w], end: t(`gin.endShort.${p.outcome.end}`) }) }));
  }
  const totals = totalsBefore(p.outcome ? p.hand + 1 : p.hand);
  $("#replay-totals").textContent = [0, 1].map((s) => t("gin.totalOf", { name: nameOf(s), n: totals[s] })).join(" · ");
  $("#replay-step").value = String(state.step);
  $("#replay-count").textContent = t("gin.replay.count", { i: state.step, n: state.steps.length - 1 });
  $("#replay-prev").disabled = state.step === 0;
  $("#replay-first").disabled = state.step === 0;
  $("#replay-next").disabled = state.step === state.steps.length - 1;
  $("#replay-last").disabled = state.step === state.steps.length - 1;
  document.body.dataset.step = String(state.step);
  const note = $("#replay-better");
  note.hidden = !(state.note && state.note.step === state.step);
  note.textContent = note.hidden ? "" : state.note.text;
}

// A marked decision's position (the one its move was played from), the move and the better one.
function jump(decision) {
  const step = state.moveStep[decision.move_index];
  state.note = {
    step,
    text: t("analysis.atMove", {
      played: ownGinMove(decision.played), best: ownGinMove(decision.best), cost: Math.round(exact(decision.cost) * 10) / 10,
    }),
  };
  go(step);
  $("#replay-step").focus();
}

function analyse() {
  const hand = state.steps[state.step].position.hand;
  const seat = Math.max(0, state.data.record.seats.findIndex((s) => s.kind === "human"));
  showAnalysis($("#replay-analysis"), {
    load: () => (tableId ? tableAnalysis(tableId, { hand }, seat) : analysis(attemptId, "view", { hand })),
    jump,
    say: ownGinMove,
    before: h("p", { class: "hint-text", text: `${t("gin.handNo")} ${hand}` }),
  });
}

function go(i) {
  state.step = Math.max(0, Math.min(state.steps.length - 1, i));
  show();
}

async function main() {
  try {
    state.data = tableId ? await tablePositions(tableId) : await replayPositions(attemptId);
  } catch (e) {
    $("#load-error").hidden = false;
    $("#load-error").append(h("p", { text: explain(e) }));
    document.body.dataset.ready = "1";
    return;
  }
  state.steps = buildSteps(state.data);
  $("#replay-own").hidden = state.data.seen_by !== 0;
  $("#replay-step").max = String(state.steps.length - 1);
  $("#replay-step").addEventListener("input", (e) => go(Number(e.target.value)));
  $("#replay-first").addEventListener("click", () => go(0));
  $("#replay-prev").addEventListener("click", () => go(state.step - 1));
  $("#replay-next").addEventListener("click", () => go(state.step + 1));
  $("#replay-last").addEventListener("click", () => go(state.steps.length - 1));
  $("#replay-analyse").addEventListener("click", analyse);
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT") return;
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (e.key in moves) go(state.step + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(state.steps.length - 1);
    else return;
    e.preventDefault();
  });
  $("#replay").hidden = false;
  show();
  document.body.dataset.ready = "1";
}

main();
