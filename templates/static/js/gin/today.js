// The daily page's Gin Rommé part (docs/GIN_DAILY.md): today's Gin match, the same for everyone
// against the strong computer, with its commitment; start (one ranked attempt per day) or go on.

import { ApiError, attempt as fetchAttempt, startAttempt, today } from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { explain, explainRankedStart } from "../lib/explain.js";
import { formatNumber, t } from "../lib/i18n.js";
import { attemptKey, forget, load, playerName, save } from "../lib/store.js";

const playUrl = (id) => `/gin/play/${encodeURIComponent(id)}`;

async function offerContinue(date) {
  const id = load(attemptKey(date, "gin"));
  if (!id) return;
  try {
    const attempt = await fetchAttempt(id);
    const finished = attempt.status === "finished";
    $("#gin-continue-text").textContent = t(finished ? "today.finishedAs" : "today.runningAs", { name: attempt.name });
    $("#gin-continue-link").textContent = t(finished ? "today.seeResult" : "today.continue");
    $("#gin-continue-link").href = playUrl(id);
    $("#gin-continue").hidden = false;
    $("#gin-start-form").hidden = true;
  } catch (e) {
    forget(attemptKey(date, "gin"));
  }
}

async function start(date) {
  const name = $("#gin-name").value.trim();
  const error = $("#gin-start-error");
  error.textContent = "";
  if (!name) {
    error.textContent = t("today.nameMissing");
    $("#gin-name").focus();
    return;
  }
  $("#gin-start-button").disabled = true;
  try {
    const id = await startAttempt(date, name, "gin");
    save(attemptKey(date, "gin"), id);
    save("name", name);
    window.location.href = playUrl(id);
  } catch (e) {
    if (e instanceof ApiError && e.code === "attempt_exists" && e.detail.attempt_id) {
      save(attemptKey(date, "gin"), e.detail.attempt_id);
      window.location.href = playUrl(e.detail.attempt_id);
      return;
    }
    error.textContent = explain(e);
    $("#gin-start-button").disabled = false;
  }
}

async function main() {
  let day;
  try {
    day = await today("gin");
    if (day.game !== "gin") throw new Error("no Gin daily on this server");
  } catch (e) {
    // not offered by this server (yet): the section says so
    $("#gin-daily-error").textContent = t("gin.daily.unavailable");
    document.body.dataset.ginReady = "1";
    return;
  }
  $("#gin-daily-body").hidden = false;
  $("#gin-day-players").textContent = formatNumber(day.attempts);
  $("#gin-day-commitment").textContent = day.commitment;
  $("#gin-name").value = playerName();
  const note = explainRankedStart(day);
  $("#gin-ranked-note").textContent = note;
  $("#gin-ranked-note").hidden = !note;
  $("#gin-start-form").addEventListener("submit", (e) => {
    e.preventDefault();
    start(day.date);
  });
  await offerContinue(day.date);
  document.body.dataset.ginReady = "1";
}

main();
