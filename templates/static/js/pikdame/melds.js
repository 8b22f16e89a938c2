// Melds drawn as cards, for the table, the confirm dialogs and the replay viewer: each badged with
// its real number (F2: a player's melds are numbered 1, 2, 3 … in the order they were laid), a
// joker in a run showing the card it stands for.

import { cardList, face, meldPoints } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { jokerCards } from "./notation.js";

// A meld's cards as a list, each named (a joker in a run with the card it stands for).
export function meldCards(meld) {
  return cardList(meld.cards, { className: "meld-cards", standsFor: jokerCards(meld) });
}

export function meldLabel(meld, number) {
  return t("meld.label", { n: number, kind: t(`meld.${meld.kind}`), points: meldPoints(meld.cards) });
}

// One meld with its number badge, its cards a list; onPick makes it a button (the own melds on
// the table), named by what it shows: its label, then each card's name (a button holds no list).
export function meldBox(meld, number, { onPick = null } = {}) {
  const label = meldLabel(meld, number);
  const badge = h("span", { class: "meld-no", "aria-hidden": "true", text: String(number) });
  if (onPick) {
    return h("button", {
      type: "button", class: "meld own", dataset: { meld: String(number) },
      onclick: () => onPick(number),
    }, badge, h("span", { class: "sr", text: `${label}: ` }),
    h("span", { class: "meld-cards" }, meld.cards.map((c) => face(c, { size: "small" }))));
  }
  return h("div", { class: "meld", role: "group", "aria-label": label, dataset: { meld: String(number) } },
    badge, meldCards(meld));
}

// A seat's melds, numbered from 1: a list of melds.
export function meldList(list, options = {}) {
  if (list.length === 0) return h("p", { class: "empty", text: t("meld.none") });
  return h("ul", { class: "meld-list", role: "list" }, list.map((m, i) => h("li", {}, meldBox(m, i + 1, options))));
}
