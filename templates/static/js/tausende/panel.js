// Tausende at a table (RULES.md R12, docs/TAUSENDE.md): what differs from Pik Dame, drawn beside
// the shared board from the public view V (its `opened`, `laid`, `swaps`, `turn_points`): who has
// opened (R12.3's 30 points), every meld with its owner and its address S.N for lay-offs and joker
// swaps on any meld (R12.5), the swapping round for the face-up card (R12.2: `swap-up C` or
// draw), the pot only after opening (R12.4), the Q♠ that is never discarded (R12.6, `pass` with
// Q♠s only), the table's R12.8 options and a link to the rules text. German first (lib/i18n.js).

import { short } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { meldCards, meldLabel } from "../pikdame/melds.js";
import { seatName } from "../pikdame/moves.js";
import { jokerCards } from "../pikdame/notation.js";
import { OPENING, tausendePoints } from "./opening.js";

const OPTIONS = ["ace_high_only", "no_joker_swap", "go_out_on_opening"]; // R12.8

// The panel, made once, between the status line and the board; above it what the turn needs
// at once (the swapping round, on a phone who has opened). On a phone the panel itself stands
// below the hand and the actions (tables.css), so one screen holds a turn.
function panel() {
  let box = $("#tausende");
  if (!box) {
    const top = h("div", { id: "tausende-top", class: "tausende-top" });
    box = h("section", { id: "tausende", class: "tausende", "aria-label": t("tausende.panel") });
    $("#status").after(top);
    top.after(box);
  }
  return box;
}

// A phone's one line (tables.css shows it only there): who has opened (R12.3) and the way down
// to the panel with the melds, the lay-offs and the rules.
function brief(view, ctx) {
  const names = view.opened.map((opened, seat) => (opened ? seatName(seat, ctx.seats) : null)).filter(Boolean);
  return h("p", { class: "tausende-brief", id: "tausende-brief" },
    h("span", { text: names.length ? t("tausende.briefOpened", { names: names.join(", ") }) : t("tausende.briefNone") }),
    h("a", { href: "#tausende", text: t("tausende.toPanel") }));
}

function rulesLine(T) {
  const chosen = OPTIONS.filter((key) => T.rules[key]);
  return h("p", { class: "tausende-rules" },
    h("a", { href: "/rules/tausende", target: "_blank", rel: "noopener", id: "tausende-rules-link",
      text: t("tausende.rulesLink") }),
    " · ",
    h("span", { dataset: { options: chosen.join(" ") },
      text: chosen.length ? chosen.map((key) => t(`tausende.option.${key}`)).join(", ") : t("tausende.noOptions") }));
}

// R12.3: who has opened; the seat to move sees its opening points of this turn.
function openers(view, ctx) {
  const me = view.seat ?? 0;
  return h("ul", { class: "tausende-openers", "aria-label": t("tausende.openersLabel") },
    view.opened.map((opened, seat) => h("li", {
      class: `opener${opened ? " opened" : ""}`, dataset: { opened: String(seat), state: opened ? "yes" : "no" },
    },
    h("span", { class: "opener-name", text: seat === me ? `${seatName(seat, ctx.seats)} (${t("seat.you")})` : seatName(seat, ctx.seats) }),
    " · ",
    h("span", { class: "opener-flag", text: t(opened ? "tausende.opened" : "tausende.notOpened") }),
    " · ",
    h("span", { class: "opener-laid", text: t("tausende.laid", { n: view.laid[seat] }) }),
    !opened && view.turn === seat && view.turn_points > 0
      ? h("span", { class: "opener-progress", text: ` ${t("tausende.progress", { n: view.turn_points, goal: OPENING })}` })
      : null)));
}

// R12.2: the face-up card is the pile's only card until someone draws.
function swappingRound(view, mine, handlers) {
  if (view.swaps === null || view.swaps === undefined || view.outcome) return null;
  const players = view.hand_sizes.length;
  const open = mine && view.phase === "draw" && view.swaps < players;
  // the player to swap reads the round in the status line (a phone shows only the button here)
  if (open) $("#status").textContent = t("tausende.statusSwap", { card: short(view.discard[0]) });
  return h("div", { class: `tausende-swapping${open ? " mine" : ""}`, id: "tausende-swapping" },
    h("p", { class: "swap-text", text: t("tausende.swapping", { n: view.swaps, players, card: short(view.discard[0]) }) }),
    open ? h("p", { class: "hint-text", text: t("tausende.swappingHelp") }) : null,
    open ? h("button", {
      type: "button", class: "button small", dataset: { tausende: "swap-up" },
      onclick: () => handlers.withCard((card) => handlers.send(`swap-up ${card}`)),
    }, h("span", { class: "wide-label", text: t("tausende.swapUp") }),
    h("span", { class: "phone-label", text: t("tausende.swapUpShort", { card: short(view.discard[0]) }) })) : null);
}

// R12.4 and R12.6 as the player's own reminders.
function reminders(view, mine, handlers) {
  const me = view.seat ?? 0;
  const queens = view.hand.filter((c) => c === "QS").length;
  const onlyQueens = queens > 0 && queens === view.hand.length;
  return h("ul", { class: "tausende-notes" },
    h("li", { dataset: { note: "pot" }, text: t(view.opened[me] ? "tausende.potOpen" : "tausende.potClosed") }),
    queens ? h("li", { dataset: { note: "queen" }, text: t("tausende.queenKept") }) : null,
    mine && onlyQueens && view.phase === "play" ? h("li", {},
      h("button", { type: "button", class: "button small", dataset: { tausende: "pass" },
        onclick: () => handlers.action("pass") }, t("tausende.pass"))) : null);
}

// R12.5: every meld on the table with its owner; with one card selected a meld takes a lay-off
// (`lay C S.N`) or, for a card a joker stands for, a joker swap (`swap S.N C`), confirmed in
// the same panel as every other action.
function tableMelds(view, ctx, mine, handlers) {
  const me = view.seat ?? 0;
  const canLay = mine && view.phase === "play" && view.opened[me];
  const seats = view.melds.map((list, seat) => [seat, list]).filter(([, list]) => list.length);
  const body = seats.length ? seats.map(([seat, list]) => h("div", { class: "owner-melds", dataset: { owner: String(seat) } },
    h("h3", { text: t("tausende.ownerMelds", { name: seatName(seat, ctx.seats) }) }),
    h("div", { class: "meld-list" }, list.map((meld, i) => {
      const address = `${seat}.${i + 1}`;
      const label = `${meldLabel(meld, i + 1)} · ${t("tausende.owner", { name: seatName(seat, ctx.seats) })}`;
      return h("div", { class: "meld", role: "group", "aria-label": label, dataset: { meldOwner: String(seat), address } },
        h("span", { class: "meld-no", "aria-hidden": "true", text: address }),
        meldCards(meld),
        canLay ? h("button", {
          type: "button", class: "button small", dataset: { layOn: address },
          onclick: () => handlers.withCard((card) => handlers.action(
            jokerCards(meld).includes(card) && card !== "X" ? "swap" : "lay", { meld: address })),
        }, t("tausende.layHere")) : null);
    }))))
    : [h("p", { class: "empty", text: t("meld.none") })];
  return h("section", { class: "tausende-melds", "aria-label": t("tausende.tableMelds") },
    h("h2", { text: t("tausende.tableMelds") }), ...body);
}

// Draw the panel for table T (the seat's view inside); handlers: {send(move), selected(), say(),
// action(name, preset): the board's confirmed actions}.
export function renderTausende(T, ctx, handlers) {
  const box = panel();
  const view = T.view;
  const title = $("#table-title");
  if (title && title.firstChild) title.firstChild.textContent = `${t("tables.game.tausende")} `;
  const range = $("#cut-range");
  if (range) range.max = "107"; // R12.1: 108 cards
  $("#table").classList.add("tausende-game");
  box.hidden = !view || T.awaiting_cut;
  $("#tausende-top").hidden = box.hidden;
  if (box.hidden) return;
  const me = view.seat ?? 0;
  // the hand at R12.1's points; the own score is every card the seat laid, lay-offs included (R12.5)
  $("#hand-title").textContent = t("hand.title", { n: view.hand.length, points: tausendePoints(view.hand) });
  $("#own-title").textContent = t("table.ownMeldsPoints", { points: view.laid[me] });
  // a phone leaves out the empty own melds' line (the points laid stand in the panel)
  $("#own-title").closest(".me").classList.toggle("no-own-melds", view.melds[me].length === 0);
  const mine = !view.outcome && view.turn === me && T.status === "playing";
  const act = {
    send: handlers.send,
    action: handlers.action,
    withCard: (make) => {
      const chosen = handlers.selected();
      if (chosen.length !== 1) handlers.say(t("need.pickCardFirst"));
      else make(chosen[0]);
    },
  };
  clear($("#tausende-top")).append(swappingRound(view, mine, act) || brief(view, ctx));
  clear(box).append(
    rulesLine(T),
    openers(view, ctx),
    reminders(view, mine, act),
    tableMelds(view, ctx, mine, act),
  );
}
