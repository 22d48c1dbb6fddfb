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
 * them leaves the screen, and below 1280 px the kind gives its place up (styles.css), so every
 * other column shows whole from 1024 px up; tool and session take the rest.
 */
export const WIDTHS: Record<string, [number, number]> = {
  select: [30, 28],
  id: [112, 96],
  tool: [200, 80],
  sessionId: [120, 70],
  kind: [76, 66],
  label: [92, 90],
  state: [100, 98],
  role: [76, 62],
  chars: [76, 62],
  createdAt: [104, 92],
  expiresAt: [76, 64],
  fetchCount: [76, 66],
};
/** Columns that take the width left over, in proportion. */
export const GROW: Record<string, number> = { tool: 2, sessionId: 1 };

const ROLE_TEXT: Record<string, { text: string; title: string }> = {
  rescued: { text: "handle", title: "The model was given a handle for it (rescued)" },
  dedup: { text: "dedup", title: "A dedup copy: the model got it in full; the copy is kept so repeats become stubs" },
  other: { text: "none", title: "No recorded call returned it (put into the store directly)" },
};

export const columns = h.columns([
  h.display({ id: "select", header: "", enableSorting: false }),
  h.accessor("id", { header: "Id", cell: (c) => <span className="mono">{c.getValue()}</span> }),
  h.accessor("tool", {
    header: "Tool",
    cell: (c) => (
      <span className="mono" title={c.row.original.server ?? undefined}>
        {c.getValue()}
      </span>
    ),
  }),
  h.accessor("sessionId", {
    header: "Session",
    cell: (c) => (
      <span className="mono" title={c.getValue()}>
        {shortId(c.getValue(), 9)}
      </span>
    ),
  }),
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
      return r ? (
        <span className={c.getValue() === "rescued" ? undefined : "muted"} title={r.title}>
          {r.text}
        </span>
      ) : null;
    },
  }),
  h.accessor("chars", {
    header: "Size",
    cell: (c) => (
      <span className="num" title={`${fmtInt(c.getValue())} chars, ${fmtInt(c.row.original.lines)} lines`}>
        {fmtCompact(c.getValue())}
      </span>
    ),
  }),
  h.accessor("createdAt", { header: "Stored", cell: (c) => <span title={fmtTime(c.getValue())}>{fmtShortTime(c.getValue())}</span> }),
  h.accessor("expiresAt", {
    header: "Expiry",
    cell: (c) =>
      c.row.original.state === "live" ? (
        <span title={fmtTime(c.getValue())}>{fmtAgo(c.getValue())}</span>
      ) : (
        <span className="muted">–</span>
      ),
  }),
  h.accessor("fetchCount", { header: "Fetches", cell: (c) => <span className="num">{fmtInt(c.getValue())}</span> }),
]);
