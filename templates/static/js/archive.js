// The archive: past days with their published seed and commitment, a fairness check in the
// browser (SHA-256 of the seed must be the commitment, FORMATS.md F4), an unranked replay of the
// day and links to its rankings and finished games.

import { days as fetchDays, startPractice } from "./lib/api.js";
import { $, clear, h } from "./lib/dom.js";
import { explain } from "./lib/explain.js";
import { formatDate, formatNumber, t } from "./lib/i18n.js";
import { playerName } from "./lib/store.js";
import { chosenGame } from "./lib/switch.js";

// The game switch (docs/GIN_DAILY.md): ?game= lists a marked daily game's days; without it (null) the
// unmarked daily's.
const CHOSEN = chosenGame(new URLSearchParams(window.location.search));
const GAME = CHOSEN.game;

const LIMIT = 14;
let before = null;

async function sha256Hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function check(day, out) {
  if (!window.crypto || !crypto.subtle) {
    out.textContent = t("archive.noCrypto");
    return;
  }
  const ok = (await sha256Hex(day.seed)) === day.commitment;
  out.textContent = ok ? t("archive.checkOk") : t("archive.checkBad");
  out.dataset.ok = String(ok);
}

async function practice(date, out) {
  try {
    const name = playerName() || t("archive.guest");
    const id = await startPractice(date, name, GAME);
    window.location.href = `${CHOSEN.prefix}/play/${encodeURIComponent(id)}`;
  } catch (e) {
    out.textContent = explain(e);
  }
}

function dayItem(day) {
  const out = h("span", { class: "check-result", role: "status" });
  const players = day.attempts ?? day.players ?? 0;
  return h("li", { class: "day", dataset: { date: day.date } },
    h("h2", { text: formatDate(day.date) }),
    h("dl", { class: "facts" },
      h("div", {}, h("dt", { text: t("archive.players") }), h("dd", { text: formatNumber(players) })),
      h("div", { class: "wide" }, h("dt", { text: t("today.commitment") }),
        h("dd", {}, h("code", { class: "hash", text: day.commitment }))),
      h("div", { class: "wide" }, h("dt", { text: t("archive.seed") }),
        h("dd", {}, h("code", { class: "hash seed", text: day.seed || t("archive.seedPending") })))),
    h("p", { class: "day-actions" },
      day.seed ? h("button", { type: "button", class: "button small check",
        onclick: () => check(day, out), text: t("archive.check") }) : null,
      day.seed ? h("button", { type: "button", class: "button small practice",
        onclick: () => practice(day.date, out), text: t("archive.replay") }) : null,
      h("a", { class: "button small", href: `/rankings?date=${day.date}&tab=day${GAME ? `&game=${GAME}` : ""}`,
        text: t("archive.rankings") }),
      out),
    h("p", { class: "hint-text", text: t(`archive.replayHelp.${CHOSEN.name}`) }));
}

async function more() {
  let data;
  try {
    data = await fetchDays(LIMIT, before, GAME);
  } catch (e) {
    $("#archive-error").textContent = explain(e);
    return;
  }
  const days = data.days || [];
  const list = $("#days");
  if (before === null) clear(list);
  list.append(...days.map(dayItem));
  $("#days-empty").hidden = list.children.length > 0;
  if (days.length) before = days[days.length - 1].date;
  $("#older").hidden = days.length < LIMIT;
  document.body.dataset.ready = "1";
}

$("#older").addEventListener("click", more);
more();
