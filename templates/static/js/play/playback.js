// The bots' moves one by one: each event is written to the move list and shown on the table
// (the acting seat lit, its hand size, the stock and the discard pile updated) before the next.
// Only public facts of each move are used; the final view from the server then replaces it all.

import { face } from "../lib/cards.js";
import { $, clear, h, sleep } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { describe, seatName } from "../lib/moves.js";
import { load, save } from "../lib/store.js";
import { melds } from "./table.js";

export const SPEEDS = { slow: 1000, normal: 450, fast: 180, veryfast: 15 };

export function delay() {
  return SPEEDS[load("speed", "normal")] ?? SPEEDS.normal;
}

// goingOut: the move discards the last card, which goes out face down (R4.3): not shown.
export function logLine(seat, move, ctx, goingOut = false, remember = true) {
  const list = $("#log");
  if (remember && ctx.attemptId) {
    const kept = load(`log.${ctx.attemptId}`, []);
    kept.push([seat, move, goingOut]);
    save(`log.${ctx.attemptId}`, kept.slice(-60));
  }
  const item = h("li", { class: seat === 0 ? "mine" : "" },
    h("b", { text: `${seatName(seat, ctx.seats, seat === 0 ? t("seat.you") : null)}: ` }),
    goingOut ? t("move.goOut") : describe(move));
  list.append(item);
  while (list.children.length > 60) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function setHandSize(seat, size) {
  const node = document.querySelector(`[data-hand-size="${seat}"]`);
  if (node) node.textContent = t("table.handSize", { n: size });
}

function showTop(pile) {
  const top = clear($("#discard-top"));
  top.append(pile.length ? face(pile[pile.length - 1], { size: "large" })
    : h("span", { class: "card card-large empty-slot", text: t("table.pileEmpty") }));
  $("#pile-toggle").textContent = t("table.pileShow", { n: pile.length });
}

function redrawMelds(seat, list) {
  const section = document.getElementById(`seat-${seat}`);
  if (!section) return;
  const old = section.querySelector(".meld-list, .empty");
  if (old) old.replaceWith(melds(list));
}

// The move list as this browser saw it, after a reload (public moves only).
export function restoreLog(ctx) {
  for (const [seat, move, goingOut] of load(`log.${ctx.attemptId}`, [])) {
    logLine(seat, move, ctx, goingOut, false);
  }
}

// Apply one public move to the shown table (a sketch of the next view, for the eye only).
function apply(shown, seat, move) {
  const [kind, ...rest] = move.split(" ");
  const cards = rest.filter((x) => x !== "set" && x !== "run");
  if (kind === "draw") {
    shown.stock -= 1;
    shown.sizes[seat] += 1;
    $("#stock-count").textContent = String(shown.stock);
  } else if (kind === "discard") {
    shown.sizes[seat] -= 1;
    if (shown.sizes[seat] > 0) shown.pile.push(cards[0]);
    showTop(shown.pile);
  } else if (kind === "take") {
    shown.sizes[seat] += shown.pile.length - cards.length;
    shown.pile = [];
    showTop(shown.pile);
    shown.melds[seat].push({ kind: "run", cards });
    redrawMelds(seat, shown.melds[seat]);
  } else if (kind === "meld") {
    shown.sizes[seat] -= cards.length;
    shown.melds[seat].push({ kind: "run", cards });
    redrawMelds(seat, shown.melds[seat]);
  } else if (kind === "lay") {
    shown.sizes[seat] -= 1;
    const meld = shown.melds[seat][Number(cards[1]) - 1];
    if (meld) meld.cards = rest[2] === "low" ? [cards[0], ...meld.cards] : [...meld.cards, cards[0]];
    redrawMelds(seat, shown.melds[seat]);
  } else if (kind === "swap") {
    shown.sizes[seat] -= 1;
    const meld = shown.melds[seat][Number(rest[0]) - 1];
    const at = meld ? meld.cards.indexOf("X") : -1;
    if (at >= 0) meld.cards[at] = rest[1];
    redrawMelds(seat, shown.melds[seat]);
  }
  setHandSize(seat, Math.max(0, shown.sizes[seat]));
}

function light(seat) {
  document.querySelectorAll(".seat.to-move").forEach((n) => n.classList.remove("to-move"));
  const section = document.getElementById(`seat-${seat}`);
  if (section) section.classList.add("to-move", "acting");
  return section;
}

// Play the events after the player's own move (events[0] is the player's, already shown).
export async function play(events, before, ctx) {
  const shown = {
    stock: before.stock_size,
    sizes: [...before.hand_sizes],
    pile: [...before.discard],
    melds: before.melds.map((list) => list.map((m) => ({ kind: m.kind, cards: [...m.cards] }))),
  };
  for (const event of events) {
    if (event.seat === 0) {
      logLine(0, event.move, ctx, event.move.startsWith("discard") && shown.sizes[0] === 1);
      if (event.move.startsWith("discard")) {
        shown.sizes[0] -= 1;
        if (shown.sizes[0] > 0) shown.pile.push(event.move.split(" ")[1]);
        showTop(shown.pile);
      }
      continue;
    }
    const wait = delay();
    const section = light(event.seat);
    const goingOut = event.move.startsWith("discard") && shown.sizes[event.seat] === 1;
    $("#status").textContent = t("status.botMove", {
      name: seatName(event.seat, ctx.seats), move: goingOut ? t("move.goOut") : describe(event.move),
    });
    if (wait > 0) await sleep(wait);
    apply(shown, event.seat, event.move);
    logLine(event.seat, event.move, ctx, goingOut);
    if (wait > 0) await sleep(wait / 2);
    if (section) section.classList.remove("acting");
  }
}
