import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

// One ES module, Lit included, minified, written where the Worker serves assets from
// (worker/public/widget.js, git-ignored). `npm run build:widget` and `npm start` run it.
export default defineConfig({
  root,
  publicDir: false,
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../worker/public", import.meta.url)),
    emptyOutDir: false,
    target: "es2022",
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL("./src/booking-widget.ts", import.meta.url)),
      formats: ["es"],
      fileName: () => "widget.js",
    },
    // Vite's library mode does not minify by default.
    rolldownOptions: { output: { minify: true } },
  },
});
