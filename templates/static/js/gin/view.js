// Drawing the Gin board from the seat's view (GIN.md G9's view, like pikdame/view.js for Pik
// Dame): the other seat (its cards face down until laid open, what it took from the pile), the
// stock and the pile with the upcard's actions, the move list and the status line. Every card
// comes from the view: never a hidden one.

import { back, cardList, face, fannedBacks } from "../lib/cards.js";
import { clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { placeOf, renderOwnPlate } from "../lib/table/seats.js";
import { describeGinMove, sortGin } from "./cards.js";

// A meld's cards in a box, with its number (or none) and cards laid off onto it: a list of cards.
export const meldBox = (cards, n = null, extra = []) => h("span", { class: "meld", dataset: { meld: cards.join(" ") } },
  n === null ? null : h("span", { class: "meld-no", "aria-hidden": "true", text: String(n) }),
  cardList([...cards, ...extra], { className: "meld-cards", label: n === null ? null : t("confirm.meldNo", { n }) }));

// The other seat, opposite the player (lib/table/seats.js): its name, presence (a page's
// seatExtras), score, the turn's mark, its hand as fanned backs after the count (a card more
// grows the fan to the right and moves nothing else), and what it laid open or took; and the
// player's own plate at the bottom.
// board: the board's parts (board.js): {ui, el, buttons, nameOf, seatExtras, v(), me(), other(), myTurn()}.
export function renderOther({ el, nameOf, seatExtras, v, other }) {
  const view = v();
  const seat = other();
  const name = nameOf(seat);
  const took = view.took[seat];
  const toMove = view.turn === seat && !view.outcome && (view.match_winner ?? null) === null;
  const cards = view.revealed
    ? cardList(sortGin(view.revealed), { className: "meld-cards gin-revealed" })
    : fannedBacks(view.other_size);
  el.other.classList.toggle("to-move", toMove);
  el.other.dataset.place = placeOf(seat, view.seat, 2);
  // h() skips null children (Element.append would write "null")
  clear(el.other).append(
    h("h2", { id: "gin-other-title" }, name,
      view.dealer === seat ? h("span", { class: "flag", text: t("gin.dealer") }) : null,
      toMove ? h("span", { class: "turn-flag", text: t("gin.toMove") }) : null,
      seatExtras ? seatExtras(seat) : null,
      h("span", { class: "seat-score", dataset: { seatScore: String(seat) }, text: t("gin.points", { n: view.totals[seat] }) })),
    h("p", { class: "hand-size" }, view.revealed ? null
      : h("span", { class: "count", dataset: { otherSize: String(view.other_size) }, text: t("gin.otherCards", { n: view.other_size }) }), cards));
  if (took.length) {
    el.other.append(h("p", { class: "gin-took" }, t("gin.took", { name }), " ",
      cardList(took, { className: "meld-cards" })));
  }
  const me = view.seat;
  const seated = me !== null && me !== undefined;
  renderOwnPlate(el.plate, {
    seated, name: seated ? nameOf(me) : null, flag: t("gin.toMove"),
    score: seated ? t("gin.points", { n: view.totals[me] }) : null,
    toMove: view.turn === me && !view.outcome && (view.match_winner ?? null) === null,
  });
}

// The stock, the pile (redrawn only when it changed) and the upcard's actions: pass, take, draw.
export function renderPiles({ ui, el, buttons, v, myTurn }) {
  const view = v();
  clear(el.stock).append(h("h2", { text: t("gin.stock") }),
    h("p", { class: "stock" }, back({ size: "small", label: t("gin.stockCards", { n: view.stock_size }) }),
      h("span", { dataset: { stockSize: String(view.stock_size) }, text: String(view.stock_size) })));
  const top = view.discard[view.discard.length - 1];
  const pileKey = `${view.hand_no}:${view.discard.length}:${top || ""}`;
  if (el.pile.dataset.key !== pileKey) { // redrawn when it changed: the card lands once
    el.pile.dataset.key = pileKey;
    clear(el.pile).append(h("h2", { text: t("gin.pile", { n: view.discard.length }) }),
      h("p", { class: "discard-top", id: "gin-pile-top" }, top ? face(top) : h("span", { class: "empty", text: t("gin.pileEmpty") })));
  }
  const mine = myTurn() && !ui.busy;
  buttons.pass.hidden = !(view.phase === "upcard");
  buttons.draw.hidden = view.phase === "upcard";
  buttons.take.hidden = !(view.phase === "upcard" || view.phase === "draw");
  buttons.draw.hidden = buttons.draw.hidden || view.phase !== "draw";
  buttons.pass.disabled = !mine;
  buttons.draw.disabled = !mine;
  buttons.take.disabled = !(mine && view.can_take);
  el.upcard.hidden = !(view.phase === "upcard" || view.phase === "draw");
}

// The hand's last moves (a move the turn timer made, R9, says so: "Zeit abgelaufen").
export function renderLog({ el, nameOf, v, me }) {
  const view = v();
  const lines = view.history.slice(-12).map((e) => h("li", { class: e.timer ? "timer" : "", dataset: e.timer ? { timer: "1" } : {} },
    e.timer ? h("span", { class: "timer-mark", text: `${t("move.timer")}: ` }) : null,
    describeGinMove(e.move, nameOf(e.seat), e.seat === me())));
  clear(el.log).append(...(lines.length ? lines : [h("li", { class: "empty", text: t("gin.log.none") })]));
}

// The status line: who won the match, whose turn, and what the player can do now.
export function statusText({ nameOf, v, me, other, myTurn }) {
  const view = v();
  if (view.match_winner !== null && view.match_winner !== undefined) {
    return view.match_winner === me() ? t("gin.status.won") : t("gin.status.lost", { name: nameOf(other()) });
  }
  if (!myTurn()) {
    if (view.phase === "defend") return t("gin.status.otherDefends", { name: nameOf(other()) });
    return t("gin.status.other", { name: nameOf(other()) });
  }
  if (view.phase === "upcard") return t("gin.status.upcard");
  if (view.phase === "draw") return t(view.can_take ? "gin.status.draw" : "gin.status.drawOnly");
  if (view.phase === "defend") return t(view.knock && view.knock.deadwood === 0 ? "gin.status.defendGin" : "gin.status.defend", { name: nameOf(other()) });
  return t("gin.status.discard");
}
