// The table page: load the attempt, draw it, take the player's actions (mouse, touch, keys),
// send each confirmed move, play the bots' answers one by one, and finish with the end screen.

import { ApiError, get, post } from "../lib/api.js";
import { $, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { describe } from "../lib/moves.js";
import { meldPoints } from "../lib/cards.js";
import { jokerCards, reading } from "../lib/notation.js";
import { load, save } from "../lib/store.js";
import { closePanel, openPanel, precheck, prepare } from "./actions.js";
import { showEnd } from "./end.js";
import { Hand } from "./hand.js";
import { showHint } from "./hint.js";
import { bindKeys } from "./keys.js";
import { play, restoreLog } from "./playback.js";
import { renderOpponents, renderOwnMelds, renderPiles, renderStatus } from "./table.js";

const attemptId = document.body.dataset.attempt;
const ctx = { seats: null, name: null, attemptId };
const game = { attempt: null, busy: false, panel: null, sort: load("sort", "suit") };

const hand = new Hand($("#hand"), () => selectionChanged());

function say(text, kind = "info") {
  const box = $("#message");
  box.textContent = text;
  box.dataset.kind = kind;
}

function selectionChanged() {
  const chosen = hand.selectedCards();
  let text = chosen.length ? t("selection.count", { n: chosen.length }) : t("selection.none");
  if (chosen.length >= 2 && chosen.some((c) => c !== "X")) {
    const kind = reading(chosen);
    const points = meldPoints(chosen);
    text += " " + t(kind === "mixed" ? "selection.mixed" : `selection.${kind}`, { points });
  }
  $("#selection").textContent = text;
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

function render() {
  const view = game.attempt.view;
  renderOpponents(view, ctx);
  renderPiles(view, ctx);
  renderOwnMelds(view, (n) => pickMeld(n));
  renderStatus(view, ctx);
  $("#hand-title").textContent = t("hand.title", {
    n: view.hand.length, points: meldPoints(view.hand),
  });
  $("#own-title").textContent = t("table.ownMeldsPoints", {
    points: view.melds[0].reduce((sum, m) => sum + meldPoints(m.cards), 0),
  });
  hand.show(view.hand, game.sort);
  selectionChanged();
  const mine = !view.outcome && view.turn === 0;
  for (const button of document.querySelectorAll("#actions button[data-action]")) {
    button.disabled = !mine || game.busy;
  }
  $("#hint-btn").disabled = !mine || game.busy || view.phase !== "play";
  $("#practice-flag").hidden = game.attempt.ranked !== false;
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
    const result = await post(`/api/attempts/${encodeURIComponent(attemptId)}/moves`,
      { move, seq: game.attempt.seq });
    hand.setHinted([]);
    $("#hint").hidden = true;
    await play(result.events, before, ctx);
    game.attempt = result.attempt;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    failed = true;
    if (e.code === "stale") {
      game.attempt = (await get(`/api/attempts/${encodeURIComponent(attemptId)}`)).attempt;
    }
    say(`${e.explain()}${e.status === 422 ? ` (${t("message.tried")} ${describe(move)})` : ""}`,
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

// The short guide is open on a player's first table, closed once they have seen it.
function guide() {
  const box = $("#guide");
  box.open = !load("guideSeen", false);
  box.addEventListener("toggle", () => save("guideSeen", true));
  if (box.open) save("guideSeen", true);
}

async function start() {
  guide();
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
    action, hint, togglePile, toggleSort,
    escape: () => (game.panel ? cancel() : hand.clearSelection()),
    panel: () => game.panel,
    focusHand: () => hand.focusItem(),
  });
  try {
    game.attempt = (await get(`/api/attempts/${encodeURIComponent(attemptId)}`)).attempt;
  } catch (e) {
    $("#table").hidden = true;
    $("#load-error").hidden = false;
    $("#load-error").append(h("p", { text: e instanceof ApiError ? e.explain() : String(e) }));
    return;
  }
  ctx.name = game.attempt.name;
  try {
    const day = await get(`/api/daily/${game.attempt.date}`);
    ctx.seats = day.seats;
  } catch (e) {
    ctx.seats = null;
  }
  $("#table-date").textContent = game.attempt.date;
  $("#player-name").textContent = game.attempt.name;
  render();
  restoreLog(ctx);
  document.body.dataset.ready = "1";
  if (game.attempt.status === "finished") await showEnd(game.attempt, ctx);
  else hand.focusItem();
}

start();
