// From a selected card to a move (like pikdame/actions.js for Pik Dame): selecting only prepares;
// discarding, and knocking or going gin through its dialog (the groups that will be declared and
// their deadwood), are each confirmed; act(move) sends one move at a time. Nothing is undone once
// sent: a sent move has shown information.

import { cardList, face } from "../lib/cards.js";
import { $, clear, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { sortGin } from "./cards.js";
import { meldBox } from "./view.js";

// board: the board's parts (board.js): its send(move), render(view), renderControls(), say(),
// focusCard(). Returns {act, discardSelected, openKnock, closeDialog}.
export function createGinActions(board) {
  const { root, ui, el, send, v, myTurn } = board;

  function discardSelected() {
    const option = ui.selected && v().discards ? v().discards[ui.selected] : null;
    if (!myTurn() || v().phase !== "discard" || !option) return;
    act(`discard ${ui.selected}`);
  }

  // The knock dialog: the groups that will be declared (the exact best arrangement of the ten
  // cards left) and their deadwood; nothing is sent before "Klopfen bestätigen".
  function openKnock() {
    const card = ui.selected;
    const option = card && v().discards ? v().discards[card] : null;
    if (!myTurn() || v().phase !== "discard" || !option || option.deadwood > 10) return;
    const gin = option.deadwood === 0;
    const inMelds = option.melds.flat();
    const left = sortGin(v().hand.filter((c) => c !== card && !inMelds.includes(c)));
    const move = `knock ${card} ${option.melds.map((m) => m.join(" ")).join(" | ")}`.trim();
    ui.dialog = move;
    clear(el.confirm).append(
      h("h3", { id: "gin-confirm-title", text: t(gin ? "gin.knock.titleGin" : "gin.knock.title") }),
      h("p", {}, t("gin.knock.card"), " ", face(card, { size: "small" })),
      h("p", { text: t("gin.knock.groups", { n: option.melds.length }) }),
      h("div", { class: "meld-list" }, option.melds.map((m, i) => meldBox(m, i + 1))),
      h("p", {}, t("gin.knock.deadwoodCards"), " ", left.length
        ? cardList(left, { className: "meld-cards" }) : t("gin.knock.none")),
      h("p", { class: "gin-knock-deadwood", dataset: { deadwood: String(option.deadwood) }, text: t("gin.knock.deadwood", { n: option.deadwood }) }),
      h("div", { class: "confirm-buttons" },
        h("button", { type: "button", class: "button primary", id: "gin-confirm-ok", onclick: () => { closeDialog(); act(move); } },
          t(gin ? "gin.knock.confirmGin" : "gin.knock.confirm")),
        h("button", { type: "button", class: "button", id: "gin-confirm-cancel", onclick: () => closeDialog(true) },
          t("confirm.cancel"), " ", h("kbd", { text: "Esc" }))));
    el.confirm.hidden = false;
    $("#gin-confirm-ok", el.confirm).focus();
  }

  function closeDialog(refocus = false) {
    ui.dialog = null;
    el.confirm.hidden = true;
    clear(el.confirm);
    if (refocus) board.focusCard();
  }

  async function act(move) {
    if (ui.busy || !myTurn()) return;
    board.say("");
    ui.busy = true;
    root.dataset.busy = "1";
    board.renderControls();
    try {
      await send(move);
      if (move.startsWith("discard") || move.startsWith("knock")) ui.selected = null;
    } finally {
      ui.busy = false;
      delete root.dataset.busy;
      if (v()) board.render(v());
    }
  }

  return { act, discardSelected, openKnock, closeDialog };
}
