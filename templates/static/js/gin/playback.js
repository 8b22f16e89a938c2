// The moves that come with a new view played out one after the other before it is drawn (issue
// 41), like pikdame/playback.js for Pik Dame: each draw, take and discard flies from where it
// comes to where it goes (lib/fly.js: none under reduced motion or at the fastest pace), in the
// player's pace (lib/pace.js); the other seat's moves each say themselves on the status line,
// and the stock's count, the pile's top and the other seat's count follow. A knock, a defence or
// a new hand ends the play-out: the new view shows them. Only the moves' public facts are used
// (a card drawn from the stock flies face down); the new view then replaces the sketch.

import { back, face, fanBacks } from "../lib/cards.js";
import { $, clear, h, sleep } from "../lib/dom.js";
import { fly } from "../lib/fly.js";
import { t } from "../lib/i18n.js";
import { delay } from "../lib/pace.js";
import { describeGinMove, parseGinMove } from "./cards.js";

const OWN_MS = 350; // the player's own move: at most this long, the player is waiting for it

// board: the board's parts (board.js): el, nameOf, v(), me(). Returns {playOut(events)}.
export function createGinPlayback(board) {
  const { el, nameOf, v, me } = board;

  const stockCard = () => $(".stock .card", el.stock);
  const pileTop = () => $("#gin-pile-top", el.pile);
  const seatSpot = (mine) => (mine ? el.hand : $(".hand-size", el.other) || el.other);

  function showPile(shown) {
    const top = pileTop();
    if (!top) return;
    const card = shown.pile[shown.pile.length - 1];
    clear(top).append(card ? face(card) : h("span", { class: "empty", text: t("gin.pileEmpty") }));
    el.pile.dataset.key = ""; // the new view's pile is drawn again
  }

  // One move's flight; the own discard's card leaves the hand (hidden: nothing moves).
  function flight(move, mine, shown, ms) {
    if (move.kind === "draw") return fly(back({ size: "small" }), stockCard(), seatSpot(mine), ms);
    if (move.kind === "take") {
      const card = shown.pile[shown.pile.length - 1];
      return card ? fly(face(card), pileTop(), seatSpot(mine), ms) : Promise.resolve();
    }
    if (move.kind === "discard") {
      const own = mine ? el.hand.querySelector(`[data-card="${move.card}"]`) : null;
      const going = fly(face(move.card), own || seatSpot(mine), pileTop(), ms);
      // invisible but in place: a hidden element would drop the keyboard's focus to the page
      // (the card had it when the player pressed its key); the new view's hand takes it back
      if (own) own.style.opacity = "0";
      return going;
    }
    return Promise.resolve();
  }

  function apply(move, mine, shown) {
    if (move.kind === "draw") {
      shown.stock -= 1;
      const count = $("[data-stock-size]", el.stock);
      if (count) count.textContent = String(shown.stock);
    } else if (move.kind === "take") {
      shown.pile.pop();
      showPile(shown);
    } else if (move.kind === "discard") {
      shown.pile.push(move.card);
      showPile(shown);
    }
    if (mine || !["draw", "take", "discard"].includes(move.kind)) return;
    shown.other += move.kind === "discard" ? -1 : 1;
    const count = $(".count", el.other);
    if (count) count.textContent = t("gin.otherCards", { n: shown.other });
    fanBacks($(".mini-hand", el.other), shown.other);
  }

  async function playOut(events) {
    const view = v();
    if (!view || view.outcome || !events || !events.length) return;
    const shown = { stock: view.stock_size, pile: [...view.discard], other: view.other_size };
    for (const event of events) {
      const move = parseGinMove(event.move);
      if (!["draw", "take", "discard", "pass"].includes(move.kind)) break;
      const mine = event.seat === me();
      const wait = mine ? Math.min(delay(), OWN_MS) : delay();
      if (!mine) {
        el.status.textContent = describeGinMove(event.move, nameOf(event.seat), false);
        el.other.classList.add("acting");
      }
      await Promise.all([flight(move, mine, shown, wait * 0.8), mine ? null : sleep(wait)]);
      apply(move, mine, shown);
      if (!mine) {
        await sleep(wait / 2);
        el.other.classList.remove("acting");
      }
    }
  }

  return { playOut };
}
