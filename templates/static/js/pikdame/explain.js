// Pik Dame's moves explained (R5, R6): for a rejected lay-off or joker swap the exact why (which
// meld, which end, which card the joker stands for), worked out from the view the page already
// holds (its melds are public to seat 0), and what a selection of hand cards can become. Every
// other error is lib/explain.js's.

import { ApiError } from "../lib/api.js";
import { meldPoints, parse, short } from "../lib/cards.js";
import { explain } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { parseMove } from "./moves.js";
import { jokerCards, reading, runEnds, runGap } from "./notation.js";

const suitName = (suit) => t(`suit.${suit}`);
const rankName = (rank) => t(`rankname.${rank}`);

function whySet(move, meld, n) {
  const naturals = meld.cards.filter((c) => c !== "X").map(parse);
  const rank = naturals.length ? naturals[0].rank : null;
  const card = parse(move.card);
  if (move.kind === "swap" && !meld.cards.includes("X")) return t("why.noJoker", { n });
  if (move.kind === "lay" && meld.cards.length >= 8) return t("why.setFull", { n });
  if (card.joker || rank === null) return null;
  if (card.rank !== rank) {
    return t(move.kind === "swap" ? "why.swapSetRank" : "why.setRank",
      { n, card: short(move.card), rank: rankName(rank) });
  }
  if (naturals.filter((c) => c.suit === card.suit).length >= 2) {
    return t("why.setSuit", { n, card: short(move.card), suit: suitName(card.suit) });
  }
  return null;
}

function whyRun(move, meld, n) {
  const ends = runEnds(meld);
  if (ends === null) return null;
  const card = parse(move.card);
  const span = { n, card: short(move.card), from: short(ends.first), to: short(ends.last) };
  if (move.kind === "swap") {
    const stands = jokerCards(meld);
    if (stands.length === 0) return t("why.noJoker", { n });
    if (stands.includes(move.card)) return null;
    return t("why.swapRun", { ...span, count: stands.length, cards: stands.map(short).join(", ") });
  }
  if (ends.low === null) return t("why.runFull", { n });
  if (card.joker || move.card === ends.low || move.card === ends.high) return null;
  if (card.suit !== parse(ends.first).suit) return t("why.runSuit", { ...span, suit: suitName(parse(ends.first).suit) });
  return t("why.runEnds", { ...span, low: short(ends.low), high: short(ends.high) });
}

// Why a lay-off or swap does not fit (R5, R6), or null when the view shows no reason.
export function whyNot(text, view) {
  const move = parseMove(text);
  if ((move.kind !== "lay" && move.kind !== "swap") || !move.card) return null;
  const own = view.melds[move.owner ?? view.seat ?? 0]; // Tausende: "S.N", seat S's meld
  const meld = own[move.meld - 1];
  if (!meld) return t("why.noMeld", { n: move.meld, count: own.length });
  return meld.kind === "set" ? whySet(move, meld, move.meld) : whyRun(move, meld, move.meld);
}

// A rejected move explained: the specific why where the view tells it, else the error's code.
export function explainMove(error, text, view) {
  if (error instanceof ApiError && ["invalid_meld", "no_such_meld"].includes(error.code)) {
    const why = whyNot(text, view);
    if (why) return why;
  }
  // Tausende (R12.3/R12.4): the engine refuses a take before opening as `take_not_allowed`; the
  // reason is the opening, not Pik Dame's "top card with two of yours"
  if (error instanceof ApiError && error.code === "take_not_allowed" && view && Array.isArray(view.opened)
    && !view.opened[view.seat ?? 0]) return t("tausende.potClosed");
  return explain(error);
}

// What a selection can become (R5), e.g. "3 Karten ausgewählt. Gleiche Farbe, aber keine Folge:
// dazwischen fehlen 6 Karten".
export function describeSelection(codes) {
  let text = codes.length ? t("selection.count", { n: codes.length }) : t("selection.none");
  if (codes.length >= 2 && codes.some((c) => c !== "X")) {
    const kind = reading(codes);
    const gap = runGap(codes);
    if (kind !== "mixed") text += ` ${t(`selection.${kind}`, { points: meldPoints(codes) })}`;
    else if (gap) text += ` ${t("selection.gap", { n: gap })}`;
    else text += ` ${t("selection.mixed")}`;
  }
  return text;
}
