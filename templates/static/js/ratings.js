// A table game's ratings board (docs/LOBBY.md, GET /api/ratings/<game>): the established players
// ranked, the provisional ones below.

import { ratingsBoard } from "./lib/api.js";
import { $, clear, h } from "./lib/dom.js";
import { explain } from "./lib/explain.js";
import { formatNumber } from "./lib/i18n.js";

const game = $("#ratings-board").dataset.game;
const LIMIT = 100;

const row = (e) => h("tr", {},
  h("td", { class: "num", text: formatNumber(e.rank) }), h("td", { text: e.name }),
  h("td", { class: "num", text: formatNumber(e.rating) }), h("td", { class: "num", text: formatNumber(e.games) }));

async function main() {
  try {
    const [board, provisional] = await Promise.all([
      ratingsBoard(game, 0, LIMIT), ratingsBoard(game, 0, LIMIT, true)]);
    clear($("#ratings-rows")).append(...board.entries.map(row));
    $("#ratings-none").hidden = board.entries.length > 0;
    clear($("#ratings-provisional")).append(...provisional.entries.map(row));
  } catch (e) {
    $("#ratings-error").textContent = explain(e);
  }
  document.body.dataset.ready = "1";
}

main();
