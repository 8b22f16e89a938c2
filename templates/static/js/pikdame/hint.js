// The hint: the best melds for the hand now (GET /api/attempts/{id}/hint; at a table, a function
// asking GET /api/tables/{id}/hint, docs/TABLES.md "Hints").

import { hint as fetchHint } from "../lib/api.js";
import { face } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { t } from "../lib/i18n.js";
import { describe, parseMove } from "./moves.js";

export const hintOpen = () => !$("#hint").hidden;

export function closeHint(hand) {
  $("#hint").hidden = true;
  hand.setHinted([]);
}

// source: the daily attempt's id, or a function answering the hint (a table's); none: the text
// when nothing can be laid (Tausende says why: the 30-point opening, R12.3).
export async function showHint(source, hand, { none = t("hint.none") } = {}) {
  const box = $("#hint");
  box.hidden = false;
  clear(box).append(h("p", { text: t("hint.loading") }));
  let data;
  try {
    data = await (typeof source === "function" ? source() : fetchHint(source));
  } catch (e) {
    clear(box).append(h("p", { class: "error", text: explain(e) }));
    return [];
  }
  const cards = [];
  const items = data.moves.map((move) => {
    const used = parseMove(move).cards;
    cards.push(...used);
    return h("li", { dataset: { move } }, h("span", { text: describe(move) }),
      h("span", { class: "preview-cards" }, used.map((c) => face(c, { size: "small" }))),
      h("button", { type: "button", class: "button small", onclick: () => hand.selectCodes(used),
        text: t("hint.select") }));
  });
  clear(box).append(
    h("h3", { text: t("hint.title") }),
    ...(data.moves.length === 0 ? [h("p", { text: none })] : [
      h("ol", { class: "hint-moves" }, items),
      h("p", { text: t("hint.points", { points: data.points }) })]),
    h("button", { type: "button", class: "link", onclick: () => closeHint(hand) },
      t("hint.close"), " ", h("kbd", { text: "Esc" })));
  hand.setHinted(cards);
  return cards;
}
