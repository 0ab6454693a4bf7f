import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The widget's pure parts (selection, formatting, error classification, string tables), tested
// next to their files in Node: no DOM is needed for them, and the browser journeys are in e2e/.
export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["widget/**/*.test.ts"],
    environment: "node",
  },
});
