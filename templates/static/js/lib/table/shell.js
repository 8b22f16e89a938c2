// What every table page shares around its game (docs/TABLES.md): the waiting room with the invite
// link and its copy button, starting the table, the turn's countdown, the rematch, loading the
// table, following its event stream and the table that follows it. Each game's page
// (static/js/<game>/table.js) brings its board, its seats' names and what a table or a stream
// message does.

import { rematchTable, startTable, table as fetchTable, tableEvents } from "../api.js";
import { $, clear, copyField, h } from "../dom.js";
import { explain } from "../explain.js";
import { t } from "../i18n.js";
import { createNotice } from "./notice.js";
import { gameOptions, rulesSummary } from "./summary.js";
import { createTalk } from "./talk.js";

// tableId: the page's table; nameOf(seat): a seat's name in sentences; say(text, kind): the
// board's message line; show(T): keep a table answered by the server and draw it.
export function createShell(tableId, { nameOf, say, show }) {
  // follower: the table that follows this one, once known; leaving: this page makes one itself
  // (a rematch, a repeat) and goes there on its own.
  const state = {
    table: null, seq: 0, queue: Promise.resolve(), deadline: null, countdownEnd: 0,
    follower: null, leaving: false, loaded: false, offered: null,
  };
  const me = () => state.table.seat;
  const notice = createNotice(tableId); // the player's turn in the tab's title, icon, tone
  const talk = createTalk(tableId, nameOf); // presence, ratings, phrases, rating changes

  // Work on the table one step at a time: stream messages and answers to own requests in order.
  function enqueue(step) {
    state.queue = state.queue.then(step).catch((e) => say(explain(e), "error"));
    return state.queue;
  }

  // A table at least as new as the one kept replaces it (a late answer changes nothing).
  function keep(T) {
    if (!state.table || T.seq >= state.seq) {
      state.table = T;
      state.seq = T.seq;
      notice.update(T);
      talk.update(T);
    }
    noteFollower();
  }

  // The table that follows this one (T.rematch, Gin's T.repeated), made by any seated player:
  // named under the standings with a link, and when it appears while the page is open (the
  // stream's message) every seated player goes there at once, with the same seat and session.
  function noteFollower() {
    const T = state.table;
    const next = T.rematch || T.repeated || null;
    if (!next || next === state.follower) return;
    state.follower = next;
    $("#follower").hidden = T.seat === null;
    $("#follower-text").textContent = t(T.rematch ? "tables.follower.rematch" : "tables.follower.repeat");
    $("#follower-link").href = `/tables/${next}`;
    document.body.dataset.follower = next;
    if (state.loaded && T.seat !== null && !state.leaving) {
      state.leaving = true;
      say(t("tables.follower.moving"));
      window.location.assign(`/tables/${next}`);
    }
  }

  // seatText(seat): the seat's line; seatExtra(seat): what follows it (presence), or null;
  // startNote: the creator's hint (an i18n key taking the open seats' number n).
  function renderWaiting({ seatText, seatExtra = () => null, startNote }) {
    const T = state.table;
    const link = `${window.location.origin}/t/${T.invite}`;
    if ($("#invite-link").value !== link) $("#invite-link").value = link;
    const summary = $("#waiting-summary");
    if (!summary.firstChild) summary.append(rulesSummary(T.game, T.rules, state.offered)); // never changes
    clear($("#waiting-seats")).append(...T.seats.map((s, seat) => h("li", {
      class: `waiting-seat${s.kind === "human" && !s.name ? " open" : ""}`, dataset: { seat: String(seat) },
    }, h("span", { class: "seat-no", text: String(seat + 1) }), h("span", { text: seatText(seat) }),
    seat === me() ? h("span", { class: "flag", text: t("seat.you") }) : null, seatExtra(seat))));
    const open = T.seats.filter((s) => s.kind === "human" && !s.name).length;
    const creator = me() === T.creator;
    $("#start-button").hidden = !creator;
    $("#waiting-note").textContent = creator ? t(startNote, { n: open })
      : t("tables.waitForStart", { name: nameOf(T.creator) });
  }

  async function start() {
    $("#start-button").disabled = true;
    try {
      show(await startTable(tableId));
    } catch (e) {
      $("#waiting-error").textContent = explain(e);
    }
    $("#start-button").disabled = false;
  }

  // The turn timer for everyone. The deadline and T.now are the server's clock; the page counts
  // the time left between them down from when it learnt it (at most the rule's seconds), so a
  // browser clock set wrong still shows the server's countdown.
  function renderCountdown() {
    const T = state.table;
    const box = $("#countdown");
    if (!T || !T.deadline || T.status !== "playing") {
      box.hidden = true;
      return;
    }
    if (state.deadline !== T.deadline) {
      state.deadline = T.deadline;
      // The server's time left (deadline − T.now, both the server's clock), counted down on ours.
      const serverNow = T.now ? Date.parse(T.now) : Date.now();
      const left = (Date.parse(T.deadline) - serverNow) / 1000;
      state.countdownEnd = Date.now() + 1000 * Math.max(0, Math.min(T.rules.turn_timer, left));
    }
    const left = Math.max(0, Math.ceil((state.countdownEnd - Date.now()) / 1000));
    box.hidden = false;
    box.textContent = t("tables.countdown", { name: nameOf(T.turn), n: left });
    box.classList.toggle("urgent", left <= 10);
  }

  // A rematch: the same seats and rules at a new table (every human keeps their seat); the first
  // to ask makes it, everyone else is led to the same one (T.rematch, also from the stream).
  async function rematch(errorBox) {
    $("#rematch").disabled = true;
    state.leaving = true;
    try {
      const next = await rematchTable(tableId);
      window.location.assign(`/tables/${next.id}`);
    } catch (e) {
      state.leaving = false;
      $(errorBox).textContent = explain(e);
      $("#rematch").disabled = false;
    }
  }

  // The waiting room's and the standings' buttons; errorBox: where a failed rematch says why.
  function wire({ errorBox }) {
    $("#invite-copy").addEventListener("click", async () => {
      $("#invite-done").textContent = t((await copyField($("#invite-link"))) ? "share.copied" : "share.selectHint");
    });
    $("#start-button").addEventListener("click", start);
    $("#rematch").addEventListener("click", () => rematch(errorBox));
  }

  // The table as it stands; false (and the page's load error shown) when it cannot be had.
  async function load() {
    try {
      keep(await fetchTable(tableId)); // a follower named already is offered, not followed
      state.offered = await gameOptions(state.table.game); // what the waiting room's summary shows
      state.loaded = true;
      return true;
    } catch (e) {
      $("#load-error").hidden = false;
      $("#load-error").append(h("p", { text: explain(e) }));
      return false;
    }
  }

  // A seated player follows the table live (EventSource reconnects; lib/api.js tableEvents),
  // a finished one too until it names the table that follows it; onMessage(message) runs in
  // turn with the page's own steps. The countdown ticks for everyone.
  function follow(onMessage) {
    if (state.table.seat !== null && (state.table.status !== "finished" || !state.follower)) {
      tableEvents(tableId, state.seq, (message) => enqueue(() => onMessage(message)),
        (s) => { document.body.dataset.stream = s; }, (p) => talk.hear(p));
    }
    setInterval(renderCountdown, 250);
    document.body.dataset.ready = "1";
  }

  return { state, me, enqueue, keep, renderWaiting, renderCountdown, wire, load, follow };
}
