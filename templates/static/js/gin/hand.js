// The own Gin hand as an ARIA listbox (like pikdame/hand.js for Pik Dame): in the order of its
// melds (the view's exact arrangement, each meld marked), then the rest by suit; one card is
// selected at a time and only prepares a move. Under it: the exact minimum deadwood (G9's view)
// and what the selected card would do (the deadwood after discarding it).

import { cardName, face, short } from "../lib/cards.js";
import { clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { sortGin } from "./cards.js";

// board: the board's parts (board.js). Returns {renderHand, renderSelection, focusCard, select}.
export function createGinHand(board) {
  const { ui, el, buttons, v, myTurn } = board;

  // The hand in the order of its melds (the view's exact arrangement), then the rest by suit.
  function handOrder() {
    const inMelds = v().melds.flat();
    const rest = sortGin(v().hand.filter((c) => !inMelds.includes(c)));
    return [...inMelds, ...rest];
  }

  function cardItem(code, i, meldIndex) {
    const selected = ui.selected === code;
    return h("li", {
      role: "option", class: `hand-card${selected ? " selected" : ""}${meldIndex !== null ? ` in-meld meld-${meldIndex % 4}` : ""}${v().taken === code ? " taken" : ""}`,
      tabindex: i === ui.focus ? "0" : "-1", "aria-selected": String(selected),
      dataset: { card: code, index: String(i) },
      onclick: () => { ui.focus = i; select(ui.selected === code ? null : code); },
    }, face(code, { name: meldIndex !== null ? t("gin.cardInMeld", { card: cardName(code), n: meldIndex + 1 }) : null }));
  }

  function renderHand() {
    const view = v();
    const order = handOrder();
    ui.focus = Math.max(0, Math.min(ui.focus, order.length - 1));
    if (ui.selected && !order.includes(ui.selected)) ui.selected = null;
    const meldOf = (c) => view.melds.findIndex((m) => m.includes(c));
    const hadFocus = el.hand.contains(document.activeElement);
    clear(el.hand).append(...order.map((c, i) => cardItem(c, i, meldOf(c) >= 0 ? meldOf(c) : null)));
    if (hadFocus) focusCard();
    el.deadwood.dataset.deadwood = String(view.deadwood);
    clear(el.deadwood).append(t("gin.deadwood", { n: view.deadwood }));
    if (view.melds.length) el.deadwood.append(" ", h("span", { class: "hint-text", text: t("gin.melds", { n: view.melds.length }) }));
  }

  // The selection's line and the discard phase's actions: discard, knock (or gin), clear.
  function renderSelection() {
    const view = v();
    const card = ui.selected;
    const option = card && view.discards ? view.discards[card] : null;
    const discarding = myTurn() && view.phase === "discard" && !ui.busy;
    if (!card) {
      el.selection.textContent = discarding ? t("gin.selectToDiscard") : "";
    } else if (discarding && !option) {
      el.selection.textContent = t("gin.takenStays", { card: short(card) });
    } else if (option) {
      el.selection.textContent = t("gin.afterDiscard", { card: short(card), n: option.deadwood });
      el.selection.dataset.after = String(option.deadwood);
    } else {
      el.selection.textContent = t("gin.prepared", { card: short(card) });
    }
    el.actions.hidden = view.phase !== "discard" || !myTurn();
    buttons.discard.disabled = !(discarding && option);
    buttons.knock.disabled = !(discarding && option && option.deadwood <= 10);
    const gin = option && option.deadwood === 0;
    buttons.knock.firstChild.textContent = t(gin ? "gin.action.gin" : "gin.action.knock");
    buttons.clear.hidden = !card;
  }

  function focusCard() {
    const item = el.hand.children[ui.focus];
    if (!item) return;
    for (const li of el.hand.children) li.tabIndex = -1;
    item.tabIndex = 0;
    item.focus();
  }

  function select(card) {
    ui.selected = card;
    board.say("");
    renderHand();
    renderSelection();
  }

  return { renderHand, renderSelection, focusCard, select };
}
