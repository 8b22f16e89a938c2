// Which game a table plays and the house rules it was made with (R9; R8's strict_1000; Tausende's
// R12.8 options), for the invite's page and the waiting room: a friend sees what they are asked to
// before they sit down (issue 12). German first (lib/i18n.js); an option no label is known for is
// left out rather than shown as a raw key.

import { h } from "../dom.js";
import { has, t } from "../i18n.js";

// The rules page of each game (Gin's once it has one).
const RULES_PAGE = { pikdame: "/rules", tausende: "/rules/tausende" };
// Option keys (API.md "Tables" T.rules) and their labels, in the order the "Spielen" page shows
// them, per game: a Gin table's T.rules may carry Pik Dame's house rules too, which Gin does not
// play (G1-G9), so only a game's own options are shown.
const OPTION_LABELS = {
  pikdame: [
    ["hand_out_double", "tables.handOutDouble"],
    ["strict_1000", "tables.strict1000"],
    ["hints", "tables.hints"],
  ],
  tausende: [
    ["strict_1000", "tables.strict1000"],
    ["ace_high_only", "tausende.option.ace_high_only"],
    ["no_joker_swap", "tausende.option.no_joker_swap"],
    ["go_out_on_opening", "tausende.option.go_out_on_opening"],
    ["hints", "tables.hints"],
  ],
  gin: [],
};

export const gameName = (game) => (has(`tables.game.${game}`) ? t(`tables.game.${game}`) : String(game));

function ruleItem(key, label, value) {
  return h("li", { dataset: { rule: key } }, h("span", { class: "rule-name", text: `${label}: ` }),
    h("strong", { class: "rule-value", text: value }));
}

// The list of a table's rules: players, turn timer, then each option the game has, on or off.
export function rulesSummary(game, rules) {
  const items = [
    ruleItem("players", t("tables.players"), String(rules.players)),
    ruleItem("turn_timer", t("tables.timer"),
      rules.turn_timer ? t("tables.timerS", { n: rules.turn_timer }) : t("tables.timerOff")),
    ...(OPTION_LABELS[game] || []).filter(([key]) => typeof rules[key] === "boolean")
      .map(([key, label]) => ruleItem(key, t(label), t(rules[key] ? "tables.on" : "tables.off"))),
  ];
  const link = RULES_PAGE[game];
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
