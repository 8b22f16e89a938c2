// ESLint for the pages' ES modules (static/js): browser globals, no build step, no framework.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
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
      "no-restricted-imports": ["error",
        { patterns: [{ group: ["../play/*", "./play/*"],
          message: "Pages share code through lib/, never through another page's modules." }] }],
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
