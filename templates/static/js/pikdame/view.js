// Drawing the table from the player's view V (API.md): opponents in their places around the
// table (lib/table/seats.js) with their hand sizes and melds, the stock's size, the discard pile,
// the own melds and whose turn it is.

import { announceTurn } from "../lib/announce.js";
import { back, face, fannedBacks } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { placeOf, renderOwnPlate } from "../lib/table/seats.js";
import { meldList } from "./melds.js";
import { seatName } from "./moves.js";

// On a phone the bots are compact: their melds open on demand (a tap on "Auslagen (n)").
const WIDE = window.matchMedia("(min-width: 700px)");

// A bot's melds behind a disclosure; redrawn in place while the bots' moves play back.
export function seatMelds(seat, list, ctx) {
  ctx.seatOpen = ctx.seatOpen || new Map();
  const opened = ctx.seatOpen.get(seat) ?? WIDE.matches;
  const box = h("details", { class: "seat-melds", open: opened },
    h("summary", { text: t("table.seatMelds", { n: list.length }) }), meldList(list));
  box.addEventListener("toggle", () => ctx.seatOpen.set(seat, box.open));
  return box;
}

// A seat's last move over the seat for a moment (playback.js markSeat).
export const seatMove = (text) => h("span", { class: "seat-move", "aria-hidden": "true", text });

function opponent(view, seat, ctx) {
  const size = view.hand_sizes[seat];
  const n = view.hand_sizes.length;
  const toMove = view.outcome === null && view.turn === seat;
  const level = ctx.seats && ctx.seats[seat] && ctx.seats[seat].level;
  // the hand as fanned backs, after the count: a card more or less grows the fan to the right
  // and moves nothing else
  const backs = fannedBacks(size);
  const score = ctx.seatScore ? ctx.seatScore(seat) : null;
  return h("section", {
    class: `seat${toMove ? " to-move" : ""}`, "aria-label": seatName(seat, ctx.seats), id: `seat-${seat}`,
    dataset: { place: placeOf(seat, view.seat, n) },
  },
  h("header", {},
    h("h3", { text: seatName(seat, ctx.seats) }),
    level && !ctx.seatExtras ? h("span", { class: "level", text: t(`level.${level}`) }) : null,
    toMove ? h("span", { class: "turn-flag", text: t("table.toMove") }) : null,
    ctx.seatExtras ? ctx.seatExtras(seat) : null,
    score === null ? null : h("span", { class: "seat-score", text: score })),
  h("p", { class: "hand-size" },
    h("span", { class: "count", dataset: { handSize: String(seat) },
      text: t("table.handSize", { n: size }) }), backs),
  seatMelds(seat, view.melds[seat], ctx),
  ctx.lastMoves && ctx.lastMoves[seat] && ctx.lastMoves[seat].until > Date.now()
    ? seatMove(ctx.lastMoves[seat].text) : null);
}

// The other seats in playing order, starting after the player's, each in its place around the
// table (the round table's data-seats picks its grid in table.css), and the player's own plate; ctx.seatExtras(seat), where
// a page gives it, adds to a seat's header (the tables' presence and bot level), and
// ctx.seatScore(seat) its score (the tables' running total).
export function renderOpponents(view, ctx) {
  const root = clear($("#opponents"));
  const n = view.hand_sizes.length;
  const me = view.seat ?? 0;
  $("#round-table").dataset.seats = String(n);
  for (let k = 1; k < n; k += 1) root.append(opponent(view, (me + k) % n, ctx));
  renderOwnPlate($("#own-plate"), {
    seated: view.seat !== null && view.seat !== undefined,
    name: ctx.seats ? seatName(me, ctx.seats) : null, flag: t("table.toMove"),
    toMove: view.outcome === null && view.turn === me, score: ctx.seatScore ? ctx.seatScore(me) : null,
  });
}

// The discard pile's top card (or an empty slot) and the toggle that shows the whole pile.
export function showTop(pile) {
  const top = clear($("#discard-top"));
  top.append(pile.length ? face(pile[pile.length - 1], { size: "large" })
    : h("span", { class: "card card-large empty-slot", text: t("table.pileEmpty") }));
  const toggle = $("#pile-toggle");
  toggle.textContent = t("table.pileShow", { n: pile.length });
  toggle.disabled = pile.length < 2;
}

export function renderPiles(view) {
  const stock = clear($("#stock"));
  stock.append(back({ size: "large", label: t("table.stockLabel", { n: view.stock_size }) }),
    h("span", { class: "count", id: "stock-count", text: String(view.stock_size) }));
  const pile = view.discard;
  showTop(pile);
  const list = clear($("#pile"));
  list.append(h("p", { class: "hint-text", text: t("table.pileOrder") }),
    h("div", { class: "pile-cards" }, [...pile].reverse().map((c) => face(c, { size: "small" }))));
  if (pile.length < 2) {
    list.hidden = true;
    $("#pile-toggle").setAttribute("aria-expanded", "false");
  }
}

export function renderOwnMelds(view, onPick) {
  clear($("#own-melds")).append(meldList(view.melds[view.seat ?? 0], { onPick }));
}

// The status line: whose turn, and what the player can do now.
export function statusText(view, ctx) {
  if (view.outcome) return t("status.over");
  if (view.turn !== (view.seat ?? 0)) return t("status.waiting", { name: seatName(view.turn, ctx.seats) });
  if (view.phase === "draw") {
    if (!view.can_draw && view.can_take) return t("status.mustTake");
    return view.can_take ? t("status.drawOrTake") : t("status.draw");
  }
  return t("status.play");
}

// The status line, and the player's turn said once when it comes (lib/announce.js).
export function renderStatus(view, ctx) {
  const text = statusText(view, ctx);
  const mine = view.outcome === null && view.turn === (view.seat ?? 0);
  $("#status").textContent = text;
  $("#table").classList.toggle("my-turn", mine);
  announceTurn(mine, text);
}
