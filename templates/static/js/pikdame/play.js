// The table page: load the attempt, draw it, take the player's actions (mouse, touch, keys),
// send each confirmed move, play the bots' answers one by one, and finish with the end screen.

import { ApiError, attempt as fetchAttempt, day as fetchDay, sendMove } from "../lib/api.js";
import { $, h } from "../lib/dom.js";
import { eventDealTitle } from "../lib/eventdeal.js";
import { explain } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { load, save } from "../lib/store.js";
import { closePanel } from "./actions.js";
import { createBoard } from "./board.js";
import { showEnd } from "./end.js";
import { explainMove } from "./explain.js";
import { closeHint, showHint } from "./hint.js";
import { describe } from "./moves.js";
import { play, restoreLog } from "./playback.js";

const attemptId = document.body.dataset.attempt;
const ctx = { seats: null, name: null, attemptId, closed: null };
const game = { attempt: null };
const board = createBoard(ctx, { send: (move) => send(move), hint: () => hint() });
const { hand, say } = board;

function render() {
  board.render(game.attempt.view);
  // Unranked: practice of a closed day, or today's game without an account ("ohne Wertung").
  const flag = $("#practice-flag");
  flag.hidden = game.attempt.ranked !== false;
  flag.textContent = t(ctx.closed === false ? "play.unranked" : "play.practice");
}

// Another tab moved on: the current table and the move list every tab of this browser keeps.
async function resync() {
  game.attempt = await fetchAttempt(attemptId);
  restoreLog(ctx);
}

async function send(move) {
  if (board.busy) return;
  board.busy = true;
  document.body.dataset.busy = "1";
  const chosen = hand.selectedCards();
  let failed = false;
  closePanel();
  board.panel = null;
  render();
  const before = game.attempt.view;
  try {
    const result = await sendMove(attemptId, move, game.attempt.seq);
    closeHint(hand);
    collapseGuide();
    board.renderMine(result.attempt.view); // the own move shows at once; the bots' follow one by one
    await play(result.events, before, ctx);
    game.attempt = result.attempt;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    failed = true;
    if (e.code === "stale") await resync();
    say(`${explainMove(e, move, before)}${e.status === 422 ? ` (${t("message.tried")} ${describe(move)})` : ""}`,
      "error");
  } finally {
    board.busy = false;
  }
  render();
  if (failed) hand.selectCodes(chosen); // keep the choice, so it can be corrected
  delete document.body.dataset.busy;
  if (game.attempt.status === "finished") await showEnd(game.attempt, ctx);
  else if (game.attempt.view.turn === 0) hand.focusItem();
}

async function hint() {
  if (!game.attempt || board.busy) return;
  const view = game.attempt.view;
  if (view.outcome || view.turn !== 0 || view.phase !== "play") {
    say(t("need.hintPlay"));
    return;
  }
  await showHint(attemptId, hand);
}

// The short guide is open on a player's first table until they have played a move; after that
// it stays collapsed (it can always be opened again).
function guide() {
  const box = $("#guide");
  box.open = !load("guideSeen", false) && game.attempt.seq === 0;
}

function collapseGuide() {
  $("#guide").open = false;
  save("guideSeen", true);
}

async function start() {
  $("#resign").addEventListener("click", () => board.action("resign"));
  $("#speed").value = load("speed", "normal");
  $("#speed").addEventListener("change", (e) => save("speed", e.target.value));
  try {
    game.attempt = await fetchAttempt(attemptId);
    if (game.attempt.game && game.attempt.game !== "pikdame") { // another daily game's: its page
      window.location.replace(`/${game.attempt.game}/play/${encodeURIComponent(attemptId)}`);
      return;
    }
  } catch (e) {
    $("#table").hidden = true;
    $("#load-error").hidden = false;
    $("#load-error").append(h("p", { text: explain(e) }));
    return;
  }
  ctx.name = game.attempt.name;
  try {
    const day = await fetchDay(game.attempt.date);
    ctx.seats = day.seats;
    ctx.closed = day.seed !== null; // an unranked game of a closed day is practice
  } catch (e) {
    ctx.seats = null;
  }
  // A deal of the week's tournament (docs/EVENTS.md) is a daily attempt with its `event`.
  if (game.attempt.event) ctx.closed = false; // unranked there means "no account", not practice
  $("#table-date").textContent = game.attempt.event ? eventDealTitle(game.attempt)
    : game.attempt.date;
  $("#player-name").textContent = game.attempt.name;
  guide();
  render();
  restoreLog(ctx);
  document.body.dataset.ready = "1";
  if (game.attempt.status === "finished") await showEnd(game.attempt, ctx);
  else hand.focusItem();
}

start();
