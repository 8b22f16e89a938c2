// The hint: the exact optimiser's best melds for the hand now (GET /api/attempts/{id}/hint).

import { get } from "../lib/api.js";
import { face } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { describe } from "../lib/moves.js";

const CARD = /^([2-9TJQKA][SHDC]|X)$/;

export async function showHint(attemptId, hand) {
  const box = $("#hint");
  box.hidden = false;
  clear(box).append(h("p", { text: t("hint.loading") }));
  let data;
  try {
    data = await get(`/api/attempts/${encodeURIComponent(attemptId)}/hint`);
  } catch (e) {
    clear(box).append(h("p", { class: "error", text: e.explain() }));
    return [];
  }
  const cards = [];
  const items = data.moves.map((move) => {
    const used = move.split(" ").slice(1).filter((x) => CARD.test(x));
    cards.push(...used);
    return h("li", { dataset: { move } }, h("span", { text: describe(move) }),
      h("span", { class: "preview-cards" }, used.map((c) => face(c, { size: "small" }))),
      h("button", { type: "button", class: "button small", onclick: () => hand.selectCodes(used),
        text: t("hint.select") }));
  });
  clear(box).append(
    h("h3", { text: t("hint.title") }),
    data.moves.length === 0
      ? h("p", { text: t("hint.none") })
      : h("ol", { class: "hint-moves" }, items),
    h("p", { text: t("hint.points", { points: data.points }) }),
    h("button", { type: "button", class: "link", onclick: () => { box.hidden = true; hand.setHinted([]); },
      text: t("hint.close") }));
  hand.setHinted(cards);
  return cards;
}
