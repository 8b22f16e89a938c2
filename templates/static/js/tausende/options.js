// What a Tausende table offers (lib/table/summary.js shows it): its rules page and its options
// (R8's strict_1000, R12.8's), as the "Spielen" page shows them: [T.rules key, label key].

export const RULES_PAGE = "/rules/tausende";
export const OPTIONS = [
  ["strict_1000", "tables.strict1000"],
  ["ace_high_only", "tausende.option.ace_high_only"],
  ["no_joker_swap", "tausende.option.no_joker_swap"],
  ["go_out_on_opening", "tausende.option.go_out_on_opening"],
  ["hints", "tables.hints"],
];
