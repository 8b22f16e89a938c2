// The seats drawn around a table (issue 41), game-neutral: the player sits at the bottom, the
// other seats in playing order clockwise from the player's left (RULES.md: play passes from seat
// i to seat i+1): two seats face each other; of three, the next sits left and the last right;
// of four, left, opposite, right. And a human seat's presence mark.

import { clear, h } from "../dom.js";
import { t } from "../i18n.js";

const PLACES = { 2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"] };

// Where `seat` sits seen from `me` (null: a visitor, who sees the table from seat 0) at a table
// of `n` seats: "top", "left" or "right" ("bottom" for the player's own seat).
export function placeOf(seat, me, n) {
  const k = (seat - (me ?? 0) + n) % n;
  if (k === 0) return "bottom";
  return (PLACES[n] || [])[k - 1] || "top";
}

// A seated human's presence (online or not); null for a bot or an open seat.
export function presenceMark(s, seat) {
  if (s.kind !== "human" || !s.name) return null;
  const label = t(s.connected ? "tables.online" : "tables.offline");
  return h("span", { class: `presence ${s.connected ? "on" : "off"}`, role: "img", "aria-label": label,
    title: label, dataset: { presence: String(seat) } });
}

// The player's own seat at the bottom, on its plate above the hand (every seat in its place):
// its name with "Du" (only "Du" where it has none, the daily), the turn's mark (`flag`, the
// game's words) and its score where the page keeps one. None for a visitor (`seated` false).
export function renderOwnPlate(plate, { seated, name = null, toMove, flag, score = null }) {
  if (!plate) return;
  plate.hidden = !seated;
  if (!seated) return;
  plate.classList.toggle("to-move", toMove);
  clear(plate).append(...[
    h("span", { class: "own-name", text: name ? `${name} (${t("seat.you")})` : t("seat.you") }),
    toMove ? h("span", { class: "turn-flag", text: flag }) : null,
    score === null ? null : h("span", { class: "seat-score", text: score }),
  ].filter(Boolean));
}
