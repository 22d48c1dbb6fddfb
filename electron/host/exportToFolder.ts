/**
 * Desktop export: the blob's text is written to a file in the user's Downloads folder (the web
 * mode hands out a download link instead). The file is owner-only, like the store, because the
 * reveal view of a credential blob holds the secrets in clear.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import type { ExportTicket } from "../../core/inspector/api/dto";
import type { BlobViews } from "../../core/inspector/handlers/blobViews";

/** `name`, or `name (1)`, `name (2)`… so an export never overwrites an earlier file. */
export function freeName(folder: string, filename: string): string {
  const ext = extname(filename);
  const stem = filename.slice(0, filename.length - ext.length);
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? filename : `${stem} (${i})${ext}`;
    if (!existsSync(join(folder, candidate))) return candidate;
  }
}

export function exportToFolder(views: Pick<BlobViews, "view">, folder: () => string) {
  return (id: string, masked: boolean, filename: string): ExportTicket => {
    const { view } = views.view(id, masked);
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    // The name comes from the handler (tool name sanitised, id, extension); no path separators.
    const safe = filename.replace(/[\\/]/g, "_");
    const name = freeName(dir, safe);
    const path = join(dir, name);
    writeFileSync(path, view.text, { mode: 0o600, flag: "wx" });
    return { kind: "saved", href: null, path, filename: name };
  };
}
