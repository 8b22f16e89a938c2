// A deal of the week's tournament played on a daily game's own play page (docs/EVENTS.md): an
// attempt whose `event` is "WEEK/N". What every game's play page shows alike for it: the title
// ("Turnier 2030-W27, Blatt 1") and, at the end, the way back to the event page instead of the
// day's share text (the deal's result is the week's, against the field, not a day's).

import { $ } from "./dom.js";
import { t } from "./i18n.js";

// {week, n} of an event deal's attempt, or null for a day's.
export function eventDeal(attempt) {
  if (!attempt.event) return null;
  const [week, n] = attempt.event.split("/");
  return { week, n: Number(n) };
}

// The play page's title of an event deal.
export function eventDealTitle(attempt) {
  return t("event.playTitle", eventDeal(attempt));
}

// The event page of the attempt's game and week: a marked game's attempt names its game (API.md),
// which the tournament's pages take as ?game=; the unmarked game's pages need none.
export function eventPageUrl(attempt) {
  const { week } = eventDeal(attempt);
  const query = attempt.game ? `?game=${encodeURIComponent(attempt.game)}` : "";
  return `/turnier/${encodeURIComponent(week)}${query}`;
}

// The end screen of an event deal: the link back to the event page (#end-event), no share text.
export function showEventEnd(attempt) {
  $("#end-share").hidden = true;
  $("#end-event-link").href = eventPageUrl(attempt);
  $("#end-event").hidden = false;
}
