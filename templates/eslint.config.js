// ESLint for the pages' ES modules (static/js): browser globals, no build step, no framework.
import js from "@eslint/js";
import globals from "globals";

const LIB = "lib/ is shared by every game: it never imports a game's or a page's module.";
const GAME = "A game's modules (static/js/<game>/) serve its own pages: share code through lib/.";
// files may not import what matches one of the patterns
const notFrom = (files, patterns, message) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }] },
});

// A page module's rules: for these pages and for a game kept outside templates/ (the toy game
// of tests/toygame, whose own config applies them to its folder).
export const pageModules = (files) => ({
  files,
  languageOptions: {
    ecmaVersion: 2022,
    sourceType: "module",
    globals: { ...globals.browser },
  },
  rules: {
    "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    "no-var": "error",
    "prefer-const": "error",
    eqeqeq: ["error", "always"],
    "no-implicit-globals": "error",
    "no-restricted-syntax": ["error",
      { selector: "MemberExpression[property.name='innerHTML']",
        message: "Build elements with lib/dom.js h() so every text is escaped." }],
  },
});

export const recommended = js.configs.recommended;

export default [
  recommended,
  pageModules(["static/js/**/*.js"]),
  // lib/ is game-neutral: it imports nothing outside lib/ (a page passes what its game adds).
  notFrom(["static/js/lib/*.js"], ["../*"], LIB),
  notFrom(["static/js/lib/*/*.js"], ["../../*"], LIB),
  // Every other folder (a game's, or a page's shared by the games) imports lib/ and its own
  // modules only, so no game's code reaches another game's pages. Tausende, a ruleset of Pik
  // Dame's engine (RULES.md R12), plays on Pik Dame's board.
  {
    ...notFrom(["static/js/*/*.js"], ["../*", "!../lib", "!../lib/**"], GAME),
    ignores: ["static/js/lib/**", "static/js/tausende/*.js"],
  },
  notFrom(["static/js/tausende/*.js"],
    ["../*", "!../lib", "!../lib/**", "!../pikdame", "!../pikdame/**"], GAME),
  notFrom(["static/js/*.js"], ["./*/*", "!./lib", "!./lib/**"], GAME),
  // The service worker: a classic script in the worker's scope, led by the release's tables.
  {
    files: ["static/js/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
