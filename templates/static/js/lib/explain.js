// The one explainer of every game's pages: an API error in plain words, a verification's
// rejection reason, and what a start of the day would be. Why one game's move does not fit is the
// game's own (pikdame/explain.js).

import { ApiError } from "./api.js";
import { has, t } from "./i18n.js";

export function explain(error) {
  if (!(error instanceof ApiError)) return t("err.unknown", { code: (error && error.name) || "?" });
  const key = `err.${error.code}`;
  return has(key) ? t(key) : t("err.unknown", { code: error.code });
}

// What a start of the day would be, said before any deal is shown (the day document's
// ranked_start): anonymous play is unranked, and a deal once seen is not played ranked that day.
export function explainRankedStart(day) {
  const reason = day.ranked_start ? day.ranked_start.reason : null;
  if (reason === "deal_seen") return t("today.dealSeen");
  if (reason === "anonymous") return t("today.unrankedNote");
  return "";
}

// A rejection reason from the verifier, e.g. "bot_mismatch at move 12".
export function explainReason(reason) {
  const text = reason || "?";
  const code = text.split(" ")[0];
  return has(`err.${code}`) ? `${t(`err.${code}`)} (${text})` : text;
}
