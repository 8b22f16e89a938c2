// Direct play at the table (issue 41): a turn in two gestures. A tap on the stock draws (R4.1),
// a tap on the discard pile with two or more hand cards selected takes it (R4.1; after the draw,
// with one card selected, discards it); a card dragged
// onto the discard pile is discarded (R4.3), cards dragged onto the own melds' area are laid as
// a new meld, a card dragged onto a meld is laid off there or swapped for the joker it stands
// for (R4.2, R6; at Tausende onto any seat's meld, R12.5); in Tausende's swapping round a card
// dropped on the face-up card swaps it (R12.2, `swap-up C`). A gesture plays at once, through the
// page's one move sender (seq, idempotency and stale answers as for the buttons); what the
// gesture cannot say (set or run, a joker's end, Tausende's take-back warning) opens the
// buttons' confirm panel with the move prepared. A drop the view shows to be illegal is refused
// with the reason in words, and nothing is sent. Going out by a drop needs no confirmation: with
// one card left in the play phase the discard is the only legal move (R4.2: every play step
// keeps a card; R4.3).
//
// decide*(view, ...) -> {move} | {reason} | {panel, preset?}: the page's board carries it out.

import { t } from "../lib/i18n.js";
import { precheck, takesBack } from "./actions.js";
import { whyNot } from "./explain.js";
import { jokerCards, meldText, reading, runGap, spareJokers } from "./notation.js";

const mine = (view) => view.seat ?? 0;
const tausende = (view) => Array.isArray(view.opened);
const QUEEN = "QS";
// R12.2: the swapping round is open while fewer swaps than seats were made and no one drew.
const swapping = (view) => tausende(view) && view.swaps !== null && view.swaps !== undefined
  && view.swaps < view.hand_sizes.length;

// Not the player's turn, or the round is over: the common reasons (actions.js precheck).
const turnReason = (view) => precheck("none", view, []);

// Why a selection is no meld (R5): the gap a run would need filled, or the rule.
function meldReason(codes) {
  const gap = runGap(codes);
  return gap ? t("selection.gap", { n: gap }) : t("err.invalid_meld");
}

// A tap on the stock: draw.
export function decideStock(view) {
  const busy = turnReason(view);
  if (busy) return { reason: busy };
  if (view.phase !== "draw") return { reason: t("err.wrong_phase") };
  if (!view.can_draw) return { reason: t(view.can_take ? "status.mustTake" : "err.stock_empty") };
  return { move: "draw" };
}

// The pile's top card with the chosen hand cards, as a new meld: take (R4.1).
function take(view, cards) {
  const problem = precheck("take", view, cards);
  if (problem) return { reason: problem };
  if (cards.length >= view.hand.length) return { reason: t("err.take_not_allowed") };
  const codes = [view.discard[view.discard.length - 1], ...cards];
  const kind = reading(codes);
  if (kind === "mixed") return { reason: t("err.take_not_allowed") };
  if (kind === "open" || spareJokers(codes) > 0) return { panel: "take" };
  return { move: `take ${meldText(codes).text}` };
}

// A tap on the discard pile plays the selected cards there, as a drop would: in the draw phase
// it takes the pile with them, in the play phase it discards the one selected card. The
// selection alone never plays; the tap on the pile is the second, deliberate gesture.
export function decidePile(view, selected) {
  const busy = turnReason(view);
  if (busy) return { reason: busy };
  return view.phase === "draw" ? take(view, selected) : decideDiscard(view, selected);
}

// Cards dropped on the discard pile: discard one (the play phase) or take (the draw phase).
export function decideDiscard(view, cards) {
  const busy = turnReason(view);
  if (busy) return { reason: busy };
  if (view.phase === "draw") {
    if (cards.length >= 2) return take(view, cards);
    // R12.2: in Tausende's swapping round a card laid on the face-up card swaps it
    if (swapping(view) && cards.length === 1) return { move: `swap-up ${cards[0]}` };
    return { reason: t("err.wrong_phase") };
  }
  if (cards.length !== 1) return { reason: t("need.one") };
  if (tausende(view) && cards[0] === QUEEN) return { reason: t("err.queen_kept") }; // R12.6
  if (takesBack(view)) return { panel: "discard" }; // R12.3: its warning is read first
  return { move: `discard ${cards[0]}` };
}

// Cards dropped on the own melds' area: a new meld (R4.2, R5).
export function decideMeld(view, cards) {
  const busy = turnReason(view);
  if (busy) return { reason: busy };
  if (view.phase !== "play") return { reason: t("err.wrong_phase") };
  const problem = precheck("meld", view, cards);
  if (problem) return { reason: problem };
  if (cards.length >= view.hand.length) return { reason: t("err.must_keep_card") };
  const kind = reading(cards);
  if (kind === "mixed") return { reason: meldReason(cards) };
  if (kind === "open" || spareJokers(cards) > 0) return { panel: "meld" };
  return { move: `meld ${meldText(cards).text}` };
}

// Cards dropped on seat `seat`'s meld `n`: lay off, or swap the joker the card stands for.
export function decideLay(view, cards, seat, n) {
  const busy = turnReason(view);
  if (busy) return { reason: busy };
  if (view.phase !== "play") return { reason: t("err.wrong_phase") };
  if (seat !== mine(view) && !tausende(view)) return { reason: t("err.no_such_meld") }; // R4.2
  if (cards.length !== 1) return { reason: t("need.one") };
  if (view.hand.length === 1) return { reason: t("err.must_keep_card") };
  const card = cards[0];
  const meld = view.melds[seat][n - 1];
  const address = seat === mine(view) ? String(n) : `${seat}.${n}`;
  if (meld && card !== "X" && jokerCards(meld).includes(card)) {
    const problem = precheck("swap", view, cards);
    return problem ? { reason: problem } : { move: `swap ${address} ${card}` };
  }
  const problem = precheck("lay", view, cards);
  if (problem) return { reason: problem };
  const why = whyNot(`lay ${card} ${address}`, view);
  if (why) return { reason: why };
  if (card === "X" && meld.kind === "run") return { panel: "lay", preset: { meld: address } }; // which end
  return { move: `lay ${card} ${address}` };
}
