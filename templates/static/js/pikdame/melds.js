// Melds drawn as cards, for the table, the confirm dialogs and the replay viewer: each badged with
// its real number (F2: a player's melds are numbered 1, 2, 3 … in the order they were laid), a
// joker in a run showing the card it stands for.

import { face, meldPoints } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { jokerCards } from "./notation.js";

export function meldCards(meld) {
  const jokers = jokerCards(meld);
  let j = 0;
  return h("span", { class: "meld-cards" }, meld.cards.map((c) => face(c, {
    size: "small", standsFor: c === "X" && jokers.length ? jokers[j++] : null,
  })));
}

export function meldLabel(meld, number) {
  return t("meld.label", { n: number, kind: t(`meld.${meld.kind}`), points: meldPoints(meld.cards) });
}

// One meld with its number badge; onPick makes it a button (the own melds on the table).
export function meldBox(meld, number, { onPick = null } = {}) {
  const label = meldLabel(meld, number);
  const badge = h("span", { class: "meld-no", "aria-hidden": "true", text: String(number) });
  if (onPick) {
    return h("button", {
      type: "button", class: "meld own", "aria-label": label, dataset: { meld: String(number) },
      onclick: () => onPick(number),
    }, badge, meldCards(meld));
  }
  return h("div", { class: "meld", role: "group", "aria-label": label, dataset: { meld: String(number) } },
    badge, meldCards(meld));
}

// A seat's melds, numbered from 1.
export function meldList(list, options = {}) {
  if (list.length === 0) return h("p", { class: "empty", text: t("meld.none") });
  return h("div", { class: "meld-list" }, list.map((m, i) => meldBox(m, i + 1, options)));
}
