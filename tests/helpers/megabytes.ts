/** About `mb` million chars of text made of `line(0)`, `line(1)`, …: big inputs for scanners in tests and benches. */
export function megabytes(mb: number, line: (i: number) => string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 1_000_000; i++) {
    const l = line(i);
    parts.push(l);
    size += l.length;
  }
  return parts.join("");
}
