// The Gin daily's play page (docs/GIN_DAILY.md): the attempt's match against the strong computer
// on the same Gin board as the tables (gin/board.js); every move goes to the server, which
// answers with the bot's moves; the match lives there, so a reload (or another device with the
// attempt's session) continues it. At the end: the totals, the score (your total minus the
// bot's), the verification by replay and the way to the Gin rankings. A deal of the week's
// tournament (docs/EVENTS.md: the attempt's `event`, one hand) is titled as the tournament's,
// scored by the server's verification (a resignation −123, the wall 0 with no winner) and leads
// back to the event page instead of the day's share text.

import { showAnalysis } from "../lib/analysis.js";
import {
  ApiError, analysis, attempt as fetchAttempt, sendMove, shareOf, verification,
} from "../lib/api.js";
import { $, h, sleep } from "../lib/dom.js";
import { eventDealTitle, showEventEnd } from "../lib/eventdeal.js";
import { explain } from "../lib/explain.js";
import { formatDate, signed, t } from "../lib/i18n.js";
import { wirePace } from "../lib/pace.js";
import { copyOnClick } from "../lib/share.js";
import { createGinBoard } from "./board.js";
import { ownGinMove } from "./cards.js";

const attemptId = document.body.dataset.attempt;
const state = { attempt: null, waiting: false };
const nameOf = (seat) => (seat === 0 ? state.attempt.name : t("gin.bot", { level: t("gin.level.strong") }));
const board = createGinBoard($("#gin-board"), { send: (move) => send(move), nameOf });

function verdictText(v) {
  if (state.attempt.ranked === false) return t(state.attempt.event ? "event.unranked" : "verify.practice");
  if (!v) return t("verify.pending");
  if (v.status === "queued") return t("verify.queued");
  if (v.status === "verified") return v.rank ? `${t("verify.verified")} ${t("share.rank", { rank: v.rank })}` : t("verify.verified");
  return t("verify.rejected", { reason: v.reason || "" });
}

async function waitVerdict() {
  if (state.waiting || state.attempt.ranked === false) return;
  state.waiting = true;
  let v = state.attempt.verification;
  for (let i = 0; i < 30 && !(v && (v.status === "verified" || v.status === "rejected")); i += 1) {
    try {
      v = await verification(attemptId, 20);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) break;
      await sleep(1000);
    }
    $("#end-verification").textContent = verdictText(v);
    $("#end-verification").dataset.status = v ? v.status : "";
    // a busy server answered at once, asking to wait: ask again after that, not at once
    if (v && v.status === "queued" && v.retryAfterS > 0) await sleep(v.retryAfterS * 1000);
  }
  if (v && v.status === "verified") {
    if (state.attempt.event) showEventScore(v);
    else showShare();
    analyseHand(1, v.hands || 1);
  }
}

// An event deal's score is the server's, from its verification (docs/EVENTS.md): the hand's
// points difference, a resignation counting the most a hand gives against the player.
function showEventScore(v) {
  const out = $("#end-event-score");
  out.hidden = false;
  if (state.attempt.ranked === false) {
    out.textContent = t("event.unranked");
    return;
  }
  const verified = v && v.status === "verified";
  out.textContent = verified ? t("gin.event.score", { score: signed(v.score) }) : t("gin.event.scoreLater");
  out.dataset.score = verified ? String(v.score) : "";
}

// Hand `n`'s analysis from your view (docs/ANALYSIS.md), with a button for each of the `hands`.
function analyseHand(n, hands) {
  const nav = h("nav", { class: "analysis-hands", "aria-label": t("analysis.hands") },
    ...Array.from({ length: hands }, (_, i) => h("button", {
      type: "button", class: "button small", "aria-pressed": String(i + 1 === n),
      dataset: { hand: String(i + 1) }, onclick: () => analyseHand(i + 1, hands),
    }, `${t("gin.handNo")} ${i + 1}`)));
  showAnalysis($("#end-analysis"), {
    load: () => analysis(attemptId, "view", { hand: n }), before: hands > 1 ? nav : null, say: ownGinMove,
  });
}

// The spoiler-free share text of a verified attempt (the server's: date, score, place, streak).
async function showShare() {
  try {
    const text = await shareOf(attemptId, document.documentElement.lang);
    $("#share-text").value = `${text}\n${window.location.origin}/`;
    $("#end-share").hidden = false;
    copyOnClick($("#share-copy"), $("#share-text"), $("#share-done"));
  } catch (e) {
    // the share text is a nicety: the end screen works without it
  }
}

function renderEnd() {
  const A = state.attempt;
  const box = $("#end");
  box.hidden = A.status !== "finished";
  if (box.hidden) return;
  const view = A.view;
  const totals = view.totals;
  if (A.event) {
    renderEventEnd(A);
    return;
  }
  const winner = view.match_winner ?? (totals[0] >= totals[1] ? 0 : 1);
  $("#end-outcome").textContent = t("tables.winner", { name: nameOf(winner) });
  const score = totals[0] - (view.results.some((r) => r.end === "resign") ? Math.max(totals[1], 100) : totals[1]);
  $("#end-score").textContent = t("gin.daily.score", { you: totals[0], bot: totals[1], score: signed(score), n: view.results.length });
  $("#end-verification").textContent = verdictText(A.verification);
  $("#end-rankings").href = `/rankings?game=gin&tab=around&around=${encodeURIComponent(A.id)}`;
  waitVerdict();
}

// The end of an event deal: its one hand's winner (none at the wall), the hand's points, the
// verified score, and the link back to the event page (no rankings of a day, no share text).
function renderEventEnd(A) {
  const view = A.view;
  $("#end-outcome").textContent = view.match_winner === null ? t("gin.event.noWinner")
    : t("tables.winner", { name: nameOf(view.match_winner) });
  $("#end-score").textContent = t("gin.event.hand", { you: view.totals[0], bot: view.totals[1] });
  $("#end-verification").textContent = verdictText(A.verification);
  $("#end-rankings").hidden = true;
  showEventScore(A.verification);
  showEventEnd(A);
  waitVerdict();
}

function render() {
  const A = state.attempt;
  $("#table-date").textContent = A.event ? eventDealTitle(A) : `· ${formatDate(A.date)}`;
  if (A.event) $("#table-kind").textContent = `${t("tables.game.gin")} ·`;
  $("#player-name").textContent = A.name;
  $("#practice-flag").hidden = A.ranked !== false;
  if (A.event) $("#practice-flag").textContent = t("play.unranked"); // no account, not practice
  board.render(A.view);
  $("#resign").hidden = A.status !== "playing";
  document.body.dataset.seq = String(A.seq);
  renderEnd();
}

async function send(move) {
  try {
    const result = await sendMove(attemptId, move, state.attempt.seq);
    board.noteEvents(result.events);
    await board.playOut(result.events); // the bot's moves one by one, then the new view
    state.attempt = result.attempt;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    board.say(explain(e), "error");
    if (e.code === "stale") state.attempt = await fetchAttempt(attemptId);
  }
  render();
}

async function main() {
  wirePace($("#speed"));
  try {
    state.attempt = await fetchAttempt(attemptId);
  } catch (e) {
    $("#load-error").hidden = false;
    $("#load-error").append(h("p", { text: explain(e) }));
    $("#table").hidden = true;
    return;
  }
  $("#resign").addEventListener("click", () => {
    $("#table-confirm").hidden = false;
    $("#table-confirm-ok").focus();
  });
  $("#table-confirm-cancel").addEventListener("click", () => { $("#table-confirm").hidden = true; });
  $("#table-confirm-ok").addEventListener("click", () => {
    $("#table-confirm").hidden = true;
    send("resign");
  });
  render();
  document.body.dataset.ready = "1";
}

main();
