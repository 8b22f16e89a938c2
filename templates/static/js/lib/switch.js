// The game switch of the daily pages (rankings, archive): one link per daily game from the
// service's registry (templates/_game_switch.html). The chosen game is ?game= when it names a
// marked game; otherwise the unmarked one, whose API calls carry no game (API v1).
import { $$ } from "./dom.js";

// {game: the API's ?game= or null, name, prefix: its daily pages' URL prefix, tieBreak}
export function chosenGame(params) {
  const links = $$("#game-switch a");
  const asked = params.get("game");
  const link = links.find((a) => a.dataset.marked && a.dataset.game === asked)
    ?? links.find((a) => !a.dataset.marked);
  for (const a of links) {
    if (a === link) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const { game: name, marked, prefix, tiebreak } = link.dataset;
  return { game: marked ? name : null, name, prefix, tieBreak: tiebreak };
}
