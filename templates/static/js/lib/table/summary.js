// Which game a table plays and the house rules it was made with (R9; R8's strict_1000; Tausende's
// R12.8 options), for the invite's page and the waiting room: a friend sees what they are asked to
// before they sit down. German first (lib/i18n.js); an option no label is known for is left out
// rather than shown as a raw key. What a game offers is its own: static/js/<game>/options.js.

import { h } from "../dom.js";
import { has, t } from "../i18n.js";

const NONE = { RULES_PAGE: null, OPTIONS: [] };
const known = new Map();

// A game's options.js (RULES_PAGE: its rules page or null; OPTIONS: [T.rules key, label key] in
// the order the "Spielen" page shows them), loaded once; a game without one offers nothing. Only a
// game's own options are shown: a table's T.rules may carry others' house rules, which it does not
// play (a Gin table's Pik Dame options, G1-G9).
export function gameOptions(game) {
  if (!known.has(game)) {
    known.set(game, import(`../../${encodeURIComponent(game)}/options.js`).catch(() => NONE));
  }
  return known.get(game);
}

export const gameName = (game) => (has(`tables.game.${game}`) ? t(`tables.game.${game}`) : String(game));

function ruleItem(key, label, value) {
  return h("li", { dataset: { rule: key } }, h("span", { class: "rule-name", text: `${label}: ` }),
    h("strong", { class: "rule-value", text: value }));
}

// The list of a table's rules: players, turn timer, then each option the game has, on or off;
// offered: the game's options.js (gameOptions).
export function rulesSummary(game, rules, offered) {
  const items = [
    ruleItem("players", t("tables.players"), String(rules.players)),
    ruleItem("turn_timer", t("tables.timer"),
      rules.turn_timer ? t("tables.timerS", { n: rules.turn_timer }) : t("tables.timerOff")),
    ...offered.OPTIONS.filter(([key]) => typeof rules[key] === "boolean")
      .map(([key, label]) => ruleItem(key, t(label), t(rules[key] ? "tables.on" : "tables.off"))),
  ];
  const link = offered.RULES_PAGE;
  return h("div", { class: "table-summary", dataset: { game } },
    h("p", { class: "summary-game" }, h("span", { text: `${t("tables.game")}: ` }),
      h("strong", { class: "game-name", text: gameName(game) }),
      link ? [" · ", h("a", { href: link, target: "_blank", rel: "noopener", text: t("tables.rulesOf", { game: gameName(game) }) })] : null),
    h("h2", { text: t("tables.rules") }),
    h("ul", { class: "rules-summary" }, items));
}

// One seat in words: a human's name, "offen", or a bot with its level.
export function seatText(s) {
  if (s.kind === "bot") return t("tables.botSeat", { level: t(`level.${s.level}`) });
  return s.name || t("tables.openSeat");
}

// A forfeit said as one (T.result.forfeited_by: the turn timer's rule, or the others' claim
// against an away seat): who forfeited and why, then who wins (never the forfeiter); null when
// the game did not end by a forfeit.
export function forfeitText(result, nameOf) {
  const by = result.forfeited_by;
  if (by === null || by === undefined) return null;
  const claimer = result.claimed_by;
  const said = claimer === null || claimer === undefined
    ? t("tables.forfeitTimer", { name: nameOf(by) })
    : t("tables.forfeitClaimed", { name: nameOf(by), claimer: nameOf(claimer) });
  const winner = result.winner;
  return winner === null || winner === undefined ? said
    : `${said} ${t("tables.winner", { name: nameOf(winner) })}`;
}

// The seats in the order of the result: by T.result.places (a forfeit last, then the winner,
// then by total), else by total; each [seat, place].
export function finishingOrder(result) {
  const places = result.places || null;
  const seats = result.totals.map((_, seat) => seat);
  const place = (seat) => (places ? places[seat] : 1 + result.totals.filter((x) => x > result.totals[seat]).length);
  return seats.sort((a, b) => place(a) - place(b) || result.totals[b] - result.totals[a])
    .map((seat) => [seat, place(seat)]);
}
