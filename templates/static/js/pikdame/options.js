// What a Pik Dame table offers (lib/table/summary.js shows it): its rules page and its house rules
// (R9, R8's strict_1000), as the "Spielen" page shows them: [T.rules key, label key].

export const RULES_PAGE = "/rules";
export const OPTIONS = [
  ["hand_out_double", "tables.handOutDouble"],
  ["strict_1000", "tables.strict1000"],
  ["hints", "tables.hints"],
];
