/**
 * The blobs table: TanStack Table v9 for columns and sort state, TanStack Virtual for rows.
 * Rows come sorted and filtered from the server a page at a time; only the rows on screen
 * exist in the DOM, so 100 k blobs scroll like 100.
 */
import { useTable, type SortingState } from "@tanstack/react-table";
import { useMemo } from "react";
import type { BlobRow, BlobSortKey } from "../../../../core/inspector/api/contract";
import { columns, features, GROW, WIDTHS, type IndexedRow } from "./columns";
import { useVirtualRows } from "../Ui/useVirtualRows";

export interface BlobTableProps {
  total: number;
  rowAt(i: number): BlobRow | undefined;
  /** Changes when loaded rows changed. */
  version: number;
  onRange(first: number, last: number): void;
  sort: { by: BlobSortKey; dir: "asc" | "desc" };
  onSort(sort: { by: BlobSortKey; dir: "asc" | "desc" }): void;
  selected: ReadonlySet<string>;
  onSelect(ids: string[], on: boolean): void;
  onOpen(id: string): void;
  /** Changes when the filter or sort changes: the table goes back to the top. */
  resetKey: string;
}

const ROW_H = 28;

export function BlobTable(p: BlobTableProps) {
  const { scrollRef, virtualizer, items, first, last, active, setActive, onKeyDown } = useVirtualRows({
    total: p.total,
    rowHeight: ROW_H,
    overscan: 12,
    onRange: p.onRange,
    resetKey: p.resetKey,
    onEnter: (i) => {
      const r = p.rowAt(i);
      if (r) p.onOpen(r.id);
    },
    onSpace: (i) => {
      const r = p.rowAt(i);
      if (r) p.onSelect([r.id], !p.selected.has(r.id));
    },
  });

  // The table sees only the loaded rows around the viewport, tagged with their absolute index.
  const data = useMemo(() => {
    const out: IndexedRow[] = [];
    for (let i = first; i <= last && i < p.total; i++) {
      const r = p.rowAt(i);
      if (r) out.push({ ...r, index: i });
    }
    return out;
  }, [first, last, p.version, p.total]);
  const sorting: SortingState = [{ id: p.sort.by, desc: p.sort.dir === "desc" }];
  const table = useTable({
    features,
    columns,
    data,
    getRowId: (r) => `${r.index}:${r.id}`,
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting },
    onSortingChange: (u) => {
      const next = typeof u === "function" ? u(sorting) : u;
      const s = next[0];
      if (s) p.onSort({ by: s.id as BlobSortKey, dir: s.desc ? "desc" : "asc" });
    },
  });
  const byIndex = new Map(table.getRowModel().rows.map((r) => [r.original.index, r]));

  const allLoaded = data.map((r) => r.id);
  const allOn = allLoaded.length > 0 && allLoaded.every((id) => p.selected.has(id));

  return (
    <div
      className="vtable"
      ref={scrollRef}
      tabIndex={0}
      role="region"
      aria-label={`Blobs, ${p.total} rows. Arrow keys move, Enter opens, Space selects.`}
      onKeyDown={onKeyDown}
      data-testid="blob-table"
    >
      <table className="table" style={{ display: "grid" }} aria-rowcount={p.total + 1}>
        <thead style={{ display: "grid", position: "sticky", top: 0, zIndex: 1 }}>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id} style={{ display: "flex" }}>
              {g.headers.map((hd) => {
                const sorted = hd.column.getIsSorted();
                return (
                  <th
                    key={hd.id}
                    data-col={hd.column.id}
                    style={cellStyle(hd.column.id)}
                    aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                  >
                    {hd.column.id === "select" ? (
                      <input
                        type="checkbox"
                        aria-label="Select the rows on screen"
                        checked={allOn}
                        onChange={(e) => p.onSelect(allLoaded, e.target.checked)}
                      />
                    ) : (
                      <button type="button" onClick={hd.column.getToggleSortingHandler()}>
                        <table.FlexRender header={hd} />
                        <span aria-hidden="true">{sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : ""}</span>
                      </button>
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody style={{ display: "grid", height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((it) => {
            const row = byIndex.get(it.index);
            const id = row?.original.id;
            return (
              <tr
                key={it.key}
                data-index={it.index}
                data-id={id}
                aria-rowindex={it.index + 2}
                aria-selected={it.index === active}
                style={{ display: "flex", position: "absolute", transform: `translateY(${it.start}px)`, width: "100%", height: ROW_H }}
                onClick={() => setActive(it.index)}
                onDoubleClick={() => id && p.onOpen(id)}
              >
                {row
                  ? row.getAllCells().map((c) => (
                      <td key={c.id} data-col={c.column.id} style={cellStyle(c.column.id)}>
                        {c.column.id === "select" ? (
                          <input
                            type="checkbox"
                            aria-label={`Select ${id}`}
                            checked={p.selected.has(id!)}
                            onChange={(e) => p.onSelect([id!], e.target.checked)}
                          />
                        ) : c.column.id === "id" ? (
                          <a className="mono" href={`#/blobs/${id}`}>
                            {id}
                          </a>
                        ) : (
                          <table.FlexRender cell={c} />
                        )}
                      </td>
                    ))
                  : columns.map((c) => (
                      <td key={c.id} data-col={c.id} style={cellStyle(c.id!)}>
                        <span className="skeleton" />
                      </td>
                    ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function cellStyle(id: string) {
  const [pref, min] = WIDTHS[id] ?? [100, 60];
  const grow = GROW[id] ?? 0;
  const right = id === "fetchCount" || id === "chars";
  return {
    flex: `${grow} 1 ${pref}px`,
    minWidth: min,
    display: "flex",
    alignItems: "center",
    justifyContent: right ? "flex-end" : undefined,
  };
}
