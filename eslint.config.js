// ESLint for the browser side (static/) and its tools and tests (scripts/*.mjs, tests/js/).
// The house rules hold here as in Python: no file over 450 lines, no function over 80.
import js from "@eslint/js";
import globals from "globals";

const HOUSE = {
  "max-lines": ["error", { max: 450, skipBlankLines: false, skipComments: false }],
  "max-lines-per-function": ["error", { max: 80, skipBlankLines: false, skipComments: false }],
  "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
  "no-restricted-syntax": [
    "error",
    {
      selector: "MemberExpression[property.name=/^__ae/]",
      message:
        "No window.__ae* globals: export it from a module (or use window.AttentionExplorer).",
    },
  ],
  eqeqeq: ["error", "smart"],
  "prefer-const": "error",
  "no-var": "error",
};

export default [
  { ignores: ["static/build/**", "node_modules/**", ".venv/**", "artifacts/**", "runs/**"] },
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: HOUSE,
  },
  {
    // the static edition's service worker: a classic script, copied unbundled (build.py)
    files: ["static/site/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["scripts/**/*.mjs", "tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
    rules: { ...HOUSE, "max-lines-per-function": "off" },
  },
];
