/**
 * Monaco, loaded lazily: the editor with its standard features (the JSON language features
 * need their services), and tokenizers only for the kinds Spillway detects. Workers are local
 * ES modules (strict CSP: no CDN).
 */
import * as monaco from "monaco-editor/editor";
import "monaco-editor/features/register.all";
import "monaco-editor/languages/definitions/xml/register";
import "monaco-editor/languages/definitions/html/register";
import "monaco-editor/languages/definitions/markdown/register";
import { jsonDefaults } from "monaco-editor/languages/features/json/register";
import EditorWorker from "monaco-editor/editor/editor.worker?worker";
import JsonWorker from "monaco-editor/language/json/json.worker?worker";

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(id: string, label: string): Worker };
  }
}

self.MonacoEnvironment = {
  getWorker: (_id: string, label: string) => (label === "json" ? new JsonWorker() : new EditorWorker()),
};

// The viewer shows windows of a blob: a JSON fragment is not an error, and a window has no schema.
jsonDefaults.setDiagnosticsOptions({ validate: false, allowComments: true, trailingCommas: "ignore" });

export { monaco };

/** Monaco's language for a blob kind; the rest are plain text (logs, CSV, prose, code of unknown language). */
export function languageOf(kind: string): string {
  switch (kind) {
    case "json":
      return "json";
    case "html":
      return "html";
    case "xml":
      return "xml";
    case "markdown":
      return "markdown";
    default:
      return "plaintext";
  }
}
