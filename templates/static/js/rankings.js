// Rankings: today, any past day, all-time and "around me", paged (API.md leaderboards).

import { allTimeBoard, aroundBoard, dayBoard, today } from "./lib/api.js";
import { $, $$, clear, h } from "./lib/dom.js";
import { explain } from "./lib/explain.js";
import { formatDate, formatNumber, signed, t } from "./lib/i18n.js";
import { attemptKey, load } from "./lib/store.js";
import { chosenGame } from "./lib/switch.js";

const LIMIT = 20;
const params = new URLSearchParams(window.location.search);
// The game switch (docs/GIN_DAILY.md): ?game= names a marked daily game's boards; without it
// (null) the unmarked daily's.
const CHOSEN = chosenGame(params);
const GAME = CHOSEN.game;
const replayUrl = (id) => `${CHOSEN.prefix}/replay/${encodeURIComponent(id)}`;
const state = { tab: "today", date: null, today: null, offset: 0, around: params.get("around") };

function head(columns) {
  clear($("#board-head")).append(h("tr", {},
    columns.map((c) => h("th", { scope: "col", class: c.num ? "num" : "", text: t(c.key) }))));
}

function nameCell(entry, date) {
  const closed = date && state.today && date < state.today;
  const mine = state.around && entry.attempt_id === state.around;
  return h("td", { class: mine ? "mine" : "" },
    closed && entry.attempt_id
      ? h("a", { href: replayUrl(entry.attempt_id), text: entry.name,
        title: t("rankings.watch") })
      : entry.name);
}

function dayRows(entries, date) {
  return entries.map((e) => h("tr", { class: state.around === e.attempt_id ? "mine" : "" },
    h("td", { class: "num", text: String(e.rank) }), nameCell(e, date),
    h("td", { class: "num", text: signed(e.score) }),
    h("td", { class: "num", text: formatNumber(e.turns) })));
}

function allTimeRows(entries) {
  return entries.map((e) => h("tr", {},
    h("td", { class: "num", text: String(e.rank) }), h("td", { text: e.name }),
    h("td", { class: "num", text: signed(e.total) }),
    h("td", { class: "num", text: formatNumber(e.days) }),
    h("td", { class: "num", text: signed(e.best) })));
}

function pager(total, paged) {
  $("#prev").disabled = !paged || state.offset === 0;
  $("#next").disabled = !paged || state.offset + LIMIT >= total;
  const pages = Math.max(1, Math.ceil(total / LIMIT));
  $("#page-info").textContent = paged
    ? t("rankings.page", { page: Math.floor(state.offset / LIMIT) + 1, pages }) : "";
}

const DAY_COLUMNS = [{ key: "rankings.rank", num: true }, { key: "rankings.name" },
  { key: "rankings.score", num: true }, { key: `rankings.tiebreak.${CHOSEN.tieBreak}`, num: true }];

async function show() {
  $$("[role=tab]").forEach((tab) => tab.setAttribute("aria-selected",
    String(tab.dataset.tab === state.tab)));
  $("#day-form").hidden = state.tab !== "day";
  const body = clear($("#board-body"));
  $("#board-empty").hidden = true;
  let data;
  try {
    if (state.tab === "alltime") {
      $("#board-title").textContent = t("rankings.tab.alltime");
      head([{ key: "rankings.rank", num: true }, { key: "rankings.name" },
        { key: "rankings.sum", num: true }, { key: "rankings.days", num: true },
        { key: "rankings.best", num: true }]);
      data = await allTimeBoard(state.offset, LIMIT, GAME);
      body.append(...allTimeRows(data.entries));
      pager(data.total ?? data.entries.length, true);
    } else if (state.tab === "around") {
      const id = state.around || load(attemptKey(state.today, GAME));
      $("#board-title").textContent = t("rankings.tab.around");
      head(DAY_COLUMNS);
      if (!id) {
        $("#board-total").textContent = t("rankings.noAttempt");
        pager(0, false);
        return;
      }
      state.around = id;
      const date = state.date || state.today;
      data = await aroundBoard(date, id, 5, GAME);
      body.append(...dayRows(data.entries, data.date || date));
      pager(0, false);
    } else {
      // "Tag wählen" without a chosen day shows today's board until a day is picked
      const date = state.tab === "today" ? state.today : state.date || state.today;
      if (!date) return;
      if (state.tab === "day") $("#day-input").value = date;
      $("#board-title").textContent = formatDate(date);
      head(DAY_COLUMNS);
      data = await dayBoard(date, state.offset, LIMIT, GAME);
      if (data.provisional) {
        $("#board-title").append(" ", h("span", { class: "flag", id: "provisional",
          text: t("rankings.provisional") }));
      }
      body.append(...dayRows(data.entries, date));
      pager(data.total, true);
    }
  } catch (e) {
    $("#board-total").textContent = explain(e);
    pager(0, false);
    return;
  }
  // The all-time board counts players, a day's board its verified games.
  $("#board-total").textContent = data.total === undefined ? ""
    : t(state.tab === "alltime" ? "rankings.players" : "rankings.total", { n: data.total });
  $("#board-empty").hidden = data.entries.length > 0;
  document.body.dataset.ready = "1";
}

function select(tab) {
  state.tab = tab;
  state.offset = 0;
  show();
}

async function main() {
  try {
    state.today = (await today(GAME)).date;
  } catch (e) {
    state.today = new Date().toISOString().slice(0, 10);
  }
  $("#day-input").max = state.today;
  state.date = params.get("date");
  if (params.get("tab")) state.tab = params.get("tab");
  else if (state.around) state.tab = "around";
  else if (state.date && state.date !== state.today) state.tab = "day";
  if (state.date) $("#day-input").value = state.date;
  $$("[role=tab]").forEach((tab) => tab.addEventListener("click", () => select(tab.dataset.tab)));
  $("#tab-today").closest("[role=tablist]").addEventListener("keydown", (e) => {
    const tabs = $$("[role=tab]");
    const i = tabs.indexOf(document.activeElement);
    if (i < 0 || (e.key !== "ArrowRight" && e.key !== "ArrowLeft")) return;
    const next = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    next.focus();
    select(next.dataset.tab);
  });
  $("#day-form").addEventListener("submit", (e) => {
    e.preventDefault();
    state.date = $("#day-input").value;
    state.offset = 0;
    show();
  });
  $("#prev").addEventListener("click", () => { state.offset = Math.max(0, state.offset - LIMIT); show(); });
  $("#next").addEventListener("click", () => { state.offset += LIMIT; show(); });
  await show();
}

main();
