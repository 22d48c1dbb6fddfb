// Builds the inspector into dist/renderer: `vite build renderer` (this folder is the root).
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  plugins: [react()],
  worker: { format: "es" },
  build: {
    outDir: "../dist/renderer",
    emptyOutDir: true,
    chunkSizeWarningLimit: 8000,
    // No source maps in the shipped bundle: the served folder is all the browser may read.
    sourcemap: false,
  },
});
