// What a Gin table offers (lib/table/summary.js shows it): no house rule (G1-G9 are the whole
// game), and the waiting room links no rules page.

export const RULES_PAGE = null;
export const OPTIONS = [];
