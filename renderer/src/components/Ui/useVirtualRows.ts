/**
 * The rows of a server-paged, virtualized table: which rows are on screen (reported as the range
 * to load), back to the top when the filter or sort changes, and the keyboard (arrows, pages,
 * Home, End move the active row; Enter and Space act on it).
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";

export function useVirtualRows(p: {
  total: number;
  rowHeight: number;
  overscan: number;
  onRange(first: number, last: number): void;
  /** Changes when the filter or sort changes. */
  resetKey: string;
  /** Enter on the active row; Space too when given. */
  onEnter(index: number): void;
  onSpace?(index: number): void;
  /** Keys count only when the table itself has focus, not a control inside a row. */
  ownKeysOnly?: boolean;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const virtualizer = useVirtualizer({
    count: p.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => p.rowHeight,
    overscan: p.overscan,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => p.onRange(first, last), [first, last, p.onRange, p.resetKey]);
  useEffect(() => {
    setActive(0);
    virtualizer.scrollToOffset(0);
  }, [p.resetKey]);

  const move = (to: number) => {
    const i = Math.max(0, Math.min(p.total - 1, to));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: "auto" });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (p.ownKeysOnly && e.target !== e.currentTarget) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / p.rowHeight) - 1);
    const keys: Record<string, (() => void) | undefined> = {
      ArrowDown: () => move(active + 1),
      ArrowUp: () => move(active - 1),
      PageDown: () => move(active + page),
      PageUp: () => move(active - page),
      Home: () => move(0),
      End: () => move(p.total - 1),
      Enter: () => p.onEnter(active),
      " ": p.onSpace && (() => p.onSpace!(active)),
    };
    const fn = keys[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  };
  return { scrollRef, virtualizer, items, first, last, active, setActive, onKeyDown };
}
