// A week's standings (docs/EVENTS.md, "Scoring against the field"): live during the week (at
// most a minute old), final after the close; the caller's place, the incomplete players apart;
// once closed, every deal's seed checked against its commitment and the caller's replays.
// The standings are asked in windows without credentials (the first one a published file,
// the same for everyone) and the caller's own place by a read of its own (`/standings/me`), so
// a signed-in player's page never needs the whole document from the app.

import {
  STANDINGS_WINDOW, eventMyPlace, eventOf, eventStandingsWindow,
} from "../lib/api.js";
import { $, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { formatNumber, t } from "../lib/i18n.js";
import { checkSeed, replayUrl, weekSpan } from "./shared.js";

const GAME = document.body.dataset.game;
const WEEK = document.body.dataset.week;
// `own`: the windows are asked from the app (with credentials) once the published one was
// found older than the caller's place (the close seen by /me, not yet by the file).
const state = { offset: 0, me: null, own: false };

function stateText(doc, event) {
  if (doc.final) return t("event.standings.final");
  return t(event.closed ? "event.standings.closing" : "event.standings.live");
}

function ownPlace(me) {
  if (me.entry) return t("event.standings.yourPlace", { place: me.entry.place, total: me.total });
  if (me.incomplete) return t("event.standings.yourDeals", { n: me.incomplete.deals });
  return "";
}

// The window's line that is the caller's: the same place (or position) and name as `/me` says
// (the window may be a few seconds older than it: no one else's line is marked).
function isMine(line, offset) {
  const me = state.me || {};
  if (line.place !== undefined) {
    return Boolean(me.entry) && me.entry.place === line.place && me.entry.name === line.name;
  }
  return Boolean(me.incomplete) && me.incomplete.offset === offset && me.incomplete.name === line.name;
}

function entryRow(entry) {
  const you = isMine(entry);
  return h("tr", { class: you ? "mine" : "" },
    h("td", { class: "num", text: formatNumber(entry.place) }),
    h("th", { scope: "row", text: you ? `${entry.name} (${t("seat.you")})` : entry.name }),
    h("td", { class: "num", text: `${formatNumber(entry.percent)} %` }),
    h("td", { class: "num", text: formatNumber(entry.tops) }));
}

function incompleteItem(line, offset) {
  const you = isMine(line, offset);
  return h("li", { class: you ? "mine" : "" },
    `${you ? `${line.name} (${t("seat.you")})` : line.name}: `,
    t("event.standings.deals", { n: line.deals }));
}

function showWindow(doc) {
  clear($("#standings-body")).append(...doc.entries.map(entryRow));
  $("#standings-empty").hidden = doc.total > 0;
  $("#standings-table").hidden = doc.total === 0;
  clear($("#standings-incomplete")).append(
    ...doc.incomplete.map((line, i) => incompleteItem(line, doc.offset + i)));
  $("#standings-incomplete-box").hidden = doc.incomplete_total === 0;
  const end = Math.max(doc.total, doc.incomplete_total);
  $("#standings-pager").hidden = end <= STANDINGS_WINDOW;
  $("#standings-prev").disabled = doc.offset === 0;
  $("#standings-next").disabled = doc.offset + STANDINGS_WINDOW >= end;
  const me = state.me || {};
  const mine = me.entry ? me.entry.place - 1 : (me.incomplete ? me.incomplete.offset : null);
  $("#standings-mine").hidden = mine === null
    || (mine >= doc.offset && mine < doc.offset + STANDINGS_WINDOW);
}

async function turn(offset) {
  try {
    const doc = await eventStandingsWindow(GAME, WEEK, offset, state.own);
    state.offset = offset;
    showWindow(doc);
  } catch (e) {
    $("#standings-error").textContent = explain(e);
  }
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
    [doc, event, state.me] = await Promise.all([
      eventStandingsWindow(GAME, WEEK), eventOf(GAME, WEEK), eventMyPlace(GAME, WEEK)]);
    if (state.me.final && !doc.final) {
      // the published window (at most a minute old) from before the close: the app's instead
      state.own = true;
      doc = await eventStandingsWindow(GAME, WEEK, 0, true);
    }
  } catch (e) {
    $("#standings-error").textContent = explain(e);
    document.body.dataset.ready = "1";
    return;
  }
  $("#standings-dates").textContent = weekSpan(event);
  $("#standings-state").textContent = stateText(doc, event);
  const place = ownPlace(state.me);
  $("#standings-you").textContent = place;
  $("#standings-you").hidden = !place;
  showWindow(doc);
  $("#standings-prev").addEventListener("click",
    () => turn(Math.max(0, state.offset - STANDINGS_WINDOW)));
  $("#standings-next").addEventListener("click", () => turn(state.offset + STANDINGS_WINDOW));
  $("#standings-mine").addEventListener("click", () => {
    const me = state.me;
    const at = me.entry ? me.entry.place - 1 : me.incomplete.offset;
    turn(at - (at % STANDINGS_WINDOW));
  });
  if (event.closed) {
    clear($("#standings-seeds")).append(...seeds(event));
    $("#standings-seeds-box").hidden = false;
  }
  document.body.dataset.ready = "1";
}

main();
