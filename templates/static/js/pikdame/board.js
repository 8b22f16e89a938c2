// The player's side of a Pik Dame table, shared by the daily page (play.js) and the tables page
// (tablepage.js): the own hand, the own melds, the action buttons with their confirm panel,
// the keys, sorting and the discard pile's toggle. The page says how a move is sent; the board
// draws a view (API.md's V, whose `seat` is the player's) and gathers the move.

import { keepFocus } from "../lib/focus.js";
import { meldPoints } from "../lib/cards.js";
import { $ } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { load, save } from "../lib/store.js";
import { closePanel, openPanel, precheck, prepare } from "./actions.js";
import { describeSelection } from "./explain.js";
import { Hand } from "./hand.js";
import { closeHint, hintOpen } from "./hint.js";
import { bindKeys } from "./keys.js";
import { seatName } from "./moves.js";
import { jokerCards } from "./notation.js";
import { renderOpponents, renderOwnMelds, renderPiles, renderStatus } from "./view.js";

// The player's seat in a view (the daily's views say 0).
export const mySeat = (view) => view.seat ?? 0;
export const myTurn = (view) => Boolean(view) && !view.outcome && view.turn === mySeat(view);

const actionButtons = () => document.querySelectorAll("#actions button[data-action]");

// ctx: {seats, name, ...} for the seat names; handlers: {send(move), hint?()}.
export function createBoard(ctx, handlers) {
  const board = { view: null, busy: false, panel: null, sort: load("sort", "suit") };
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
    const view = board.view;
    let next = null;
    if (myTurn(view)) {
      if (view.phase === "draw") next = chosen.length >= 2 && view.can_take ? "take" : "draw";
      else if (chosen.length >= 3) next = "meld";
      else if (chosen.length === 1) next = "discard";
    }
    for (const button of actionButtons()) button.classList.toggle("suggested", button.dataset.action === next);
  }

  // The own hand and melds (they change only by the player's own moves).
  function renderMine(view) {
    const own = view.melds[mySeat(view)];
    renderOwnMelds(view, (n) => pickMeld(n));
    $("#hand-title").textContent = t("hand.title", { n: view.hand.length, points: meldPoints(view.hand) });
    $("#own-title").textContent = t("table.ownMeldsPoints", {
      points: own.reduce((sum, m) => sum + meldPoints(m.cards), 0),
    });
    hand.show(view.hand, board.sort);
    selectionChanged();
  }

  function render(view) {
    board.view = view;
    renderOpponents(view, ctx);
    renderPiles(view);
    renderStatus(view, ctx);
    renderMine(view);
    enable();
    keepFocus(() => hand.focusItem());
  }

  // The actions are live on the player's turn while no move is under way.
  function enable() {
    const view = board.view;
    const mine = myTurn(view);
    for (const button of actionButtons()) button.disabled = !mine || board.busy;
    const hintButton = $("#hint-btn");
    if (hintButton) hintButton.disabled = !mine || board.busy || view.phase !== "play";
  }

  // Clicking an own meld with one card selected prepares "Anlegen" (or "Joker tauschen").
  function pickMeld(n) {
    const chosen = hand.selectedCards();
    if (chosen.length !== 1) {
      say(t("need.pickCardFirst"));
      return;
    }
    const meld = board.view.melds[mySeat(board.view)][n - 1];
    action(jokerCards(meld).includes(chosen[0]) ? "swap" : "lay", { meld: n });
  }

  // Open a confirm panel of one's own (the tables' resign, the cut); confirm(move) on OK.
  function open(panel, confirm = handlers.send) {
    board.panel = panel;
    openPanel(panel, (move) => { cancel(false); confirm(move); }, () => cancel());
  }

  function action(name, preset = {}) {
    if (board.busy || !board.view) return;
    const view = board.view;
    const chosen = hand.selectedCards();
    const problem = precheck(name, view, chosen);
    if (problem) {
      say(problem, "error");
      return;
    }
    say("");
    open(prepare(name, view, chosen, preset, (seat) => seatName(seat, ctx.seats)));
  }

  function cancel(refocus = true) {
    board.panel = null;
    closePanel();
    if (refocus) hand.focusItem();
  }

  function togglePile() {
    const button = $("#pile-toggle");
    const pile = $("#pile");
    pile.hidden = !pile.hidden;
    button.setAttribute("aria-expanded", String(!pile.hidden));
  }

  function toggleSort() {
    board.sort = board.sort === "suit" ? "rank" : "suit";
    save("sort", board.sort);
    sortLabel();
    hand.resort(board.sort);
  }

  // Escape closes what is open, the innermost first: the confirm panel, the hint, the selection.
  function escape() {
    if (board.panel) cancel();
    else if (hintOpen()) {
      closeHint(hand);
      hand.focusItem();
    } else hand.clearSelection();
  }

  // The button names the other order; a phone shows its short label (tables.css), the words
  // stay its accessible name.
  function sortLabel() {
    const key = board.sort === "suit" ? "hand.sortRank" : "hand.sortSuit";
    $("#sort").textContent = t(key);
    $("#sort").dataset.short = t(`${key}Short`);
  }

  sortLabel();
  $("#sort").addEventListener("click", toggleSort);
  $("#pile-toggle").addEventListener("click", togglePile);
  if (handlers.hint && $("#hint-btn")) $("#hint-btn").addEventListener("click", handlers.hint);
  for (const button of actionButtons()) button.addEventListener("click", () => action(button.dataset.action));
  bindKeys({
    action, togglePile, toggleSort, escape,
    hint: handlers.hint || (() => {}),
    panel: () => board.panel,
    focusHand: () => hand.focusItem(),
  });

  return Object.assign(board, { hand, say, render, renderMine, enable, action, open, cancel });
}
