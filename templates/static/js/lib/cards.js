// Cards in F1 notation ("QS", "TH", "X") drawn as accessible elements: rank and suit symbol in
// the corner, the suit's letter beside it, so colour is never the only cue.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const SUITS = "SHDC";
export const RANKS = "A23456789TJQK";
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// The cards this page's game marks with a badge, a game fact the server passes as data (the
// adapter's badges, service/games): Pik Dame's and Tausende's Q♠ "100" (R1); none on Gin's.
// The body lists them as [rank, suit, text], so the page names no card code it does not show.
function readBadges() {
  try {
    const listed = JSON.parse((document.body && document.body.dataset.cardBadges) || "[]");
    return Object.fromEntries(listed.map(([rank, suit, text]) => [`${rank}${suit}`, text]));
  } catch (e) {
    return {};
  }
}
const BADGES = readBadges();

export function parse(code) {
  if (code === "X") return { code, joker: true, rank: null, suit: null, points: 20 };
  const rank = code[0];
  const suit = code[1];
  let points = 5;
  if ("TJQK".includes(rank)) points = 10;
  if (rank === "A") points = 20;
  if (code === "QS") points = 100;
  return { code, joker: false, rank, suit, points };
}

export const points = (code) => parse(code).points;
export const symbol = (suit) => SYMBOLS[suit];

export function rankLabel(rank) {
  return t(`rank.${rank}`);
}

// "Pik Dame", "Herz 7", "Joker": the name a screen reader reads.
export function cardName(code) {
  const c = parse(code);
  if (c.joker) return t("card.joker");
  return t("card.name", { suit: t(`suit.${c.suit}`), rank: t(`rankname.${c.rank}`) });
}

// A short inline text such as "D♠" or "10♥" for move lists.
export function short(code) {
  const c = parse(code);
  if (c.joker) return "★";
  return `${rankLabel(c.rank)}${SYMBOLS[c.suit]}`;
}

export function cardsText(codes) {
  return codes.map(short).join(" ");
}

// The face of one card. size: "" | "small" | "large"; standsFor: the card a joker in a run
// stands for (shown on the joker); name: what a screen reader reads instead of the card's name
// (the card's name with where it stands, "Herz 5, in Meldung 1").
export function face(code, { size = "", tag = "span", standsFor = null, name = null } = {}) {
  const c = parse(code);
  const classes = ["card"];
  if (size) classes.push(`card-${size}`);
  if (c.joker) {
    classes.push("joker");
    const said = name || (standsFor ? t("card.jokerAs", { card: cardName(standsFor) }) : cardName(code));
    return h(tag, { class: classes.join(" "), "data-card": code, title: said },
      h("span", { class: "corner", "aria-hidden": "true" }, h("b", { text: "★" })),
      standsFor
        ? h("span", { class: "stands-for", "aria-hidden": "true", text: short(standsFor) })
        : h("span", { class: "pip", "aria-hidden": "true", text: t("card.jokerShort") }),
      h("span", { class: "sr", text: said }));
  }
  classes.push(`suit-${c.suit}`);
  const badge = Object.prototype.hasOwnProperty.call(BADGES, code) ? BADGES[code] : null;
  if (badge !== null && code === "QS") classes.push("queen-spades");
  return h(tag, { class: classes.join(" "), "data-card": code, title: cardName(code) },
    h("span", { class: "corner", "aria-hidden": "true" },
      h("b", { text: rankLabel(c.rank) }), h("i", { text: SYMBOLS[c.suit] })),
    h("span", { class: "pip", "aria-hidden": "true", text: SYMBOLS[c.suit] }),
    h("span", { class: "letter", "aria-hidden": "true", text: t(`suitletter.${c.suit}`) }),
    badge !== null ? h("span", { class: "badge", "aria-hidden": "true", text: badge }) : null,
    h("span", { class: "sr", text: name || cardName(code) }));
}

// Cards side by side as a list a screen reader counts ("list, 3 items: Herz 7, Herz 8, Herz 9"):
// a meld, a pile, what a seat took. standsFor: the card each joker stands for, in order.
export function cardList(codes, { size = "small", className = "", label = null, standsFor = [] } = {}) {
  let j = 0;
  return h("ul", { class: `card-list${className ? ` ${className}` : ""}`, role: "list", "aria-label": label },
    codes.map((code) => face(code, { size, tag: "li", standsFor: code === "X" && j < standsFor.length ? standsFor[j++] : null })));
}

// A face-down card (the stock, the bots' hands).
export function back({ size = "", label = "" } = {}) {
  return h("span", {
    class: `card back${size ? ` card-${size}` : ""}`,
    role: label ? "img" : null,
    "aria-label": label || null,
    "aria-hidden": label ? null : "true",
  });
}

// Another seat's hand as fanned backs (issue 41), at most `most` of them, each back's place in the
// fan (--fan) for table.css; hidden from screen readers (the seat's count says it). fanBacks
// redraws a fan for a new size (a move played out).
const FAN_MOST = 20;

function fanned(fan, size) {
  const shown = Math.min(size, FAN_MOST);
  fan.replaceChildren(...Array.from({ length: shown }, (_, i) => {
    const card = back({ size: "tiny" });
    card.style.setProperty("--fan", String(i - (shown - 1) / 2));
    return card;
  }));
  return fan;
}

export const fannedBacks = (size) => fanned(h("span", { class: "mini-hand", "aria-hidden": "true" }), size);

export function fanBacks(fan, size) {
  if (fan) fanned(fan, size);
}

function suitIndex(c) {
  return c.joker ? 4 : SUITS.indexOf(c.suit);
}

function rankIndex(c) {
  return c.joker ? 13 : RANKS.indexOf(c.rank);
}

// Sort a hand by suit (then rank) or by rank (then suit); jokers last.
export function sortCards(codes, by) {
  const key = (code) => {
    const c = parse(code);
    return by === "rank" ? rankIndex(c) * 10 + suitIndex(c) : suitIndex(c) * 100 + rankIndex(c);
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

export function meldPoints(codes) {
  return codes.reduce((sum, code) => sum + points(code), 0);
}
