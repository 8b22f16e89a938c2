// The pace at which the other seats' moves are played out on a table, chosen by the player
// (the "Tempo" select, templates/_speed.html) and kept in the browser: the pause per move in ms.
// lib/fly.js's cards fly in this time; at the fastest pace nothing flies.

import { load, save } from "./store.js";

export const SPEEDS = { slow: 1000, normal: 450, fast: 180, veryfast: 15 };

export function delay() {
  return SPEEDS[load("speed", "normal")] ?? SPEEDS.normal;
}

// The page's select (#speed) shows the kept pace and keeps the player's choice.
export function wirePace(select) {
  select.value = load("speed", "normal");
  select.addEventListener("change", (e) => save("speed", e.target.value));
}
