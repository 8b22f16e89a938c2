// What the tournament's pages share (docs/EVENTS.md): the week's dates, a deal's field as a
// chart, the links of the page's game, and the seed's check against its commitment (F4e).

import { barChart } from "../lib/chart.js";
import { formatDate, signed, t } from "../lib/i18n.js";

const DAY_MS = 86400000;

// "Montag, 1. Juli 2030 – Sonntag, 7. Juli 2030": Monday to Sunday (ends_at is the next Monday).
export function weekSpan(event) {
  const sunday = new Date(Date.parse(event.ends_at) - DAY_MS).toISOString().slice(0, 10);
  return `${formatDate(event.opens_at.slice(0, 10))} – ${formatDate(sunday)}`;
}

// The field's scores on deal n ({score: players}), the player's own score marked.
export function fieldChart(distribution, n, mine = null) {
  const bars = Object.entries(distribution || {})
    .map(([score, count]) => ({ score: Number(score), count }))
    .sort((a, b) => a.score - b.score)
    .map(({ score, count }) => ({
      label: signed(score), value: count, mark: score === mine, markLabel: t("field.you"),
    }));
  return barChart(bars, { title: t("event.distribution", { n }) });
}

// The page's game (the body's data, from the registry): its daily pages' URL prefix ("" or
// "/gin") and the query that names it on the tournament's pages ("" or "?game=gin").
const PAGE = document.body.dataset;

export function playUrl(id) {
  return `${PAGE.prefix || ""}/play/${encodeURIComponent(id)}`;
}

export function replayUrl(id) {
  return `${PAGE.prefix || ""}/replay/${encodeURIComponent(id)}`;
}

// A tournament page's path of this page's game: `path` ("/turnier/2030-W27/stand") with its query.
export function eventPath(path) {
  return `${path}${PAGE.query || ""}`;
}

async function sha256Hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Says in `out` whether the published seed hashes to the commitment shown from the opening.
export async function checkSeed(deal, out) {
  if (!window.crypto || !crypto.subtle) {
    out.textContent = t("archive.noCrypto");
    return;
  }
  const ok = (await sha256Hex(deal.seed)) === deal.commitment;
  out.textContent = ok ? t("archive.checkOk") : t("archive.checkBad");
  out.dataset.ok = String(ok);
}
