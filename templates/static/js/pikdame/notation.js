// Writing the player's selected cards as an F2 meld (FORMATS.md): a set in any order, a run in
// ascending ring order with each joker at the position it fills. This only formats the choice;
// whether the meld is legal is for the engine to say (its answer is explained to the player).

import { parse, RANKS, SUITS } from "../lib/cards.js";

// How a selection can be laid (R5): "set", "run", "open" (one natural: the player chooses) or
// "mixed" (no valid reading: sent as selected, and the server explains why). Same suit alone is
// not a run: the gaps between the naturals must be fillable by the selection's jokers (2♠ 7♠ B♠
// is no run), and a run holds at most 13 cards, a set 8 with no suit more than twice.
export function reading(codes) {
  const naturals = codes.map(parse).filter((c) => !c.joker);
  if (naturals.length === 0) return "mixed";
  if (naturals.length === 1) return "open";
  if (naturals.every((c) => c.rank === naturals[0].rank)) {
    const twice = SUITS.split("").some((s) => naturals.filter((c) => c.suit === s).length > 2);
    return !twice && codes.length <= 8 ? "set" : "mixed";
  }
  if (naturals.every((c) => c.suit === naturals[0].suit)) {
    return runGap(codes) === 0 && codes.length <= 13 ? "run" : "mixed";
  }
  return "mixed";
}

// How many more jokers the naturals of a selection would need to make a run (0: enough; null: two
// suits or a repeated rank, so never a run).
export function runGap(codes) {
  const naturals = codes.map(parse).filter((c) => !c.joker);
  if (naturals.some((c) => c.suit !== naturals[0].suit)) return null;
  const ring = ringOrder(naturals);
  if (ring === null) return null;
  return Math.max(0, ring.inner - (codes.length - naturals.length));
}

// The run's naturals in ring order (A 2 … K A …), starting after the widest gap, and the number
// of jokers the inner gaps need; null when a rank repeats.
function ringOrder(naturals) {
  const ranks = naturals.map((c) => RANKS.indexOf(c.rank)).sort((a, b) => a - b);
  if (new Set(ranks).size !== ranks.length) return null;
  let start = 0;
  let widest = -1;
  for (let i = 0; i < ranks.length; i += 1) {
    const next = i + 1 < ranks.length ? ranks[i + 1] : ranks[0] + 13;
    const gap = next - ranks[i];
    if (gap > widest) {
      widest = gap;
      start = (i + 1) % ranks.length;
    }
  }
  const ordered = [...ranks.slice(start), ...ranks.slice(0, start)];
  let inner = 0;
  for (let i = 1; i < ordered.length; i += 1) {
    inner += ((ordered[i] - ordered[i - 1] + 13) % 13) - 1;
  }
  return { ordered, inner };
}

// The F2 cards of a meld: {kind, text} with text like "7H X 9H" or "run 7H X X".
// kind: "set" | "run" | null (the reading); jokerEnd: where spare jokers of a run go.
export function meldText(codes, kind = null, jokerEnd = "high") {
  const chosen = kind || reading(codes);
  const naturals = codes.map(parse).filter((c) => !c.joker);
  const jokers = codes.length - naturals.length;
  const prefix = naturals.length === 1 && (chosen === "set" || chosen === "run") ? `${chosen} ` : "";
  if (chosen !== "run" || naturals.length === 0) {
    return { kind: chosen, text: prefix + codes.join(" ") };
  }
  const ring = ringOrder(naturals);
  if (ring === null || ring.inner > jokers) {
    return { kind: chosen, text: prefix + codes.join(" ") };
  }
  const suit = naturals[0].suit;
  const cards = [];
  ring.ordered.forEach((rank, i) => {
    if (i > 0) {
      const gap = ((rank - ring.ordered[i - 1] + 13) % 13) - 1;
      for (let g = 0; g < gap; g += 1) cards.push("X");
    }
    cards.push(RANKS[rank] + suit);
  });
  const spare = Array(jokers - ring.inner).fill("X");
  const all = jokerEnd === "low" ? [...spare, ...cards] : [...cards, ...spare];
  return { kind: "run", text: prefix + all.join(" ") };
}

// Whether a run would have jokers left over for the player to place at one end.
export function spareJokers(codes) {
  const naturals = codes.map(parse).filter((c) => !c.joker);
  const jokers = codes.length - naturals.length;
  if (naturals.length === 0 || jokers === 0) return 0;
  const ring = ringOrder(naturals);
  return ring === null ? 0 : Math.max(0, jokers - ring.inner);
}

// Position i of a run (0 = its first card, -1 the card before it) as a natural card; null for a
// set or a meld of jokers only.
function runCardAt(meld) {
  const first = meld.cards.findIndex((c) => c !== "X");
  if (meld.kind !== "run" || first < 0) return null;
  const anchor = parse(meld.cards[first]);
  const base = RANKS.indexOf(anchor.rank) - first;
  return (i) => RANKS[(((base + i) % 13) + 13) % 13] + anchor.suit;
}

// The natural cards the jokers of a run stand for (R6: only that card can replace it).
export function jokerCards(meld) {
  const at = runCardAt(meld);
  if (at === null) return [];
  return meld.cards.flatMap((c, i) => (c === "X" ? [at(i)] : []));
}

// A run's first and last card and the cards it could still take at its low and high end (null
// when it holds 13 cards). R5.2: the ring wraps, K-A-2 is a run. Null for a set.
export function runEnds(meld) {
  const at = runCardAt(meld);
  if (at === null) return null;
  const n = meld.cards.length;
  const full = n >= 13;
  return { first: at(0), last: at(n - 1), low: full ? null : at(-1), high: full ? null : at(n) };
}
