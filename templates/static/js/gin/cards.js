// Gin Rommé's card facts (GIN.md G1) on top of lib/cards.js (which draws the faces): points,
// ordering, and the move texts of G8 read for people. Gin has no joker.

import { RANKS, SUITS, cardsText, short } from "../lib/cards.js";
import { t } from "../lib/i18n.js";

// G1: ace 1, 2–10 their value, jack, queen, king 10.
export function ginPoints(code) {
  const i = RANKS.indexOf(code[0]);
  return Math.min(i + 1, 10);
}

export const deadwoodOf = (codes) => codes.reduce((sum, c) => sum + ginPoints(c), 0);

// The canonical order of GIN_FORMATS.md: suit S H D C, then rank A … K.
export const cardKey = (code) => SUITS.indexOf(code[1]) * 13 + RANKS.indexOf(code[0]);
export const sortGin = (codes) => [...codes].sort((a, b) => cardKey(a) - cardKey(b));

// "knock KD 5S 6S 7S | 8H 8D 8C" -> {card: "KD", groups: [[…], […]]} (the card "??" when face
// down); "defend 3H 4H 5H / 8S@1 9S@2" -> {groups, layoffs: [["8S", 1], …]}.
export function parseGinMove(text) {
  const words = String(text).trim().split(/\s+/);
  const kind = words[0];
  const move = { kind, card: null, groups: [], layoffs: [] };
  if (kind === "discard") move.card = words[1];
  if (kind !== "knock" && kind !== "defend") return move;
  let rest = words.slice(1).join(" ");
  if (kind === "knock") {
    move.card = words[1];
    rest = words.slice(2).join(" ");
  }
  const [groupsText, layText = ""] = rest.split("/");
  move.groups = groupsText.split("|").map((g) => g.trim().split(/\s+/).filter(Boolean)).filter((g) => g.length);
  move.layoffs = layText.trim().split(/\s+/).filter(Boolean).map((w) => {
    const [card, n] = w.split("@");
    return [card, Number(n)];
  });
  return move;
}

// G8 text of a defence: own groups, then the lay-offs in the given order.
export function defendText(groups, layoffs) {
  const own = groups.map((g) => g.join(" ")).join(" | ");
  const lays = layoffs.map(([c, n]) => `${c}@${n}`).join(" ");
  return `defend ${own}${lays ? `${own ? " " : ""}/ ${lays}` : ""}`.replace(/\s+/g, " ").trim();
}

function extends_(meld, card) {
  const ranks = meld.map((c) => RANKS.indexOf(c[0]));
  const r = RANKS.indexOf(card[0]);
  if (new Set(meld.map((c) => c[0])).size === 1) return meld.length < 4 && card[0] === meld[0][0];
  if (meld.some((c) => c[1] !== card[1])) return false;
  return r === Math.min(...ranks) - 1 || r === Math.max(...ranks) + 1;
}

// Lay-offs in an order the rules accept (G6: one after another, each keeping its meld valid):
// for each meld the cards that extend it now go first. Cards that never fit keep their place
// at the end (the server names the problem).
export function orderLayoffs(melds, layoffs) {
  const grown = melds.map((m) => [...m]);
  const left = [...layoffs];
  const out = [];
  let progress = true;
  while (left.length && progress) {
    progress = false;
    for (let i = 0; i < left.length; i += 1) {
      const [card, n] = left[i];
      const meld = grown[n - 1];
      if (meld && extends_(meld, card)) {
        meld.push(card);
        out.push(left[i]);
        left.splice(i, 1);
        progress = true;
        break;
      }
    }
  }
  return [...out, ...left];
}

// Whether `card` could be laid off on meld `n` after the other chosen lay-offs (for the menus).
export function fitsMeld(melds, layoffs, card, n) {
  const others = layoffs.filter(([c]) => c !== card);
  const ordered = orderLayoffs(melds, [...others, [card, n]]);
  const grown = melds.map((m) => [...m]);
  for (const [c, k] of ordered) {
    if (!grown[k - 1] || !extends_(grown[k - 1], c)) return false;
    grown[k - 1].push(c);
  }
  return true;
}

// The lay-offs of a chosen set that still fit once one is taken back (G6: each keeps its meld
// valid, one after another): a card laid on through another that is no longer laid off drops out.
export function fittingLayoffs(melds, layoffs) {
  let kept = [];
  let rest = layoffs;
  for (let grown = true; grown;) {
    grown = false;
    for (const lay of rest) {
      if (fitsMeld(melds, kept, lay[0], lay[1])) {
        kept = [...kept, lay];
        grown = true;
      }
    }
    rest = rest.filter((lay) => !kept.includes(lay));
  }
  return layoffs.filter((lay) => kept.includes(lay));
}

// One history entry in words: "Bot zieht vom Stapel", "Du wirfst K♦ ab" …
export function describeGinMove(move, name, mine) {
  const m = parseGinMove(move);
  const who = mine ? "you" : "other";
  switch (m.kind) {
    case "discard": return t(`gin.log.discard.${who}`, { name, card: short(m.card) });
    case "knock": return t(`gin.log.knock.${who}`, { name, groups: m.groups.map(cardsText).join(" · ") });
    case "defend": return t(`gin.log.defend.${who}`, { name, n: m.layoffs.length });
    case "take": case "draw": case "pass": case "resign":
      return t(`gin.log.${m.kind}.${who}`, { name });
    default: return `${name}: ${move}`;
  }
}

// The seat's own move in words without the sentence's full stop ("Du wirfst 6♥ ab"), for the
// analysis' "gespielt: … · besser: …" (lib/analysis.js).
export const ownGinMove = (move) => describeGinMove(move, "", true).replace(/\.$/, "");
