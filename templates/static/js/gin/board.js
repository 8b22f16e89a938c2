// The Gin Rommé board (GIN.md), shared by the table page and the daily Gin page: the other
// seat, the stock and the pile, the own hand with its exact minimum deadwood (from the view,
// G9), the hand's moves, each hand's result with the running totals, and the actions as the
// seed page plays them: selecting a card only prepares; discarding and knocking/gin are
// confirmed separately (the knock dialog shows the declared groups and their deadwood); the
// defender's lay-offs come pre-selected with the best defence (the view's `suggestion`) and can
// be changed. Nothing is undone once sent: a sent move has shown information.
//
// Its parts, along the seams of Pik Dame's board: layout.js (the skeleton), view.js (the other
// seat, the piles, the move list, the status line), hand.js (the hand and the selection),
// actions.js (discard, the knock dialog, sending), defend.js (G6's defence), results.js (the
// hands' results), keys.js (the keys), direct.js (the gestures: tap the stock or the pile, drag
// a card onto the pile or onto "Klopfen …"), playback.js (the moves that come with a new view
// played out one by one, their cards in flight). Each gets the board's parts: {root, ui, el,
// buttons, send, nameOf, seatExtras, v(), me(), other(), myTurn(), say()} and what the others
// add to it.
//
// createGinBoard(root, {send(move): Promise, nameOf(seat), seatExtras(seat)?}) -> {render(view),
// say(text, kind), noteEvents(events), playOut(events): Promise, get busy, get selected}; the
// page's seatExtras adds to the other seat's heading (a table's presence). Every card on it
// comes from the seat's view: never a hidden one.

import { announce, announceTurn, turnPassed } from "../lib/announce.js";
import { $ } from "../lib/dom.js";
import { keepFocus } from "../lib/focus.js";
import { createGinActions } from "./actions.js";
import { createGinDefence } from "./defend.js";
import { bindGinGestures } from "./direct.js";
import { createGinHand } from "./hand.js";
import { createGinPlayback } from "./playback.js";
import { bindGinKeys } from "./keys.js";
import { createLayout } from "./layout.js";
import { createGinResults } from "./results.js";
import { describeGinMove } from "./cards.js";
import { renderLog, renderOther, renderPiles, statusText } from "./view.js";

export function createGinBoard(root, { send, nameOf, seatExtras = null }) {
  const ui = {
    view: null, selected: null, focus: 0, busy: false, layoffs: null, defendKey: null, seenResults: null,
    declared: [], // the running hand's knock, seen in events
    ended: [], // the knock and defence of the hand that ended: its result shows what was laid down
    dialog: null,
  };
  const v = () => ui.view;
  const board = {
    root, ui, send, nameOf, seatExtras, v,
    me: () => v().seat,
    other: () => 1 - v().seat,
    myTurn: () => Boolean(v()) && v().outcome === null && v().match_winner === null && v().turn === v().seat,
    say: (text, kind = "info") => {
      board.el.message.textContent = text || "";
      board.el.message.dataset.kind = kind;
    },
  };
  Object.assign(board, createLayout(root, board));
  Object.assign(board, createGinHand(board), createGinActions(board), createGinResults(board),
    createGinDefence(board), createGinPlayback(board));
  bindGinKeys(board);
  bindGinGestures(board);
  const { el, buttons, myTurn } = board;

  const liveButtons = () => [buttons.pass, buttons.take, buttons.draw, buttons.discard, buttons.knock];

  function renderControls() {
    renderPiles(board);
    board.renderSelection();
    for (const b of liveButtons()) if (ui.busy) b.disabled = true;
    const ok = $("#gin-defend-ok", el.defend);
    if (ok) ok.disabled = ui.busy;
  }

  function render(view) {
    ui.view = view;
    root.classList.toggle("my-turn", myTurn());
    el.status.textContent = statusText(board);
    announceMoves(view);
    announceTurn(myTurn(), el.status.textContent);
    board.renderResult();
    renderOther(board);
    board.renderHand();
    renderLog(board);
    board.renderDefend();
    board.renderHands();
    renderControls();
    if (ui.dialog && !(myTurn() && view.phase === "discard")) board.closeDialog();
    // a knock to defend against: its confirmation is the thing to do (once the page is idle and
    // the button live); else the focus stays where it is, or goes back to the hand
    const defendOk = el.defend.hidden ? null : $("#gin-defend-ok", el.defend);
    if (defendOk && !ui.busy && ui.focusedDefence !== ui.defendKey) {
      ui.focusedDefence = ui.defendKey;
      defendOk.focus();
    } else keepFocus(() => (defendOk ? defendOk.focus() : board.focusCard()));
  }

  // Each move of the hand said once as it comes (lib/announce.js); those before the page's
  // first drawing were not seen happen and are not said.
  function announceMoves(view) {
    const hand = view.results.length;
    const seen = ui.said;
    ui.said = { hand, n: view.history.length };
    if (seen === undefined) return;
    const from = seen.hand === hand ? seen.n : 0;
    for (const e of view.history.slice(from)) {
      announce(describeGinMove(e.move, nameOf(e.seat), e.seat === board.me()));
      if (e.seat !== board.me()) turnPassed();
    }
  }
  Object.assign(board, { render, renderControls });

  return {
    render,
    say: board.say,
    noteEvents: board.noteEvents,
    playOut: board.playOut,
    get busy() { return ui.busy; },
    get selected() { return ui.selected; },
  };
}
