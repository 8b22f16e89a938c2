// Today's challenge: the day's facts, a countdown to the next one, and start or continue.

import {
  ApiError, attempt as fetchAttempt, myStats, startAttempt as start, today,
} from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { explain, explainRankedStart } from "../lib/explain.js";
import { formatDate, formatNumber, t } from "../lib/i18n.js";
import { attemptKey, forget, load, playerName, save } from "../lib/store.js";

function playUrl(id) {
  return `/play/${encodeURIComponent(id)}`;
}

// Counts down to the day's end (API's ends_at). A day is never longer than 24 hours, so a
// browser clock that disagrees with the server's is clamped instead of shown as nonsense.
function countdown(day) {
  const [y, m, d] = day.date.split("-").map(Number);
  const next = day.ends_at ? Date.parse(day.ends_at) : Date.UTC(y, m - 1, d + 1);
  let wasRunning = false;
  const tick = () => {
    const left = Math.min(86400000, Math.max(0, next - Date.now()));
    const s = Math.floor(left / 1000);
    const pad = (n) => String(n).padStart(2, "0");
    $("#countdown").textContent = `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
    if (left > 0) wasRunning = true;
    else if (wasRunning) window.location.reload();
  };
  tick();
  setInterval(tick, 1000);
}

async function offerContinue(date) {
  const id = load(attemptKey(date));
  if (!id) return false;
  try {
    const attempt = await fetchAttempt(id);
    const finished = attempt.status === "finished";
    $("#continue-text").textContent = t(finished ? "today.finishedAs" : "today.runningAs",
      { name: attempt.name });
    $("#continue-link").textContent = t(finished ? "today.seeResult" : "today.continue");
    $("#continue-link").href = playUrl(id);
    $("#continue").hidden = false;
    $("#start-form").hidden = true;
    return true;
  } catch (e) {
    forget(attemptKey(date));
    return false;
  }
}

async function startAttempt(date) {
  const name = $("#name").value.trim();
  const error = $("#start-error");
  error.textContent = "";
  if (!name) {
    error.textContent = t("today.nameMissing");
    $("#name").focus();
    return;
  }
  $("#start-button").disabled = true;
  try {
    const id = await start(date, name);
    save(attemptKey(date), id);
    save("name", name);
    window.location.href = playUrl(id);
  } catch (e) {
    if (e instanceof ApiError && e.code === "attempt_exists" && e.detail.attempt_id) {
      save(attemptKey(date), e.detail.attempt_id);
      window.location.href = playUrl(e.detail.attempt_id);
      return;
    }
    error.textContent = explain(e);
    $("#start-button").disabled = false;
  }
}

// The player's streak in the daily game, kept on the server (GET /api/me/stats).
async function showStreak() {
  try {
    const streak = (await myStats()).streaks.pikdame;
    if (!streak.best) return;
    $("#streak").textContent = t("streak.line", { current: streak.current, best: streak.best });
    $("#streak").hidden = false;
  } catch (e) {
    // The streak is a nicety: the start page works without it.
  }
}

async function main() {
  let day;
  try {
    day = await today();
  } catch (e) {
    $("#start-error").textContent = explain(e);
    return;
  }
  $("#day-date").textContent = formatDate(day.date);
  $("#day-players").textContent = formatNumber(day.attempts);
  $("#day-commitment").textContent = day.commitment;
  countdown(day);
  const note = explainRankedStart(day);
  $("#ranked-note").textContent = note;
  $("#ranked-note").hidden = !note;
  $("#name").value = playerName();
  $("#start-form").addEventListener("submit", (e) => {
    e.preventDefault();
    startAttempt(day.date);
  });
  await Promise.all([offerContinue(day.date), showStreak()]);
  document.body.dataset.ready = "1";
}

main();
