// ESLint for the toy game's page module (static/): the house's page rules (templates/), applied
// to this folder, which lies outside templates/ and so outside that config's reach. Its imports
// are the house's absolute URLs (/static/js/lib/...), never another game's modules.
import { pageModules, recommended } from "../../templates/eslint.config.js";

export default [
  recommended,
  pageModules(["static/**/*.js"]),
  {
    files: ["static/**/*.js"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{
        regex: "^(?!/static/js/lib/)",
        message: "A game's modules import the house's lib/ only (docs/ARCHITECTURE.md).",
      }] }],
    },
  },
];
