// ESLint for the whole repository (`npm run lint`): eslint's and typescript-eslint's recommended rules,
// syntax only (no type information, so it stays fast; `npm run typecheck` is the type check).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/coverage/**", "test/artifacts/**", "**/*.js", "**/*.cjs", "**/*.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a value left unused on purpose (a destructured-away field, an ignored argument).
      // JSON documents (GitBook's OpenAPI files, package.json) are read with require; code is imported.
      "@typescript-eslint/no-require-imports": ["error", { allow: ["\\.json$"] }],
      // Control characters in regular expressions are deliberate here: sanitizers, ref-name and URL checks strip or refuse them.
      "no-control-regex": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // Tests read JSON answers whose shape is what is under test: `any` is allowed there, nowhere else.
    files: ["test/**/*.ts", "packages/testkit/**/*.ts", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
