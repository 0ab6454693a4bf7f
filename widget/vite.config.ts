import { readdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
const outDir = fileURLToPath(new URL("../worker/public", import.meta.url));

/**
 * Rolldown minifies code but not the text inside template literals: the indentation of Lit's
 * html`` and css`` templates would ship as is. Newlines stay (a newline is whitespace to HTML
 * and CSS alike, and keeps ASI as it was); the stylesheet also loses its comments and the
 * spaces around its punctuation.
 */
function squeezeTemplates(): Plugin {
  return {
    name: "squeeze-templates",
    transform(code, id) {
      if (!/[\\/]widget[\\/]src[\\/].*\.ts$/.test(id) || /\.test\.ts$/.test(id)) return null;
      let out = code.replace(/\n[ \t]+/g, "\n");
      if (/\.styles\.ts$/.test(id)) out = out.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s*([{};])\s*/g, "$1").replace(/([:,])\s+/g, "$1");
      return { code: out, map: null };
    },
  };
}

/** The previous build's chunks go before a build (their names change with their content). */
function removeOldChunks(): Plugin {
  return {
    name: "remove-old-chunks",
    buildStart() {
      for (const f of readdirSync(outDir)) if (/^widget-.*\.js$/.test(f)) rmSync(`${outDir}/${f}`);
    },
  };
}

// widget.js: one ES module with Lit and everything the first screen needs, minified, written
// where the Worker serves assets from (worker/public, git-ignored). The rest of the guest's path
// and the texts of languages other than English are chunks beside it (widget-<name>-<hash>.js),
// fetched on demand; they import what they share from widget.js itself, so nothing is
// duplicated ("allow-extension" lets widget.js export those shared parts too).
// `npm run build:widget` and `npm start` run it.
export default defineConfig({
  root,
  publicDir: false,
  logLevel: "warn",
  plugins: [squeezeTemplates(), removeOldChunks()],
  build: {
    outDir,
    emptyOutDir: false,
    target: "es2022",
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL("./src/booking-widget.ts", import.meta.url)),
      formats: ["es"],
      fileName: () => "widget.js",
    },
    rolldownOptions: {
      preserveEntrySignatures: "allow-extension",
      // Vite's library mode does not minify by default.
      output: { minify: true, chunkFileNames: "widget-[name]-[hash].js" },
    },
  },
});
