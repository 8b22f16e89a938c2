// F2 moves (FORMATS.md): the one parser every page uses, a move in words ("Bot 2 wirft D♠ ab"),
// and who sits where.

import { cardsText, short } from "../lib/cards.js";
import { t } from "../lib/i18n.js";

const CARD = /^([2-9TJQKA][SHDC]|X)$/;

export const isCard = (token) => CARD.test(token);

// "lay X 2 low" -> {kind: "lay", cards: ["X"], card: "X", meld: 2, end: "low", reading: null}.
// A bare "discard" is another seat going out face down (API.md): card null.
export function parseMove(text) {
  const tokens = String(text).trim().split(/\s+/);
  const kind = tokens[0];
  const rest = tokens.slice(1);
  const move = { kind, text: tokens.join(" "), cards: [], meld: null, end: null, reading: null };
  if (kind === "take" || kind === "meld") {
    if (rest[0] === "set" || rest[0] === "run") move.reading = rest.shift();
    move.cards = rest.filter(isCard);
  } else if (kind === "lay") {
    move.cards = rest.slice(0, 1);
    address(move, rest[1]);
    move.end = rest[2] || null;
  } else if (kind === "swap") {
    address(move, rest[0]);
    move.cards = rest.slice(1, 2);
  } else if (kind === "discard" || kind === "swap-up") {
    move.cards = rest.slice(0, 1);
  }
  move.card = move.cards[0] ?? null;
  return move;
}

// A meld's number, or Tausende's "S.N" (seat S's meld N, docs/TAUSENDE.md): move.owner = S.
function address(move, token) {
  const [first, second] = String(token).split(".");
  if (second === undefined) move.meld = Number(first);
  else {
    move.owner = Number(first);
    move.meld = Number(second);
    move.address = token;
  }
}

// Whether the move puts the player's cards on the table (a turn that "laid cards").
export const lays = (move) => ["take", "meld", "lay", "swap"].includes(parseMove(move).kind);
// A turn starts with a draw or a take (API.md: the player's turns count these).
export const startsTurn = (move) => ["draw", "take"].includes(parseMove(move).kind);

// A discard of the seat's last card goes out face down (R4.3).
export function goesOut(move, handSizeBefore) {
  return parseMove(move).kind === "discard" && handSizeBefore === 1;
}

export function seatName(seat, seats, ownName) {
  if (seat === 0 && ownName) return ownName;
  const s = seats && seats[seat];
  if (s && s.kind === "human" && s.name) return s.name;
  return t("seat.bot", { n: seat });
}

// Tausende's lay-off or joker swap by address S.N (R12.5, any seat's meld): the meld with its
// owner, e.g. "Auslage 2 von Anna" (dative: the swap's "in …"); null without the table's seats
// (who: {seat: the mover, seats, me: the page's own seat or null}) or for a plain meld number.
function meldOf(move, who, dative) {
  if (move.owner === undefined || !who || !who.seats) return null;
  const n = move.meld;
  const form = dative ? "in" : "to";
  if (move.owner === who.seat) return t(`move.${form}OwnMeld`, { n });
  if (move.owner === who.me) return t(`move.${form}YourMeld`, { n });
  return t(`move.${form}MeldOf`, { n, name: seatName(move.owner, who.seats) });
}

// One move as a sentence, e.g. "legt aus: 7♥ 8♥ 9♥". goingOut: the last card (shown, when known,
// as the card that goes face down); who ({seat, seats, me}): names the owner of a Tausende meld a
// card is laid on or a joker taken from ("legt 7♥ an Auslage 2 von Anna an").
export function describe(text, { goingOut = false, who = null } = {}) {
  const move = parseMove(text);
  const owned = move.kind === "lay" || move.kind === "swap" ? meldOf(move, who, move.kind === "swap") : null;
  if (owned) {
    if (move.kind === "swap") return t("move.swapIn", { meld: owned, card: short(move.card) });
    return t(move.end === "low" ? "move.layLowOn" : "move.layOn", { card: short(move.card), meld: owned });
  }
  if (move.kind === "discard" && (goingOut || move.card === null)) {
    return move.card ? t("move.goOutWith", { card: short(move.card) }) : t("move.goOut");
  }
  switch (move.kind) {
    case "draw":
      return t("move.draw");
    case "take":
      return t("move.take", { cards: cardsText(move.cards) });
    case "meld":
      return t("move.meld", { cards: cardsText(move.cards) });
    case "lay":
      return t(move.end === "low" ? "move.layLow" : "move.lay", { card: short(move.card), n: move.address ?? move.meld });
    case "swap":
      return t("move.swap", { n: move.address ?? move.meld, card: short(move.card) });
    case "swap-up":
      return t("move.swapUp", { card: short(move.card) });
    case "pass":
      return t("move.pass");
    case "discard":
      return t("move.discard", { card: short(move.card) });
    case "resign":
      return t("move.resign");
    case "cut":
      return t("move.cut", { n: Number(move.text.split(" ")[1]) });
    default:
      return move.text;
  }
}
