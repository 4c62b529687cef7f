// Lint configuration: typescript-eslint recommended rules plus the layering rule of DESIGN.md
// (only src/store may import oxigraph; nothing below src/api imports koa).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "dist-bench/", "node_modules/", "data/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { console: "readonly", process: "readonly" },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    files: ["src/**/*.ts"],
    ignores: ["src/store/**", "src/api/**", "src/app.ts", "src/main.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: ["oxigraph", "koa", "@koa/router"] }],
    },
  },
  {
    files: ["src/api/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { paths: ["oxigraph"] }] },
  },
);
