/** Columns of the blobs table (TanStack Table v9); module scope so the table's inputs stay stable. */
import { createColumnHelper, rowSortingFeature, tableFeatures } from "@tanstack/react-table";
import type { BlobRow } from "../../../../core/inspector/api/contract";
import { fmtAgo, fmtCompact, fmtInt, fmtTime } from "../../format/format";
import { Badge } from "../Ui/Ui";

/** A loaded row and its absolute position in the server-sorted list. */
export type IndexedRow = BlobRow & { index: number };

export const features = tableFeatures({ rowSortingFeature });
const h = createColumnHelper<typeof features, IndexedRow>();

/** Column widths in px; the last column ("fetches") takes what is left. */
export const WIDTHS: Record<string, number> = {
  select: 34, id: 118, tool: 190, sessionId: 170, kind: 82, label: 92, state: 98, chars: 92, createdAt: 160, expiresAt: 96, fetchCount: 70,
};

export const columns = h.columns([
  h.display({ id: "select", header: "", enableSorting: false }),
  h.accessor("id", { header: "Id", cell: (c) => <span className="mono">{c.getValue()}</span> }),
  h.accessor("tool", { header: "Tool", cell: (c) => <span className="mono" title={c.row.original.server ?? undefined}>{c.getValue()}</span> }),
  h.accessor("sessionId", { header: "Session", cell: (c) => <span className="mono" title={c.getValue()}>{c.getValue()}</span> }),
  h.accessor("kind", { header: "Kind" }),
  h.accessor("label", { header: "Label", cell: (c) => <Badge value={c.getValue()} /> }),
  h.accessor("state", {
    header: "State",
    cell: (c) => <Badge value={c.getValue()} title={c.row.original.tombstoneReason ?? undefined} />,
  }),
  h.accessor("chars", {
    header: "Size",
    cell: (c) => <span className="num" title={`${fmtInt(c.getValue())} chars, ${fmtInt(c.row.original.lines)} lines`}>{fmtCompact(c.getValue())}</span>,
  }),
  h.accessor("createdAt", { header: "Stored", cell: (c) => <span className="mono">{fmtTime(c.getValue())}</span> }),
  h.accessor("expiresAt", {
    header: "Expiry",
    cell: (c) => (c.row.original.state === "live" ? <span title={fmtTime(c.getValue())}>{fmtAgo(c.getValue())}</span> : <span className="muted">–</span>),
  }),
  h.accessor("fetchCount", { header: "Fetches", cell: (c) => <span className="num">{fmtInt(c.getValue())}</span> }),
]);
