// Gin's keys (gin/_keys_help.html lists them; like pikdame/keys.js for Pik Dame): ←/→ between the
// hand's cards, Enter/Space select, Escape closes the knock dialog or clears the selection; one
// letter per action in the page's language (draw, take and discard are Pik Dame's letters, pass and
// knock Gin's own: German Z A W P K, English D T X P K, Dutch T P A O K), each only where its
// button is shown and live.

import { t } from "../lib/i18n.js";

// Each action's key in the page's language, for its button (layout.js) and the keyboard.
export function actionKeys() {
  return {
    pass: t("gin.key.pass"), take: t("key.take"), draw: t("key.draw"), discard: t("key.discard"), knock: t("gin.key.knock"),
  };
}

// board: the board's parts (board.js): its select(card), focusCard(), closeDialog(refocus).
export function bindGinKeys(board) {
  const { ui, el, buttons, v } = board;
  const actions = {};
  for (const [name, key] of Object.entries(actionKeys())) actions[key] = buttons[name];

  function onKey(e) {
    if (!v() || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (e.key === "Escape") {
      if (ui.dialog) board.closeDialog(true);
      else board.select(null);
      e.preventDefault();
      return;
    }
    if (ui.dialog) return;
    const inHand = el.hand.contains(target);
    const n = el.hand.children.length;
    if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && (inHand || target === document.body)) {
      ui.focus = (ui.focus + (e.key === "ArrowRight" ? 1 : n - 1)) % n;
      board.focusCard();
      e.preventDefault();
      return;
    }
    if ((e.key === "Enter" || e.key === " ") && inHand) {
      const code = target.closest("[data-card]")?.dataset.card;
      if (code) board.select(ui.selected === code ? null : code);
      e.preventDefault();
      return;
    }
    const b = actions[e.key.toLowerCase()];
    if (b && !b.hidden && !b.disabled && !(target && target.tagName === "BUTTON" && e.key === " ")) {
      b.click();
      e.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);
}
