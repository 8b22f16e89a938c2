// The game switch of the daily pages (rankings, archive): Pik Dame or Gin Rommé by ?game=.
import { $$ } from "./dom.js";

export function showGameSwitch(game) {
  for (const link of $$("#game-switch a")) {
    if (link.dataset.game === game) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}
