// The Gin board's skeleton, built once in the page's #gin-board (what pikdame/_board.html is for
// Pik Dame's board): the status line, the hand's result, the other seat, the stock and the pile
// with the upcard's actions, the move list, the defence, the own hand with its deadwood and its
// actions, the knock dialog, the message line and the finished hands.

import { clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { actionKeys } from "./keys.js";

// root: the board's element; board: the board's parts (board.js), whose act, discardSelected,
// openKnock and select the buttons call. Returns {el, buttons}.
export function createLayout(root, board) {
  const el = {
    other: h("section", { class: "gin-other", "aria-labelledby": "gin-other-title" }),
    stock: h("div", { class: "gin-stock" }),
    pile: h("div", { class: "gin-pile" }),
    upcard: h("div", { class: "gin-pile-actions actions" }),
    log: h("ol", { class: "gin-log", tabindex: "0", "aria-label": t("gin.log.title") }),
    deadwood: h("p", { class: "gin-deadwood", id: "gin-deadwood", "aria-live": "polite" }),
    hand: h("ul", {
      class: "hand gin-hand", id: "gin-hand", role: "listbox", "aria-label": t("gin.hand"),
      "aria-describedby": "gin-hand-help",
    }),
    selection: h("p", { class: "selection", id: "gin-selection", "aria-live": "polite" }),
    actions: h("div", { class: "actions", role: "toolbar", "aria-label": t("actions.label") }),
    defend: h("section", { class: "gin-defend", id: "gin-defend", "aria-labelledby": "gin-defend-title", hidden: true }),
    confirm: h("section", { class: "confirm", id: "gin-confirm", role: "dialog", "aria-labelledby": "gin-confirm-title", hidden: true }),
    message: h("p", { class: "message", id: "gin-message", role: "alert" }),
    result: h("section", { class: "gin-result", id: "gin-result", "aria-live": "polite", hidden: true }),
    hands: h("section", { class: "gin-hands", "aria-labelledby": "gin-hands-title" }),
    status: h("p", { class: "status", id: "gin-status" }),
    plate: h("p", { class: "own-plate", id: "own-plate", dataset: { place: "bottom" } }),
  };
  const button = (name, key, onclick) => h("button", {
    type: "button", class: "button action", dataset: { ginAction: name }, "aria-keyshortcuts": key, onclick,
  }, t(`gin.action.${name}`), " ", h("kbd", { text: key.toUpperCase() }));
  const keys = actionKeys();
  const buttons = {
    pass: button("pass", keys.pass, () => board.act("pass")),
    take: button("take", keys.take, () => board.act("take")),
    draw: button("draw", keys.draw, () => board.act("draw")),
    discard: button("discard", keys.discard, () => board.discardSelected()),
    knock: button("knock", keys.knock, () => board.openKnock()),
    clear: h("button", { type: "button", class: "button link", dataset: { ginAction: "clear" }, onclick: () => board.select(null) }, t("gin.action.clear")),
  };
  el.upcard.append(buttons.pass, buttons.take, buttons.draw);
  el.actions.append(buttons.discard, buttons.knock, buttons.clear);
  clear(root).append(
    el.status, el.result, el.other,
    h("div", { class: "gin-middle" }, el.stock, el.pile, el.upcard),
    h("details", { class: "gin-log-box" }, h("summary", { text: t("gin.log.title") }), el.log),
    el.defend, // before the hand: in a defence it is the thing to do
    h("section", { class: "me gin-me", "aria-labelledby": "gin-me-title" }, el.plate,
      h("h2", { id: "gin-me-title", text: t("gin.hand") }), el.deadwood, el.hand,
      h("p", { class: "hint-text", id: "gin-hand-help", text: t("gin.handHelp") }), el.selection, el.actions),
    el.confirm, el.message, el.hands,
  );
  return { el, buttons };
}
