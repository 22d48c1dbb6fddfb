/** The rendered width of an element, for SVG charts that draw in real pixels (text never stretches). */
import { useLayoutEffect, useRef, useState } from "react";

export function useWidth<T extends HTMLElement>(initial = 600) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || initial);
    const ro = new ResizeObserver(([e]) => setWidth(Math.max(120, Math.floor(e!.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, [initial]);
  return { ref, width };
}
