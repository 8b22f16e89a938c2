// Drawing the table from the player's view V (API.md): opponents with their hand sizes and
// melds, the stock's size, the discard pile, the own melds and whose turn it is.

import { back, face, meldPoints } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { seatName } from "../lib/moves.js";
import { jokerCards } from "../lib/notation.js";

function meldBox(meld, number, { own = false, onPick = null } = {}) {
  const jokers = jokerCards(meld);
  let j = 0;
  const cards = h("span", { class: "meld-cards" }, meld.cards.map((c) => face(c, {
    size: "small", standsFor: c === "X" && jokers.length ? jokers[j++] : null,
  })));
  const label = t("meld.label", {
    n: number, kind: t(`meld.${meld.kind}`), points: meldPoints(meld.cards),
  });
  if (own && onPick) {
    return h("button", {
      type: "button", class: "meld own", "aria-label": label, dataset: { meld: String(number) },
      onclick: () => onPick(number),
    }, h("span", { class: "meld-no", text: String(number) }), cards);
  }
  return h("div", { class: "meld", role: "group", "aria-label": label },
    h("span", { class: "meld-no", text: String(number) }), cards);
}

export function melds(list, options = {}) {
  if (list.length === 0) return h("p", { class: "empty", text: t("meld.none") });
  return h("div", { class: "meld-list" }, list.map((m, i) => meldBox(m, i + 1, options)));
}

function opponent(view, seat, ctx) {
  const size = view.hand_sizes[seat];
  const toMove = view.outcome === null && view.turn === seat;
  const backs = h("span", { class: "mini-hand", "aria-hidden": "true" },
    Array.from({ length: Math.min(size, 20) }, () => back({ size: "tiny" })));
  return h("section", {
    class: `seat${toMove ? " to-move" : ""}`, "aria-label": seatName(seat, ctx.seats), id: `seat-${seat}`,
  },
  h("header", {},
    h("h3", { text: seatName(seat, ctx.seats) }),
    h("span", { class: "level", text: ctx.seats && ctx.seats[seat] && ctx.seats[seat].level
      ? t(`level.${ctx.seats[seat].level}`) : "" }),
    toMove ? h("span", { class: "turn-flag", text: t("table.toMove") }) : null),
  h("p", { class: "hand-size" }, backs,
    h("span", { class: "count", dataset: { handSize: String(seat) },
      text: t("table.handSize", { n: size }) })),
  melds(view.melds[seat]));
}

export function renderOpponents(view, ctx) {
  const root = clear($("#opponents"));
  for (let seat = 1; seat < view.hand_sizes.length; seat += 1) root.append(opponent(view, seat, ctx));
}

export function renderPiles(view, ctx) {
  const stock = clear($("#stock"));
  stock.append(back({ size: "large", label: t("table.stockLabel", { n: view.stock_size }) }),
    h("span", { class: "count", id: "stock-count", text: String(view.stock_size) }));
  const top = clear($("#discard-top"));
  const pile = view.discard;
  if (pile.length === 0) {
    top.append(h("span", { class: "card card-large empty-slot", text: t("table.pileEmpty") }));
  } else {
    top.append(face(pile[pile.length - 1], { size: "large" }));
  }
  const toggle = $("#pile-toggle");
  toggle.textContent = t("table.pileShow", { n: pile.length });
  toggle.disabled = pile.length < 2;
  const list = clear($("#pile"));
  list.append(h("p", { class: "hint-text", text: t("table.pileOrder") }),
    h("div", { class: "pile-cards" }, [...pile].reverse().map((c) => face(c, { size: "small" }))));
  if (pile.length < 2 && ctx) {
    list.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
  }
}

export function renderOwnMelds(view, onPick) {
  const root = clear($("#own-melds"));
  root.append(melds(view.melds[0], { own: true, onPick }));
}

// The status line: whose turn, and what the player can do now.
export function statusText(view, ctx) {
  if (view.outcome) return t("status.over");
  if (view.turn !== 0) return t("status.waiting", { name: seatName(view.turn, ctx.seats) });
  if (view.phase === "draw") {
    if (!view.can_draw && view.can_take) return t("status.mustTake");
    return view.can_take ? t("status.drawOrTake") : t("status.draw");
  }
  return t("status.play");
}

export function renderStatus(view, ctx) {
  $("#status").textContent = statusText(view, ctx);
  $("#table").classList.toggle("my-turn", view.outcome === null && view.turn === 0);
}
