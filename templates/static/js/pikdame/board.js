// The player's side of a Pik Dame table, shared by the daily page (play.js) and the tables page
// (tablepage.js): the own hand, the own melds, the action buttons with their confirm panel,
// the keys, sorting and the discard pile's toggle. The page says how a move is sent; the board
// draws a view (API.md's V, whose `seat` is the player's) and gathers the move.

import { keepFocus } from "../lib/focus.js";
import { face, meldPoints } from "../lib/cards.js";
import { $, $$ } from "../lib/dom.js";
import { clearNote, draggable, noteAt, tappable } from "../lib/drag.js";
import { t } from "../lib/i18n.js";
import { load, save } from "../lib/store.js";
import { closePanel, openPanel, precheck, prepare } from "./actions.js";
import { decideDiscard, decideLay, decideMeld, decidePile, decideStock } from "./direct.js";
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

// Whether an element is drawn at all (not hidden, not inside a closed <details>).
const inSight = (el) => (el.checkVisibility ? el.checkVisibility() : true) && el.getBoundingClientRect().height > 0;

// Where a dragged card may land (direct.js says what it means), innermost first: a meld (the
// own, another seat's, or one of Tausende's panel, "S.N"), the discard pile, the own melds' area.
function dropZones(view) {
  const me = mySeat(view);
  const meld = (element, seat, n) => ({ element, kind: "lay", seat, n });
  return [
    ...$$("#own-melds .meld[data-meld]").map((el) => meld(el, me, Number(el.dataset.meld))),
    ...$$("#opponents .seat .meld[data-meld]").map((el) => meld(el,
      Number(el.closest(".seat").id.replace("seat-", "")), Number(el.dataset.meld))),
    ...$$(".meld[data-meld-owner][data-address]").map((el) => meld(el,
      Number(el.dataset.meldOwner), Number(el.dataset.address.split(".")[1]))),
    { element: $("#discard-top").closest(".pile-box"), kind: "discard" },
    { element: inSight($("#own-area")) ? $("#own-area") : $("#meld-drop"), kind: "meld" },
  ];
}

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

  // A gesture's decision (direct.js): a move is sent at once, a choice the gesture cannot make
  // opens the action's confirm panel with the cards selected, a refusal is said where the
  // gesture ended (at: its point) and in the message line; nothing is sent then.
  function direct(decision, cards, at = null) {
    if (board.busy || !board.view) return;
    if (decision.reason) {
      say(decision.reason, "error");
      if (at) noteAt(decision.reason, at);
      return;
    }
    clearNote();
    if (board.panel) cancel(false);
    if (decision.panel) {
      hand.selectCodes(cards);
      action(decision.panel, decision.preset);
      return;
    }
    say("");
    handlers.send(decision.move);
  }

  // The dragged cards: the whole selection when the card pressed is in it, else that card.
  function grab(item) {
    if (!board.view || board.view.outcome || board.busy) return null;
    const index = Number(item.dataset.index);
    const cards = hand.selected.has(index) ? hand.selectedCards() : [item.dataset.card];
    return { cards, ghost: cards.map((code) => face(code)) };
  }

  function dropped({ cards }, zone, at) {
    const view = board.view;
    const decide = {
      discard: () => decideDiscard(view, cards),
      meld: () => decideMeld(view, cards),
      lay: () => decideLay(view, cards, zone.seat, zone.n),
    }[zone.kind];
    direct(decide(), cards, at);
  }

  const pointAt = (e) => ({ x: e.clientX, y: e.clientY });

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
  // the own melds' area out of sight: the bar stands in for it while a card is carried
  const meldBar = (show) => { $("#meld-drop").hidden = !show || inSight($("#own-area")); };
  draggable($("#hand"), {
    items: ".hand-card", grab, zones: () => dropZones(board.view), drop: dropped,
    start: () => meldBar(true), end: () => meldBar(false),
  });
  tappable($("#stock"), (e) => {
    if (board.view) direct(decideStock(board.view), [], pointAt(e));
  });
  tappable($("#discard-top"), (e) => {
    if (board.view) direct(decidePile(board.view, hand.selectedCards()), hand.selectedCards(), pointAt(e));
  });
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
