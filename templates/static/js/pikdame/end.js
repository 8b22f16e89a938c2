// The end screen: every seat's round score, the own result, the verification status as it moves
// from queued to verified (or rejected, with the reason), the rank, and a spoiler-free share text.

import { showAnalysis } from "../lib/analysis.js";
import { ApiError, analysis, attempt as fetchAttempt, gameLog, shareOf, verification } from "../lib/api.js";
import { $, clear, h, sleep } from "../lib/dom.js";
import { showEventEnd } from "../lib/eventdeal.js";
import { explain, explainReason } from "../lib/explain.js";
import { formatDate, signed, t } from "../lib/i18n.js";
import { copyOnClick } from "../lib/share.js";
import { describe, lays, parseMove, seatName, startsTurn } from "./moves.js";

// The verdict is waited for with a long poll (the service answers as soon as it exists); where the
// service has no long poll (404), the attempt is polled with a growing pause instead.
const WAIT_S = 25;
const WAIT_LIMIT = 40; // long polls: over 15 minutes
const BACKOFF_MS = [1000, 2000, 3000, 5000, 8000, 13000];
const POLL_LIMIT = 120;

function outcomeText(outcome, ctx) {
  if (outcome.end === "out") {
    const who = outcome.winner === 0 ? t("seat.you") : seatName(outcome.winner, ctx.seats);
    return t(outcome.winner === 0 ? "end.youOut" : "end.out", { name: who });
  }
  return t(outcome.end === "stock" ? "end.stock" : "end.resign");
}

function scoreTable(outcome, ctx) {
  const rows = outcome.round_scores.map((score, seat) => h("tr", { class: seat === 0 ? "mine" : "" },
    h("th", { scope: "row", text: seat === 0 ? `${ctx.name || t("seat.you")} (${t("seat.you")})`
      : seatName(seat, ctx.seats) }),
    h("td", { class: "num", text: signed(score) }),
    h("td", { text: outcome.winner === seat ? t("end.winner") : "" })));
  return h("table", { class: "scores" },
    h("caption", { text: t("end.scores") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("end.seat") }), h("th", { scope: "col", text: t("end.points") }),
      h("th", { scope: "col", text: "" }))),
    h("tbody", {}, rows));
}

// One square per own turn: 🟩 when the turn laid cards, ⬜ when it only drew and discarded.
export function turnPattern(moves) {
  const squares = [];
  for (const { seat, move } of moves) {
    if (seat !== 0) continue;
    if (startsTurn(move)) squares.push(parseMove(move).kind === "take" ? "🟩" : "⬜");
    else if (lays(move) && squares.length) squares[squares.length - 1] = "🟩";
  }
  const rows = [];
  for (let i = 0; i < squares.length; i += 10) rows.push(squares.slice(i, i + 10).join(""));
  return rows.join("\n");
}

// The share text tells the result and the rhythm of the turns, never a card.
export function shareText(attempt, turns, pattern = "") {
  const outcome = attempt.view.outcome;
  const score = outcome.round_scores[0];
  const v = attempt.verification;
  const lines = [t("share.title", { date: attempt.date })];
  const mark = score > 0 ? "🟩" : score < 0 ? "🟥" : "⬜";
  lines.push(`${mark} ${t("share.score", { score: signed(score) })} · ${t("share.turns", { n: turns })}`);
  if (outcome.end === "out" && outcome.winner === 0) lines.push(t("share.out"));
  if (pattern) lines.push(pattern);
  if (v && v.status === "verified" && v.rank) lines.push(t("share.rank", { rank: v.rank }));
  lines.push(window.location.origin + "/");
  return lines.join("\n");
}

function verificationText(v, practice) {
  if (practice) return t("verify.practice");
  if (!v) return t("verify.pending");
  if (v.status === "queued") return t("verify.queued");
  if (v.status === "verified") return t("verify.verified");
  return t("verify.rejected", { reason: explainReason(v.reason) });
}

function ownTurns(events) {
  return events.filter((e) => e.seat === 0 && startsTurn(e.move)).length;
}

const decided = (v) => Boolean(v) && (v.status === "verified" || v.status === "rejected");

// Wait for the verdict, calling show(verification) on every news; long poll first.
async function awaitVerdict(id, current, show, failed) {
  let v = current;
  for (let i = 0; !decided(v) && i < WAIT_LIMIT; i += 1) {
    try {
      v = await verification(id, WAIT_S);
      show(v);
      // a busy server answered at once, asking to wait: ask again after that, not at once
      if (!decided(v) && v.retryAfterS > 0) await sleep(v.retryAfterS * 1000);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && e.code !== "unknown_attempt") break;
      failed(e);
      await sleep(BACKOFF_MS[Math.min(i, BACKOFF_MS.length - 1)]);
    }
  }
  for (let i = 0; !decided(v) && i < POLL_LIMIT; i += 1) {
    await sleep(BACKOFF_MS[Math.min(i, BACKOFF_MS.length - 1)]);
    try {
      v = (await fetchAttempt(id)).verification;
      show(v);
    } catch (e) {
      failed(e);
    }
  }
}

export async function showEnd(attempt, ctx) {
  const root = $("#end");
  root.hidden = false;
  const outcome = attempt.view.outcome;
  const practice = attempt.ranked === false;
  let turns = null;
  let pattern = "";
  try {
    const log = await gameLog(attempt.id);
    turns = ownTurns(log.moves || []);
    pattern = turnPattern(log.moves || []);
  } catch (e) {
    turns = null;
  }
  const score = outcome.round_scores[0];
  clear($("#end-summary")).append(h("div", {},
    h("p", { class: "end-date", text: formatDate(attempt.date) }),
    h("p", { class: "end-outcome", text: outcomeText(outcome, ctx) }),
    outcome.doubled ? h("p", { class: "doubled", text: t("end.doubled") }) : null,
    h("p", { class: "own-result" },
      h("span", { text: t("end.yourScore") }), " ",
      h("strong", { id: "own-score", text: signed(score) })),
    turns === null ? null : h("p", { text: t("end.turns", { n: turns }) }),
    scoreTable(outcome, ctx)));
  const status = $("#verify-status");
  const rank = $("#end-rank");
  const share = $("#share-text");
  // a practice game has no result of the day to share, a tournament's deal is the week's (its
  // result against the field is on the tournament's page)
  $("#end-share").hidden = practice;
  if (attempt.event) showEventEnd(attempt);
  const render = (a) => {
    const v = a.verification;
    status.textContent = verificationText(v, practice);
    status.dataset.state = practice ? "practice" : v ? v.status : "pending";
    clear(rank);
    if (v && v.status === "verified" && v.rank) {
      rank.append(h("strong", { id: "rank-value", text: t("end.rank", { rank: v.rank }) }), " ",
        h("a", {
          href: `/rankings?date=${a.date}&around=${encodeURIComponent(a.id)}`, text: t("end.toRankings"),
        }), " ", h("a", { id: "field-link", href: `/field/${encodeURIComponent(a.id)}`,
          text: t("field.link") }));
    }
    share.value = practice ? "" : shareText(a, turns ?? 0, pattern);
    if (v && v.status === "verified" && !attempt.event) {
      // The server's text adds the place, the matchpoints and the streak (no card either).
      shareOf(a.id, document.documentElement.lang).then((text) => {
        const counted = t("share.turns", { n: turns ?? 0 }); // R11's tie-break, plural-aware
        share.value = `${text} · ${counted}\n${pattern ? `${pattern}\n` : ""}${window.location.origin}/`;
      }).catch(() => {});
    }
  };
  render(attempt);
  copyOnClick($("#share-copy"), share, $("#share-done"));
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  root.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
  if (practice) return;
  let latest = attempt.verification;
  await awaitVerdict(attempt.id, attempt.verification, (v) => {
    latest = v;
    render({ ...attempt, verification: v });
  }, (e) => { status.textContent = explain(e); });
  // Once verified, the analysis of the player's own view (docs/ANALYSIS.md), computed by a worker.
  if (latest && latest.status === "verified") {
    await showAnalysis($("#end-analysis"), {
      load: () => analysis(attempt.id), say: (move) => describe(move),
    });
  }
}
