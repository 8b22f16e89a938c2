// Direct play at the Gin board (issue 41), like pikdame/direct.js for Pik Dame: a tap on the
// stock draws, a tap on the pile takes its top card (the first upcard too, G4); a hand card
// dragged onto the pile is discarded (G5), dragged onto "Klopfen …"/"Gin …" it opens the knock
// dialog, whose confirmation alone sends the knock (the Gin rules page asks for it). A gesture
// goes through the board's one sender (act); one the view shows to be illegal is refused with
// the reason in words where it ended, and nothing is sent.

import { draggable, noteAt, tappable } from "../lib/drag.js";
import { face, short } from "../lib/cards.js";
import { t } from "../lib/i18n.js";

// board: the board's parts (board.js): act, openKnock, select, say, v, myTurn, el, buttons, ui.
export function bindGinGestures(board) {
  const { el, buttons, ui, v, myTurn } = board;

  function refuse(reason, at) {
    board.say(reason, "error");
    if (at) noteAt(reason, at);
  }

  // Why the view refuses the move now (null: it may go).
  function turnReason() {
    if (!v() || v().outcome !== null || v().match_winner !== null) return t("need.over");
    return myTurn() ? null : t("err.not_your_turn");
  }

  function drawn(phase, move, at) {
    if (ui.busy) return;
    const reason = turnReason() || (phase.includes(v().phase) ? null : t("err.wrong_phase"))
      || (move === "take" && !v().can_take ? t("err.take_not_allowed") : null);
    if (reason) refuse(reason, at);
    else board.act(move);
  }

  // The card dropped on the pile (discard) or on the knock button (the dialog opens).
  function dropped({ card }, zone, at) {
    if (ui.busy) return;
    const option = v() && v().discards ? v().discards[card] : null;
    let reason = turnReason() || (v().phase === "discard" ? null : t("err.wrong_phase"));
    if (!reason && !option) reason = t("gin.takenStays", { card: short(card) }); // G5
    if (!reason && zone.kind === "knock" && option.deadwood > 10) reason = t("err.knock_not_allowed");
    if (reason) {
      refuse(reason, at);
      return;
    }
    if (zone.kind === "knock") {
      board.select(card);
      board.openKnock();
    } else board.act(`discard ${card}`);
  }

  const at = (e) => ({ x: e.clientX, y: e.clientY });
  tappable(el.stock, (e) => drawn(["draw"], "draw", at(e)));
  tappable(el.pile, (e) => drawn(["upcard", "draw"], "take", at(e)));
  draggable(el.hand, {
    items: ".hand-card",
    grab: (item) => (v() && !ui.busy ? { card: item.dataset.card, ghost: face(item.dataset.card) } : null),
    zones: () => [{ element: buttons.knock, kind: "knock" }, { element: el.pile, kind: "discard" }],
    drop: dropped,
  });
}
