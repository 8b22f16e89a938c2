// A lost connection, shown and cleared by itself (docs/TABLES.md "Lost connection"): every API
// call and live stream (lib/api.js) reports whether the server answered. Without an answer for
// GRACE_MS (a stream's planned reconnect takes 2 s and is no loss), and /healthz not answering
// either, a banner says the connection is lost and that the page keeps trying; while it shows, the page asks /healthz every PROBE_MS,
// and the first answer from the server clears it, together with every line that said only that
// the network failed (stale once the server answers again: issue 38).

import { t } from "./i18n.js";

const GRACE_MS = 3000;
const PROBE_MS = 3000;
const state = { timer: null, probe: null, shown: false };

function banner() {
  let box = document.getElementById("connection-banner");
  if (!box) {
    box = document.createElement("div");
    box.id = "connection-banner";
    box.className = "connection-banner";
    box.setAttribute("role", "status");
    box.hidden = true;
    document.body.prepend(box);
  }
  return box;
}

// After GRACE_MS without an answer the server is asked once: a stream slow to come back on a
// busy server is no lost connection (the banner would only flash).
async function check() {
  state.timer = null;
  if (navigator.onLine !== false) {
    try {
      const response = await fetch("/healthz", { cache: "no-store", credentials: "same-origin" });
      if (reached(response.status)) return;
    } catch (e) {
      // unreachable: the banner shows
    }
  }
  show();
}

function show() {
  state.shown = true;
  const box = banner();
  box.textContent = t("connection.lost");
  box.hidden = false;
  document.body.dataset.connection = "lost";
  state.probe ??= setInterval(probe, PROBE_MS);
}

// Any answer of the server's own (not a proxy's 502/504) means it is reachable again.
async function probe() {
  try {
    const response = await fetch("/healthz", { cache: "no-store", credentials: "same-origin" });
    if (reached(response.status)) back();
  } catch (e) {
    // still unreachable: the next probe asks again
  }
}

// Whether an HTTP status came from the service: a front without its upstream answers 502/504.
export const reached = (status) => status !== 502 && status !== 504;

// The server did not answer (a failed request, a stream that dropped).
export function lost() {
  if (state.shown || state.timer !== null) return;
  state.timer = setTimeout(check, navigator.onLine === false ? 0 : GRACE_MS);
}

// The server answered: the banner, and the error lines that only said so, go.
export function back() {
  clearTimeout(state.timer);
  state.timer = null;
  if (state.probe !== null) clearInterval(state.probe);
  state.probe = null;
  if (!state.shown) return;
  state.shown = false;
  banner().hidden = true;
  document.body.dataset.connection = "ok";
  const stale = t("err.network");
  for (const line of document.querySelectorAll(".error, .status, [role=alert], [data-kind=error]")) {
    if (line.textContent.trim() === stale) line.textContent = "";
  }
}

window.addEventListener("offline", lost);
window.addEventListener("online", () => { if (state.shown) probe(); });
