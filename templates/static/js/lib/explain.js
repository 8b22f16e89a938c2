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
// ranked_start): a deal once seen is not played ranked that day. That anonymous play is unranked
// the front page says once, in its note beside the sign-in link (templates/today.html).
export function explainRankedStart(day) {
  const reason = day.ranked_start ? day.ranked_start.reason : null;
  return reason === "deal_seen" ? t("today.dealSeen") : "";
}

// A rejection reason from the verifier, e.g. "bot_mismatch at move 12".
export function explainReason(reason) {
  const text = reason || "?";
  const code = text.split(" ")[0];
  return has(`err.${code}`) ? `${t(`err.${code}`)} (${text})` : text;
}
