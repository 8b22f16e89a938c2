// A week's standings (docs/EVENTS.md, "Scoring against the field"): live during the week (at
// most a minute old), final after the close; the caller's place, the incomplete players apart;
// once closed, every deal's seed checked against its commitment and the caller's replays.

import { eventOf, eventStandings } from "../lib/api.js";
import { $, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { formatNumber, t } from "../lib/i18n.js";
import { checkSeed, replayUrl, weekSpan } from "./shared.js";

const GAME = document.body.dataset.game;
const WEEK = document.body.dataset.week;

function stateText(doc, event) {
  if (doc.final) return t("event.standings.final");
  return t(event.closed ? "event.standings.closing" : "event.standings.live");
}

function ownPlace(doc) {
  const entry = doc.entries.find((e) => e.you);
  if (entry) return t("event.standings.yourPlace", { place: entry.place, total: doc.entries.length });
  const open = doc.incomplete.find((e) => e.you);
  if (open) return t("event.standings.yourDeals", { n: open.deals });
  return "";
}

function entryRow(entry) {
  return h("tr", { class: entry.you ? "mine" : "" },
    h("td", { class: "num", text: formatNumber(entry.place) }),
    h("th", { scope: "row", text: entry.you ? `${entry.name} (${t("seat.you")})` : entry.name }),
    h("td", { class: "num", text: `${formatNumber(entry.percent)} %` }),
    h("td", { class: "num", text: formatNumber(entry.tops) }));
}

// After the close: each deal's seed (checked against its commitment) and the caller's replay of
// it, where the replay viewer offers the analysis of their decisions.
function seeds(event) {
  const mine = new Map((event.progress ? event.progress.deals : []).map((d) => [d.n, d]));
  return event.deals.map((deal) => {
    const check = h("span", { class: "hint-text seed-check" });
    checkSeed(deal, check);
    const own = mine.get(deal.n);
    return h("li", { id: `seed-${deal.n}` },
      h("h3", { text: t("event.deal", { n: deal.n }) }),
      h("p", {}, h("span", { class: "hint-text", text: `${t("archive.seed")}: ` }),
        h("code", { class: "hash", text: deal.seed }), " ", check),
      h("p", {}, h("span", { class: "hint-text", text: `${t("today.commitment")}: ` }),
        h("code", { class: "hash", text: deal.commitment })),
      own && own.status === "finished" ? h("p", {}, h("a", {
        class: "deal-replay", href: replayUrl(own.attempt_id), text: t("event.replayAnalysis"),
      })) : null);
  });
}

async function main() {
  let doc;
  let event;
  try {
    [doc, event] = await Promise.all([eventStandings(GAME, WEEK), eventOf(GAME, WEEK)]);
  } catch (e) {
    $("#standings-error").textContent = explain(e);
    document.body.dataset.ready = "1";
    return;
  }
  $("#standings-dates").textContent = weekSpan(event);
  $("#standings-state").textContent = stateText(doc, event);
  const place = ownPlace(doc);
  $("#standings-you").textContent = place;
  $("#standings-you").hidden = !place;
  clear($("#standings-body")).append(...doc.entries.map(entryRow));
  $("#standings-empty").hidden = doc.entries.length > 0;
  $("#standings-table").hidden = doc.entries.length === 0;
  clear($("#standings-incomplete")).append(...doc.incomplete.map((e) => h("li",
    { class: e.you ? "mine" : "" },
    `${e.you ? `${e.name} (${t("seat.you")})` : e.name}: `,
    t("event.standings.deals", { n: e.deals }))));
  $("#standings-incomplete-box").hidden = doc.incomplete.length === 0;
  if (event.closed) {
    clear($("#standings-seeds")).append(...seeds(event));
    $("#standings-seeds-box").hidden = false;
  }
  document.body.dataset.ready = "1";
}

main();
