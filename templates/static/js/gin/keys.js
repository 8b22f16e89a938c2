// Gin's keys (gin/_keys_help.html lists them; like pikdame/keys.js for Pik Dame): ←/→ between the
// hand's cards, Enter/Space select, Escape closes the knock dialog or clears the selection; Z draw,
// A take, P pass, W discard, K knock, each only where its button is shown and live.

// board: the board's parts (board.js): its select(card), focusCard(), closeDialog(refocus).
export function bindGinKeys(board) {
  const { ui, el, buttons, v } = board;

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
    const key = e.key.toLowerCase();
    const actions = { p: buttons.pass, a: buttons.take, z: buttons.draw, w: buttons.discard, k: buttons.knock };
    const b = actions[key];
    if (b && !b.hidden && !b.disabled && !(target && target.tagName === "BUTTON" && e.key === " ")) {
      b.click();
      e.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);
}
