// Tausende's counting (RULES.md R12.1, R12.3): its card points and what a meld brings towards
// the opening, the same as the engine's (engine/pikdame/tausende.py). Tausende's panel shows
// them, and Pik Dame's board plays a Tausende table's moves back with them (the page passes
// them as the table's opening rule).

import { points } from "../lib/cards.js";
import { jokerCards, reading } from "../pikdame/notation.js";

export const OPENING = 30; // R12.3

// R12.1's points: Pik Dame's (lib/cards.js) but a joker is worth 25.
export const tausendePoints = (codes) => codes.reduce((sum, c) => sum + (c === "X" ? 25 : points(c)), 0);
const rankPoints = (rank) => (rank === "A" ? 20 : "TJQK".includes(rank) ? 10 : 5);

// A meld's points towards the opening (R12.3, the engine's opening_points): a joker counts as
// the card it stands for, in a run by its place, in a set the set's rank; a joker standing for
// the Q♠ counts as a queen (10, docs/TAUSENDE.md).
export function openingPoints(meld) {
  const kind = meld.kind === "set" || meld.kind === "run" ? meld.kind : reading(meld.cards);
  const stands = kind === "run" ? jokerCards({ kind, cards: meld.cards }) : [];
  const natural = meld.cards.find((c) => c !== "X");
  let joker = 0;
  return meld.cards.reduce((sum, c) => {
    if (c !== "X") return sum + tausendePoints([c]);
    const card = kind === "run" ? stands[joker++] : natural;
    return sum + (card ? rankPoints(card[0]) : 0);
  }, 0);
}
