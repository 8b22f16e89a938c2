// The table page: load the attempt, draw it, take the player's actions (mouse, touch, keys),
// send each confirmed move, play the bots' answers one by one, and finish with the end screen.

import { ApiError, attempt as fetchAttempt, day as fetchDay, sendMove } from "../lib/api.js";
import { meldPoints } from "../lib/cards.js";
import { $, h } from "../lib/dom.js";
import { describeSelection, explain, explainMove } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { describe } from "../lib/moves.js";
import { jokerCards } from "../lib/notation.js";
import { load, save } from "../lib/store.js";
import { closePanel, openPanel, precheck, prepare } from "./actions.js";
import { showEnd } from "./end.js";
import { Hand } from "./hand.js";
import { closeHint, hintOpen, showHint } from "./hint.js";
import { bindKeys } from "./keys.js";
import { play, restoreLog } from "./playback.js";
import { renderOpponents, renderOwnMelds, renderPiles, renderStatus } from "./table.js";

const attemptId = document.body.dataset.attempt;
const ctx = { seats: null, name: null, attemptId, closed: null };
const game = { attempt: null, busy: false, panel: null, sort: load("sort", "suit") };

const hand = new Hand($("#hand"), () => selectionChanged());

function say(text, kind = "info") {
  const box = $("#message");
  box.textContent = text;
  box.dataset.kind = kind;
}

function selectionChanged() {
  const chosen = hand.selectedCards();
  $("#selection").textContent = describeSelection(chosen);
  suggest(chosen);
}

// Light the action that fits the phase and the selection (a newcomer's next step).
function suggest(chosen) {
  const view = game.attempt && game.attempt.view;
  let next = null;
  if (view && !view.outcome && view.turn === 0) {
    if (view.phase === "draw") next = chosen.length >= 2 && view.can_take ? "take" : "draw";
    else if (chosen.length >= 3) next = "meld";
    else if (chosen.length === 1) next = "discard";
  }
  for (const button of document.querySelectorAll("#actions button[data-action]")) {
    button.classList.toggle("suggested", button.dataset.action === next);
  }
}

// The own hand and melds (they change only by the player's own moves).
function renderMine(view) {
  renderOwnMelds(view, (n) => pickMeld(n));
  $("#hand-title").textContent = t("hand.title", { n: view.hand.length, points: meldPoints(view.hand) });
  $("#own-title").textContent = t("table.ownMeldsPoints", {
    points: view.melds[0].reduce((sum, m) => sum + meldPoints(m.cards), 0),
  });
  hand.show(view.hand, game.sort);
  selectionChanged();
}

function render() {
  const view = game.attempt.view;
  renderOpponents(view, ctx);
  renderPiles(view);
  renderStatus(view, ctx);
  renderMine(view);
  const mine = !view.outcome && view.turn === 0;
  for (const button of document.querySelectorAll("#actions button[data-action]")) {
    button.disabled = !mine || game.busy;
  }
  $("#hint-btn").disabled = !mine || game.busy || view.phase !== "play";
  // Unranked: practice of a closed day, or today's game without an account ("ohne Wertung").
  const flag = $("#practice-flag");
  flag.hidden = game.attempt.ranked !== false;
  flag.textContent = t(ctx.closed === false ? "play.unranked" : "play.practice");
}

// Clicking an own meld with one card selected prepares "Anlegen" (or "Joker tauschen").
function pickMeld(n) {
  const chosen = hand.selectedCards();
  if (chosen.length !== 1) {
    say(t("need.pickCardFirst"));
    return;
  }
  const meld = game.attempt.view.melds[0][n - 1];
  action(jokerCards(meld).includes(chosen[0]) ? "swap" : "lay", { meld: n });
}

export function action(name, preset = {}) {
  if (game.busy || !game.attempt) return;
  const view = game.attempt.view;
  const chosen = hand.selectedCards();
  const problem = precheck(name, view, chosen);
  if (problem) {
    say(problem, "error");
    return;
  }
  say("");
  game.panel = prepare(name, view, chosen, preset);
  openPanel(game.panel, (move) => send(move), () => cancel());
}

function cancel() {
  game.panel = null;
  closePanel();
  hand.focusItem();
}

// Another tab moved on: the current table and the move list every tab of this browser keeps.
async function resync() {
  game.attempt = await fetchAttempt(attemptId);
  restoreLog(ctx);
}

async function send(move) {
  if (game.busy) return;
  game.busy = true;
  document.body.dataset.busy = "1";
  const chosen = hand.selectedCards();
  let failed = false;
  closePanel();
  game.panel = null;
  render();
  const before = game.attempt.view;
  try {
    const result = await sendMove(attemptId, move, game.attempt.seq);
    closeHint(hand);
    collapseGuide();
    renderMine(result.attempt.view); // the own move shows at once; the bots' follow one by one
    await play(result.events, before, ctx);
    game.attempt = result.attempt;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    failed = true;
    if (e.code === "stale") await resync();
    say(`${explainMove(e, move, before)}${e.status === 422 ? ` (${t("message.tried")} ${describe(move)})` : ""}`,
      "error");
  } finally {
    game.busy = false;
  }
  render();
  if (failed) hand.selectCodes(chosen); // keep the choice, so it can be corrected
  delete document.body.dataset.busy;
  if (game.attempt.status === "finished") await showEnd(game.attempt, ctx);
  else if (game.attempt.view.turn === 0) hand.focusItem();
}

async function hint() {
  if (!game.attempt || game.busy) return;
  const view = game.attempt.view;
  if (view.outcome || view.turn !== 0 || view.phase !== "play") {
    say(t("need.hintPlay"));
    return;
  }
  await showHint(attemptId, hand);
}

function togglePile() {
  const button = $("#pile-toggle");
  const pile = $("#pile");
  pile.hidden = !pile.hidden;
  button.setAttribute("aria-expanded", String(!pile.hidden));
}

function toggleSort() {
  game.sort = game.sort === "suit" ? "rank" : "suit";
  save("sort", game.sort);
  $("#sort").textContent = t(game.sort === "suit" ? "hand.sortRank" : "hand.sortSuit");
  hand.resort(game.sort);
}

// Escape closes what is open, the innermost first: the confirm panel, the hint, the selection.
function escape() {
  if (game.panel) cancel();
  else if (hintOpen()) {
    closeHint(hand);
    hand.focusItem();
  } else hand.clearSelection();
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
  $("#sort").textContent = t(game.sort === "suit" ? "hand.sortRank" : "hand.sortSuit");
  $("#sort").addEventListener("click", toggleSort);
  $("#hint-btn").addEventListener("click", hint);
  $("#pile-toggle").addEventListener("click", togglePile);
  $("#resign").addEventListener("click", () => action("resign"));
  $("#speed").value = load("speed", "normal");
  $("#speed").addEventListener("change", (e) => save("speed", e.target.value));
  for (const button of document.querySelectorAll("#actions button[data-action]")) {
    button.addEventListener("click", () => action(button.dataset.action));
  }
  bindKeys({
    action, hint, togglePile, toggleSort, escape,
    panel: () => game.panel,
    focusHand: () => hand.focusItem(),
  });
  try {
    game.attempt = await fetchAttempt(attemptId);
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
  $("#table-date").textContent = game.attempt.date;
  $("#player-name").textContent = game.attempt.name;
  guide();
  render();
  restoreLog(ctx);
  document.body.dataset.ready = "1";
  if (game.attempt.status === "finished") await showEnd(game.attempt, ctx);
  else hand.focusItem();
}

start();
