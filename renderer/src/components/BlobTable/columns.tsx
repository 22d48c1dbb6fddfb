/** Columns of the blobs table (TanStack Table v9); module scope so the table's inputs stay stable. */
import { createColumnHelper, rowSortingFeature, tableFeatures } from "@tanstack/react-table";
import type { BlobRow } from "../../../../core/inspector/api/contract";
import { fmtAgo, fmtCompact, fmtInt, fmtShortTime, fmtTime, shortId } from "../../format/format";
import { Badge } from "../Ui/Ui";

/** A loaded row and its absolute position in the server-sorted list. */
export type IndexedRow = BlobRow & { index: number };

export const features = tableFeatures({ rowSortingFeature });
const h = createColumnHelper<typeof features, IndexedRow>();

/**
 * Column widths in px: [preferred, minimum]. Columns shrink toward their minimum before any of
 * them leaves the screen, so every column shows from 1024 px up; tool and session take the rest.
 */
export const WIDTHS: Record<string, [number, number]> = {
  select: [30, 28], id: [112, 96], tool: [200, 90], sessionId: [150, 70], kind: [70, 50], label: [88, 74], state: [90, 72], role: [88, 74],
  chars: [78, 58], createdAt: [110, 84], expiresAt: [80, 62], fetchCount: [70, 54],
};
/** Columns that take the width left over, in proportion. */
export const GROW: Record<string, number> = { tool: 2, sessionId: 1 };

const ROLE_TEXT: Record<string, { text: string; title: string }> = {
  rescued: { text: "handle", title: "The model was given a handle for it (rescued)" },
  dedup: { text: "dedup copy", title: "The model got it in full; the copy is kept so repeats become stubs" },
  other: { text: "no call", title: "No recorded call returned it (put into the store directly)" },
};

export const columns = h.columns([
  h.display({ id: "select", header: "", enableSorting: false }),
  h.accessor("id", { header: "Id", cell: (c) => <span className="mono">{c.getValue()}</span> }),
  h.accessor("tool", { header: "Tool", cell: (c) => <span className="mono" title={c.row.original.server ?? undefined}>{c.getValue()}</span> }),
  h.accessor("sessionId", { header: "Session", cell: (c) => <span className="mono" title={c.getValue()}>{shortId(c.getValue(), 14)}</span> }),
  h.accessor("kind", { header: "Kind" }),
  h.accessor("label", { header: "Label", cell: (c) => <Badge value={c.getValue()} /> }),
  h.accessor("state", {
    header: "State",
    cell: (c) => <Badge value={c.getValue()} title={c.row.original.tombstoneReason ?? undefined} />,
  }),
  h.accessor("role", {
    header: "Given as",
    enableSorting: false,
    cell: (c) => {
      const r = ROLE_TEXT[c.getValue() ?? ""];
      return r ? <span className={c.getValue() === "rescued" ? undefined : "muted"} title={r.title}>{r.text}</span> : null;
    },
  }),
  h.accessor("chars", {
    header: "Size",
    cell: (c) => <span className="num" title={`${fmtInt(c.getValue())} chars, ${fmtInt(c.row.original.lines)} lines`}>{fmtCompact(c.getValue())}</span>,
  }),
  h.accessor("createdAt", { header: "Stored", cell: (c) => <span title={fmtTime(c.getValue())}>{fmtShortTime(c.getValue())}</span> }),
  h.accessor("expiresAt", {
    header: "Expiry",
    cell: (c) => (c.row.original.state === "live" ? <span title={fmtTime(c.getValue())}>{fmtAgo(c.getValue())}</span> : <span className="muted">–</span>),
  }),
  h.accessor("fetchCount", { header: "Fetches", cell: (c) => <span className="num">{fmtInt(c.getValue())}</span> }),
]);
