// The week's tournament (docs/EVENTS.md): the week, the time left, the caller's progress
// ("Blatt 3 von 6"), the start of the next deal (played on the daily's table page), and every
// deal's commitment with the caller's result on it against the field and the field's scores.

import { ApiError, eventOf, eventStandingsWindow, startEventDeal } from "../lib/api.js";
import { $, clear, h } from "../lib/dom.js";
import { explain } from "../lib/explain.js";
import { formatNumber, signed, t } from "../lib/i18n.js";
import { playerName, save } from "../lib/store.js";
import { checkSeed, eventPath, fieldChart, playUrl, replayUrl, weekSpan } from "./shared.js";

const GAME = document.body.dataset.game;

function countdown(event) {
  const out = $("#event-left");
  if (event.closed) {
    out.textContent = t("event.closed");
    return;
  }
  const end = Date.now() + event.seconds_left * 1000;
  const pad = (n) => String(n).padStart(2, "0");
  let wasRunning = false;
  const tick = () => {
    const s = Math.max(0, Math.floor((end - Date.now()) / 1000));
    if (s === 0) {
      out.textContent = t("event.ended");
      if (wasRunning) window.location.reload();
      return;
    }
    wasRunning = true;
    const time = `${pad(Math.floor(s / 3600) % 24)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
    const days = Math.floor(s / 86400);
    out.textContent = days ? t("event.leftDays", { days, time }) : time;
  };
  tick();
  setInterval(tick, 1000);
}

function progressText(progress, of) {
  if (!progress) return t("event.progressValue", { n: 1, of });
  if (progress.next === null) return t("event.progressDone", { of });
  return t("event.progressValue", { n: progress.next, of });
}

// The start box: continue the running deal, start the next one, or say why neither.
function offerStart(event) {
  const progress = event.progress;
  const running = progress ? progress.deals.find((d) => d.status !== "finished") : null;
  const form = $("#event-start-form");
  form.hidden = true;
  if (running && !event.closed) {
    $("#event-continue-text").textContent = t("event.running", { n: running.n });
    $("#event-continue-link").href = playUrl(running.attempt_id);
    $("#event-continue-link").textContent = t("event.continue", { n: running.n });
    $("#event-continue").hidden = false;
    return;
  }
  if (event.closed || event.seconds_left === 0) {
    $("#event-not-open").hidden = false;
    return;
  }
  if (progress && progress.next === null) {
    $("#event-done").hidden = false;
    return;
  }
  const n = progress ? progress.next : 1;
  $("#event-start-button").textContent = t("event.start", { n });
  $("#event-name").value = playerName();
  form.hidden = false;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    start(event.week);
  });
}

async function start(week) {
  const name = $("#event-name").value.trim();
  const error = $("#event-start-error");
  error.textContent = "";
  if (!name) {
    error.textContent = t("today.nameMissing");
    $("#event-name").focus();
    return;
  }
  $("#event-start-button").disabled = true;
  try {
    const made = await startEventDeal(GAME, week, name);
    save("name", name);
    window.location.href = playUrl(made.attempt.id);
  } catch (e) {
    if (e instanceof ApiError && e.code === "deal_running" && e.detail.attempt) {
      window.location.href = playUrl(e.detail.attempt);
      return;
    }
    error.textContent = explain(e);
    $("#event-start-button").disabled = false;
  }
}

function statusText(mine) {
  if (!mine) return t("event.notPlayed");
  if (mine.status !== "finished") return t(mine.ranked && mine.result ? "event.abandoned" : "event.playing");
  const played = t("event.played", { score: signed(mine.score) });
  if (!mine.ranked) return `${played} · ${t("event.unranked")}`;
  const v = mine.verification;
  if (v === "verified") return `${played} · ${t("verify.verified")}`;
  if (v === "rejected") return `${played} · ${t("event.rejected")}`;
  return `${played} · ${t("verify.queued")}`;
}

function dealItem(deal, mine, distribution) {
  const result = mine ? mine.result : null;
  const item = h("li", { class: "event-deal", id: `deal-${deal.n}`, dataset: { n: deal.n } },
    h("h3", { text: t("event.deal", { n: deal.n }) }),
    h("p", { class: "deal-status", text: statusText(mine) }));
  if (result) {
    item.append(
      h("p", { class: "deal-result" },
        h("strong", { text: t("event.beaten", { percent: formatNumber(result.percent) }) }), " ",
        h("span", { class: "hint-text", text: result.others ? t("field.beaten",
          { beaten: result.beaten, others: result.others, ties: result.tied }) : t("event.alone") })));
    if (distribution) item.append(fieldChart(distribution, deal.n, result.score));
  }
  if (mine && mine.status === "finished") {
    item.append(h("p", {}, h("a", { href: replayUrl(mine.attempt_id),
      text: t(deal.seed ? "event.replayAnalysis" : "event.replay") })));
  }
  item.append(h("p", { class: "deal-commitment" },
    h("span", { class: "hint-text", text: `${t("today.commitment")}: ` }),
    h("code", { class: "hash", text: deal.commitment })));
  if (deal.seed) {
    const check = h("span", { class: "hint-text seed-check" });
    item.append(h("p", {}, h("span", { class: "hint-text", text: `${t("archive.seed")}: ` }),
      h("code", { class: "hash", text: deal.seed }), " ", check));
    checkSeed(deal, check);
  }
  return item;
}

async function main() {
  let event;
  try {
    event = await eventOf(GAME, document.body.dataset.week || null);
  } catch (e) {
    $("#event-error").textContent = explain(e);
    document.body.dataset.ready = "1";
    return;
  }
  $("#event-week").textContent = event.week;
  $("#event-dates").textContent = weekSpan(event);
  $("#event-progress").textContent = progressText(event.progress, event.deals.length);
  $("#event-standings-link").href = eventPath(`/turnier/${encodeURIComponent(event.week)}/stand`);
  countdown(event);
  offerStart(event);
  const mine = new Map((event.progress ? event.progress.deals : []).map((d) => [d.n, d]));
  let distributions = [];
  if ([...mine.values()].some((d) => d.result)) {
    try {
      // every window carries them: the first one is a published file (no credentials)
      distributions = (await eventStandingsWindow(GAME, event.week)).distributions;
    } catch (e) {
      $("#event-error").textContent = explain(e);
    }
  }
  clear($("#event-deals")).append(...event.deals.map(
    (deal) => dealItem(deal, mine.get(deal.n), distributions[deal.n - 1])));
  document.body.dataset.ready = "1";
}

main();
