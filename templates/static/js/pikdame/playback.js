// The bots' moves one by one: each event is written to the move list and shown on the table
// (the acting seat lit, its hand size, the stock and the discard pile updated) before the next.
// Only public facts of each move are used; the final view from the server then replaces it all.
// A ruleset with an opening (Tausende, R12.3) gives its rule as ctx.opening = {goal, points(meld)}.

import { announce, turnPassed } from "../lib/announce.js";
import { back, face, fanBacks } from "../lib/cards.js";
import { fly } from "../lib/fly.js";
import { $, clear, h, sleep } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { delay } from "../lib/pace.js"; // the player's pace
import { load, save } from "../lib/store.js";
import { describe, goesOut, parseMove, seatName } from "./moves.js";
import { seatMelds, seatMove, showTop } from "./view.js";

// The move list kept in the browser (a round has a few hundred moves at most).
const KEPT = 1000;

const logKey = (ctx) => `log.${ctx.attemptId}`;

// Who made a move, as the line's label: the sentence after it is in the third person ("zieht
// vom Stapel", "draws from the stock"), so the player's own lines carry their name too
// ("Ada (Du): zieht vom Stapel", not "Du: zieht" / "You: draws").
function mover(seat, ctx) {
  if (seat !== (ctx.me ?? 0)) return seatName(seat, ctx.seats);
  const own = ctx.name || (ctx.seats && ctx.seats[seat] && ctx.seats[seat].name);
  return own ? `${own} (${t("seat.you")})` : t("seat.you");
}

// note: a Tausende meld taken back (R12.3: "back"), or a line that is no move but what the
// engine did at the turn's end ({takeBack: n melds}); timer: the turn timer made the move (R9).
function logItem(seat, move, ctx, goingOut, note = null, timer = false) {
  const mine = seat === (ctx.me ?? 0);
  const back = note === "back";
  const text = note && note.takeBack
    ? t("move.takeBack", { n: note.takeBack, goal: ctx.opening?.goal })
    : describe(move, { goingOut, who: { seat, seats: ctx.seats, me: ctx.me ?? 0 } });
  return h("li", {
    class: `${mine ? "mine" : ""}${back ? " taken-back" : ""}${note && note.takeBack ? " take-back" : ""}${timer ? " timer" : ""}`,
    dataset: timer ? { timer: "1" } : {},
  },
  h("b", { text: `${mover(seat, ctx)}: ` }),
  timer ? h("span", { class: "timer-mark", text: `${t("move.timer")} – ` }) : null,
  back ? h("s", { text }) : text, back ? ` ${t("move.takenBack")}` : null);
}

// goingOut: the move discards the last card, which goes out face down (R4.3); timer: the turn
// timer played it for the seat (the event's "timer": true).
export function logLine(seat, move, ctx, goingOut = false, timer = false) {
  const kept = load(logKey(ctx), []);
  kept.push([seat, move, goingOut, null, Boolean(timer)]);
  save(logKey(ctx), kept.slice(-KEPT));
  const list = $("#log");
  const item = logItem(seat, move, ctx, goingOut, null, Boolean(timer));
  list.append(item);
  list.scrollTop = list.scrollHeight;
  announce(item.textContent);
  if (seat !== (ctx.me ?? 0)) turnPassed();
}

// R12.3 (docs/TAUSENDE.md): a seat that ends its turn below the opening takes its melds back.
// The turn's "legt aus" lines are struck through and marked, and a line says what happened.
function logTakeBack(seat, melds, ctx) {
  const kept = load(logKey(ctx), []);
  for (let i = kept.length - 1; i >= 0 && kept[i][0] === seat; i -= 1) {
    const kind = parseMove(kept[i][1]).kind;
    if (kind === "meld") kept[i][3] = "back";
    if (kind === "draw" || kind === "take") break;
  }
  kept.push([seat, "", false, { takeBack: melds }]);
  save(logKey(ctx), kept.slice(-KEPT));
  restoreLog(ctx);
}

// The move list as this browser saw it (every tab of it: they share the storage), after a
// reload or when a stale tab resyncs.
export function restoreLog(ctx) {
  const list = clear($("#log"));
  list.append(...load(logKey(ctx), []).map(([seat, move, goingOut, note, timer]) => logItem(seat, move, ctx, goingOut, note, timer)));
  list.scrollTop = list.scrollHeight;
}

function setHandSize(seat, size) {
  const node = document.querySelector(`[data-hand-size="${seat}"]`);
  if (node) node.textContent = t("table.handSize", { n: size });
  fanBacks(document.querySelector(`#seat-${seat} .mini-hand`), size);
}

function redrawMelds(seat, list, ctx) {
  const old = document.querySelector(`#seat-${seat} .seat-melds`);
  if (old) old.replaceWith(seatMelds(seat, list, ctx));
}

// Apply one public move to the shown table (a sketch of the next view, for the eye only).
function apply(shown, seat, text, ctx) {
  const move = parseMove(text);
  const owner = move.owner ?? seat; // Tausende: a lay-off or swap on any seat's meld (R12.5)
  const melds = shown.melds[owner] ?? shown.melds[seat];
  if (move.kind === "draw") {
    shown.stock -= 1;
    shown.sizes[seat] += 1;
    $("#stock-count").textContent = String(shown.stock);
  } else if (move.kind === "discard") {
    shown.sizes[seat] -= 1;
    if (shown.sizes[seat] > 0 && move.card) shown.pile.push(move.card);
    showTop(shown.pile);
  } else if (move.kind === "take") {
    shown.sizes[seat] += shown.pile.length - move.cards.length;
    shown.pile = [];
    showTop(shown.pile);
    melds.push({ kind: move.reading || "run", cards: move.cards });
  } else if (move.kind === "meld") {
    shown.sizes[seat] -= move.cards.length;
    melds.push({ kind: move.reading || "run", cards: move.cards });
  } else if (move.kind === "lay") {
    shown.sizes[seat] -= 1;
    const meld = melds[move.meld - 1];
    if (meld) meld.cards = move.end === "low" ? [move.card, ...meld.cards] : [...meld.cards, move.card];
  } else if (move.kind === "swap") {
    shown.sizes[seat] -= 1;
    const meld = melds[move.meld - 1];
    const at = meld ? meld.cards.indexOf("X") : -1;
    if (at >= 0) meld.cards[at] = move.card;
  } else if (move.kind === "pass") {
    // nothing moves but the melds an unfinished opening took back (below)
  } else if (move.kind === "swap-up" && move.card) {
    shown.pile = [move.card]; // Tausende's swapping round (R12.2): the new face-up card
    showTop(shown.pile);
  }
  if (["take", "meld", "lay", "swap"].includes(move.kind)) redrawMelds(owner, melds, ctx);
  setHandSize(seat, Math.max(0, shown.sizes[seat]));
}

// Where a seat's cards are on the table: an opponent's hand size, or the own hand.
const seatSpot = (seat, ctx) => (seat === (ctx.me ?? 0) ? $("#hand")
  : document.querySelector(`#seat-${seat} .hand-size`) || document.getElementById(`seat-${seat}`));

// A draw, a take or a discard seen happen (lib/fly.js): the card flies from where it comes from
// to where it goes, in the bots' pace; a card another seat draws flies face down.
function flight(seat, text, ctx, ms) {
  const move = parseMove(text);
  const spot = seatSpot(seat, ctx);
  if (move.kind === "draw") return fly(back({ size: "large" }), $("#stock .card"), spot, ms);
  if (move.kind === "take") return fly(face(move.cards[0], { size: "large" }), $("#discard-top"), spot, ms);
  if (move.kind === "discard") {
    return fly(move.card ? face(move.card, { size: "large" }) : back({ size: "large" }), spot, $("#discard-top"), ms);
  }
  return Promise.resolve();
}

// A seat's last move shown where it happened, for a moment (issue 41): a line over the seat,
// placed absolutely (the layout does not move) and hidden from screen readers (the announcer
// says the move); view.js draws it again while it lasts when the seats are redrawn.
const SEEN_MS = 2500;

function markSeat(seat, text, ctx) {
  ctx.lastMoves = ctx.lastMoves || {};
  ctx.lastMoves[seat] = { text, until: Date.now() + Math.max(SEEN_MS, delay() * 3) };
  const section = document.getElementById(`seat-${seat}`);
  if (!section) return;
  section.querySelectorAll(".seat-move").forEach((n) => n.remove());
  section.append(seatMove(text));
  setTimeout(() => {
    if (ctx.lastMoves[seat] && ctx.lastMoves[seat].until <= Date.now()) {
      document.querySelectorAll(`#seat-${seat} .seat-move`).forEach((n) => n.remove());
    }
  }, ctx.lastMoves[seat].until - Date.now() + 20);
}

function light(seat) {
  document.querySelectorAll(".seat.to-move").forEach((n) => n.classList.remove("to-move"));
  const section = document.getElementById(`seat-${seat}`);
  if (section) section.classList.add("to-move", "acting");
  return section;
}

// An opening (ctx.opening, Tausende's R12.3): who has opened, and the opening points of the seat
// to move this turn, kept up move by move; at the end of a turn below the goal the seat's melds go
// back to its hand (the engine's rule: a seat that has not opened has no melds but this turn's).
// Returns whether they did.
function openings(shown, seat, text, ctx) {
  if (!shown.opened || !ctx.opening) return false;
  const move = parseMove(text);
  if (move.kind === "meld" && !shown.opened[seat]) {
    shown.points += ctx.opening.points({ kind: move.reading, cards: move.cards });
    if (shown.points >= ctx.opening.goal) shown.opened[seat] = true;
  }
  const ends = move.kind === "discard" || move.kind === "pass";
  const back = ends && !shown.opened[seat] && shown.melds[seat].length > 0;
  if (back) {
    logTakeBack(seat, shown.melds[seat].length, ctx);
    shown.sizes[seat] += shown.melds[seat].reduce((n, m) => n + m.cards.length, 0);
    shown.melds[seat] = [];
    if (seat !== (ctx.me ?? 0)) redrawMelds(seat, shown.melds[seat], ctx);
  }
  if (ends || move.kind === "swap-up") shown.points = 0;
  return back;
}

// Play the events after the player's own move (events[0] is the player's: its hand and melds
// are already shown, the rest of the table follows here).
export async function play(events, before, ctx) {
  const shown = {
    stock: before.stock_size,
    sizes: [...before.hand_sizes],
    pile: [...before.discard],
    melds: before.melds.map((list) => list.map((m) => ({ kind: m.kind, cards: [...m.cards] }))),
    opened: Array.isArray(before.opened) ? [...before.opened] : null,
    points: before.turn_points || 0,
  };
  for (const event of events) {
    const goingOut = goesOut(event.move, shown.sizes[event.seat]);
    if (event.seat === (ctx.me ?? 0)) {
      await flight(event.seat, event.move, ctx, Math.min(delay(), 350));
      openings(shown, event.seat, event.move, ctx);
      logLine(event.seat, event.move, ctx, goingOut, event.timer);
      if (parseMove(event.move).kind === "discard") {
        shown.sizes[event.seat] -= 1;
        if (!goingOut) shown.pile.push(parseMove(event.move).card);
        showTop(shown.pile);
      }
      continue;
    }
    const wait = delay();
    const section = light(event.seat);
    $("#status").textContent = t("status.botMove", {
      name: seatName(event.seat, ctx.seats), move: describe(event.move, { goingOut, who: { seat: event.seat, seats: ctx.seats, me: ctx.me ?? 0 } }),
    });
    if (wait > 0) await Promise.all([sleep(wait), flight(event.seat, event.move, ctx, wait * 0.8)]);
    apply(shown, event.seat, event.move, ctx);
    markSeat(event.seat, describe(event.move, { goingOut, who: { seat: event.seat, seats: ctx.seats, me: ctx.me ?? 0 } }), ctx);
    openings(shown, event.seat, event.move, ctx);
    logLine(event.seat, event.move, ctx, goingOut, event.timer);
    if (wait > 0) await sleep(wait / 2);
    if (section) section.classList.remove("acting");
  }
}
