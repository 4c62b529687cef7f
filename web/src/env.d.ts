/** Stylesheets imported for esbuild to bundle (web/build.mjs). */
declare module "*.css";
