// A calendar month's season standing (docs/EVENTS.md, "The season"): each player's best four
// event scores of the month summed, from the final standings of the month's closed events.

import { eventSeason } from "../lib/api.js";
import { $, $$, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { formatNumber, t } from "../lib/i18n.js";

const GAME = document.body.dataset.game;
const MONTH = document.body.dataset.month;

function row(entry) {
  return h("tr", { class: entry.you ? "mine" : "" },
    h("td", { class: "num", text: formatNumber(entry.place) }),
    h("th", { scope: "row", text: entry.you ? `${entry.name} (${t("seat.you")})` : entry.name }),
    h("td", { class: "num", title: entry.counted.map((c) => `${formatNumber(c)} %`).join(" + "),
      text: formatNumber(entry.points) }),
    h("td", { class: "num", text: formatNumber(entry.events) }));
}

async function main() {
  let doc;
  try {
    doc = await eventSeason(GAME, MONTH);
  } catch (e) {
    $("#season-error").textContent = explain(e);
    document.body.dataset.ready = "1";
    return;
  }
  $("#season-state").textContent = t(doc.final ? "event.season.final" : "event.season.running");
  const final = new Map(doc.weeks.map((w) => [w.week, w.final]));
  for (const note of $$("#season-weeks [data-week]")) {
    note.textContent = t(final.get(note.dataset.week) ? "event.standings.final" : "event.season.open");
  }
  const mine = doc.entries.find((e) => e.you);
  $("#season-you").textContent = mine
    ? t("event.standings.yourPlace", { place: mine.place, total: doc.entries.length }) : "";
  $("#season-you").hidden = !mine;
  clear($("#season-body")).append(...doc.entries.map(row));
  $("#season-empty").hidden = doc.entries.length > 0;
  $("#season-table").hidden = doc.entries.length === 0;
  document.body.dataset.ready = "1";
}

main();
