// What a screen reader hears of a game, each thing once: one polite live region per page
// (role "log", visually hidden, #announcer in base.html), to which every move is added as a line when it happens (never
// again on a reload: a restored move list says nothing) and the player's turn when it comes.
// The visible move list and status line are no live regions, so nothing is said twice.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// Lines kept in the region (a screen reader reads only what is added; a turn of four seats
// seldom says more).
const KEPT = 40;
let region = null;
let wasMine = null;

function live() {
  if (region && region.isConnected) return region;
  region = document.getElementById("announcer");
  if (!region) {
    region = h("div", { id: "announcer", class: "sr", role: "log", "aria-live": "polite", "aria-label": t("a11y.announcer") });
    document.body.append(region);
  }
  return region;
}

// Say one line (a move, a turn, a round's end); the region counts every line said (data-count).
export function announce(text) {
  if (!text) return;
  const box = live();
  box.append(h("p", { text }));
  box.dataset.count = String(Number(box.dataset.count || 0) + 1);
  while (box.childElementCount > KEPT) box.firstElementChild.remove();
}

// The player's turn, said when it comes (and on a page's first drawing when it is theirs):
// what there is to do now, the status line's text.
export function announceTurn(mine, text) {
  if (mine && wasMine !== true) announce(text);
  wasMine = Boolean(mine);
}

// Another seat has moved: the player's next turn is a new one, to be said again (a page that
// learns the others' moves and its own turn in one answer never draws the turn as not theirs).
export function turnPassed() {
  wasMine = false;
}
