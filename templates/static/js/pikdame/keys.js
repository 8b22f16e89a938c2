// Keyboard play: single keys for the actions (shown on the buttons), Escape clears, digits pick
// a meld in an open choice. Letters come from the strings, so each language has its own.

import { t } from "../lib/i18n.js";

const NAMES = ["draw", "take", "meld", "lay", "swap", "discard"];

export function bindKeys(handlers) {
  const keys = {};
  for (const name of NAMES) keys[t(`key.${name}`)] = () => handlers.action(name);
  keys[t("key.hint")] = handlers.hint;
  keys[t("key.sort")] = handlers.toggleSort;
  keys[t("key.pile")] = handlers.togglePile;
  keys[t("key.hand")] = handlers.focusHand;
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    const target = e.target;
    const typing = target instanceof HTMLElement
      && (target.tagName === "INPUT" && target.type !== "radio" || target.tagName === "TEXTAREA"
        || target.tagName === "SELECT");
    if (typing) return;
    if (e.key === "Escape") {
      e.preventDefault();
      handlers.escape();
      return;
    }
    const panel = handlers.panel();
    if (panel && /^[1-9]$/.test(e.key)) {
      e.preventDefault();
      panel.pickMeld(Number(e.key));
      return;
    }
    const run = keys[e.key.toLowerCase()];
    if (run && !panel) {
      e.preventDefault();
      run();
    }
  });
}
