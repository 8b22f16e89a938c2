// The home page's offer of a guided first round: shown only to a browser with no mark of a
// played game (a saved name or attempt), of a finished lesson, or of "Nein danke" (remembered).

import { $ } from "../lib/dom.js";
import { load, save } from "../lib/store.js";

const DISMISSED = "learnOffer.dismissed";

function playedBefore() {
  if (load("name", "") || load("learned", []).length || load(DISMISSED, false)) return true;
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      if (localStorage.key(i).startsWith("pikdame.attempt.")) return true;
    }
  } catch (e) {
    return false;
  }
  return false;
}

const box = $("#learn-offer");
if (box) box.dataset.checked = "1"; // decided (tests wait for it before looking)
if (box && !playedBefore()) {
  box.hidden = false;
  $("#learn-offer-dismiss").addEventListener("click", () => {
    save(DISMISSED, true);
    box.hidden = true;
  });
}
