// F2 moves in words ("Bot 2 wirft D♠ ab"), and who sits where.

import { cardsText, short } from "./cards.js";
import { t } from "./i18n.js";

export function seatName(seat, seats, ownName) {
  if (seat === 0 && ownName) return ownName;
  const s = seats && seats[seat];
  if (s && s.kind === "human" && s.name) return s.name;
  return t("seat.bot", { n: seat });
}

function meldCards(tokens) {
  return tokens.filter((x) => x !== "set" && x !== "run");
}

// One move as a sentence, e.g. "legt aus: 7♥ 8♥ 9♥".
export function describe(move) {
  const tokens = move.trim().split(/\s+/);
  const kind = tokens[0];
  switch (kind) {
    case "draw":
      return t("move.draw");
    case "take":
      return t("move.take", { cards: cardsText(meldCards(tokens.slice(1))) });
    case "meld":
      return t("move.meld", { cards: cardsText(meldCards(tokens.slice(1))) });
    case "lay":
      return t(tokens[3] === "low" ? "move.layLow" : "move.lay",
        { card: short(tokens[1]), n: tokens[2] });
    case "swap":
      return t("move.swap", { n: tokens[1], card: short(tokens[2]) });
    case "discard":
      return t("move.discard", { card: short(tokens[1]) });
    case "resign":
      return t("move.resign");
    default:
      return move;
  }
}
