// What every table page shares around its game (docs/TABLES.md): the waiting room with the invite
// link and its copy button, starting the table, the turn's countdown, the rematch, loading the
// table, following its event stream and the table that follows it. Each game's page
// (static/js/<game>/table.js) brings its board, its seats' names and what a table or a stream
// message does.

import {
  acceptRematch, declineRematch, declineResign, rematchTable, resignTable, startTable,
  table as fetchTable, tableEvents,
} from "../api.js";
import { $, clear, copyField, h } from "../dom.js";
import { explain } from "../explain.js";
import { t } from "../i18n.js";
import { createNotice } from "./notice.js";
import { gameOptions, rulesSummary } from "./summary.js";
import { createTalk } from "./talk.js";

const WATCH_MS = 4000; // how often a visitor's page reads a watched game again
// A stream message of more moves than this per other seat is a backlog, drawn at once: a few
// turns each (Pik Dame's bot turn: a draw, melds, lay-offs, a discard) stay played out.
const BACKLOG_PER_SEAT = 12;

// tableId: the page's table; nameOf(seat): a seat's name in sentences; say(text, kind): the
// board's message line; show(T): keep a table answered by the server and draw it.
export function createShell(tableId, { nameOf, say, show }) {
  // follower: the table that follows this one, once known; leaving: this page makes one itself
  // (a rematch, a repeat) and goes there on its own.
  const state = {
    table: null, seq: 0, queue: Promise.resolve(), deadline: null, countdownEnd: 0,
    follower: null, leaving: false, loaded: false, offered: null, busy: false,
  };
  const me = () => state.table.seat;
  const notice = createNotice(tableId); // the player's turn in the tab's title, icon, tone
  // presence, ratings, an away seat's countdown and claim, phrases, rating changes
  const talk = createTalk(tableId, nameOf, (T) => show(T));

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
    const consent = renderConsent();
    $("#start-button").hidden = !creator;
    $("#start-button").disabled = state.busy;
    $("#waiting-note").textContent = creator ? t(startNote, { n: open })
      : t("tables.waitForStart", { name: nameOf(T.creator) });
    if (!consent) return;
    // A rematch starts only once every human seat accepted: strangers' by itself, friends' by
    // the creator's start (which is the creator's own consent), never after a decline.
    const others = consent.waiting.filter((seat) => seat !== T.creator);
    const strangers = Boolean(T.public || T.matched);
    $("#start-button").hidden = !creator || strangers || consent.declined !== null;
    $("#start-button").disabled = state.busy || others.length > 0;
    let note = "tables.waitForStart";
    if (consent.declined !== null) note = "tables.rematchOver";
    else if (strangers) note = "tables.rematchStartsItself";
    else if (creator) note = others.length ? "tables.startAfterConsent" : null;
    $("#waiting-note").textContent = note === null ? t(startNote, { n: open })
      : t(note, { name: nameOf(T.creator), waiting: others.map(nameOf).join(", "), n: others.length });
  }

  // A rematch's waiting room (T.rematch_agreed): who has accepted, who still has to, and this
  // seat's accept and decline; null at a table that is no rematch.
  function renderConsent() {
    const T = state.table;
    const agreed = T.rematch_agreed;
    const box = $("#rematch-consent");
    box.hidden = !agreed;
    if (!agreed) return null;
    const humans = T.seats.map((s, seat) => (s.kind === "human" && s.name ? seat : null))
      .filter((seat) => seat !== null);
    const waiting = humans.filter((seat) => !agreed.includes(seat));
    const declined = T.rematch_declined ?? null;
    box.dataset.declined = declined === null ? "" : String(declined);
    $("#rematch-consent-text").textContent = declined !== null
      ? t("tables.rematchDeclined", { name: nameOf(declined) })
      : t("tables.rematchWaiting", {
        agreed: agreed.map(nameOf).join(", "), waiting: waiting.map(nameOf).join(", "), n: waiting.length,
      });
    $("#rematch-answer").hidden = declined !== null || me() === null || agreed.includes(me());
    $("#rematch-accept").disabled = state.busy;
    $("#rematch-decline").disabled = state.busy;
    return { waiting, declined };
  }

  // One request of the waiting room at a time (start, accept, decline); its answer is shown.
  async function act(request) {
    state.busy = true;
    show(state.table);
    $("#waiting-error").textContent = "";
    try {
      show(await request(tableId));
    } catch (e) {
      $("#waiting-error").textContent = explain(e);
    }
    state.busy = false;
    show(state.table);
  }

  const start = () => act(startTable);

  // A resign proposal (R8, T.pending_resign): who proposed, who still has to agree, this seat's
  // "Zustimmen" and "Ablehnen" (the proposer's "no" withdraws it); after a decline
  // (T.resign_declined), who said no, until the next proposal.
  function renderResign() {
    const T = state.table;
    const agreed = T.pending_resign;
    const box = $("#resign-box");
    const declined = T.resign_declined ?? null;
    box.hidden = !(T.status === "playing" && ((agreed && agreed.length) || declined !== null));
    if (box.hidden) return;
    if (!agreed || !agreed.length) {
      $("#resign-text").textContent = t("tables.resignDeclined", { name: nameOf(declined) });
      $("#resign-agree").hidden = true;
      $("#resign-decline").hidden = true;
      return;
    }
    const humans = T.seats.map((s, seat) => (s.kind === "human" ? seat : null)).filter((s) => s !== null);
    const waiting = humans.filter((seat) => !agreed.includes(seat));
    $("#resign-text").textContent = t("tables.resignProposed", {
      name: nameOf(agreed[0]), waiting: waiting.map(nameOf).join(", "), n: waiting.length,
    });
    $("#resign-agree").hidden = me() === null || agreed.includes(me());
    $("#resign-decline").hidden = me() === null;
  }

  // This seat's answer to the proposal; the table answered is shown.
  function answerResign(request) {
    enqueue(async () => {
      try {
        const answer = await request(tableId);
        show(answer.table || answer);
      } catch (e) {
        say(explain(e), "error");
      }
    });
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
    $("#resign-agree").addEventListener("click", () => answerResign(resignTable));
    $("#resign-decline").addEventListener("click", () => answerResign(declineResign));
    $("#rematch-accept").addEventListener("click", () => act(acceptRematch));
    $("#rematch-decline").addEventListener("click", () => act(declineRematch));
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
  // a finished one too until it names the table that follows it; onMessage(message, behind)
  // runs in turn with the page's own steps, ``behind`` true while newer messages wait behind
  // it (a page that fell behind) or when the message is a backlog (a stream back after a gap,
  // a tab woken up: more than BACKLOG_PER_SEAT moves per other seat): it draws them at once
  // instead of playing every move out at the player's pace, minutes behind the table. A
  // visitor watching a public game (docs/LOBBY.md "Watching") reads its public view again
  // every WATCH_MS until it ends. The countdown ticks for everyone.
  function follow(onMessage) {
    if (state.table.seat !== null && (state.table.status !== "finished" || !state.follower)) {
      let waiting = 0; // stream messages received and not yet handled
      const backlog = (message) => (message.events || []).length
        > BACKLOG_PER_SEAT * Math.max(1, state.table.seats.length - 1);
      const handle = async (message) => {
        try {
          await onMessage(message, waiting > 1 || backlog(message));
        } finally {
          waiting -= 1;
        }
      };
      tableEvents(tableId, state.seq, (message) => { waiting += 1; return enqueue(() => handle(message)); },
        (s) => { document.body.dataset.stream = s; }, (p) => talk.hear(p));
    } else if (state.table.seat === null && state.table.status === "playing") {
      watch();
    }
    setInterval(renderCountdown, 250);
    document.body.dataset.ready = "1";
  }

  // The visitor's line: watching, and whose turn it is.
  function watchNote() {
    const T = state.table;
    $("#watch-note").textContent = T.turn === null || T.turn === undefined ? t("tables.watching")
      : t("tables.watchingTurn", { name: nameOf(T.turn) });
  }

  function watch() {
    $("#table").prepend(h("p", { id: "watch-note", class: "watch-note", role: "status" }));
    watchNote();
    document.body.dataset.watching = "1";
    const timer = setInterval(async () => {
      try {
        const T = await fetchTable(tableId);
        await enqueue(() => show(T)); // presence changes without a new seq
        watchNote();
        if (T.status !== "playing") {
          clearInterval(timer);
          $("#watch-note").hidden = true;
        }
      } catch (e) {
        // unreachable for now: lib/connection.js shows it; the next read tries again
      }
    }, WATCH_MS);
  }

  return {
    state, me, enqueue, keep, renderWaiting, renderResign, renderCountdown, wire, load, follow,
  };
}
