import { LineReader, type OversizedLine } from "./lineReader";

function collect(max?: number) {
  const lines: string[] = [];
  const big: OversizedLine[] = [];
  const r = new LineReader({ line: (l) => lines.push(l.toString("utf8")), oversized: (o) => big.push(o) }, max);
  return { r, lines, big };
}

describe("LineReader", () => {
  it("splits lines across and within chunks, drops a CR before the newline and skips blank lines", () => {
    const { r, lines } = collect();
    r.push(Buffer.from('{"a":1}\n{"b"'));
    r.push(Buffer.from(':2}\r\n\n  \n{"c":3}\n{"d"'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    r.end();
    expect(lines.at(-1)).toBe('{"d"');
  });

  it("keeps a multi-byte character split between chunks whole", () => {
    const { r, lines } = collect();
    const bytes = Buffer.from('"café 😀"\n');
    for (let i = 0; i < bytes.length; i++) r.push(bytes.subarray(i, i + 1));
    expect(lines).toEqual(['"café 😀"']);
  });

  it("skips a line over the cap, keeping only its ends, and reads the next line normally", () => {
    const { r, lines, big } = collect(1000);
    r.push(Buffer.from('{"id":5,"x":"'));
    for (let i = 0; i < 50; i++) r.push(Buffer.alloc(100, "y"));
    r.push(Buffer.from('"}\n{"ok":true}\n'));
    expect(big).toHaveLength(1);
    expect(big[0]!.bytes).toBe(13 + 5000 + 2);
    expect(big[0]!.head.toString().startsWith('{"id":5,"x":"yyy')).toBe(true);
    expect(big[0]!.tail.toString().endsWith('yy"}')).toBe(true);
    expect(lines).toEqual(['{"ok":true}']);
  });

  it("reads a 64 MB line arriving in 64 KB chunks whole", () => {
    const { r, lines, big } = collect();
    const chunk = Buffer.alloc(65_536, "a");
    for (let i = 0; i < 1023; i++) r.push(chunk);
    r.push(Buffer.concat([chunk.subarray(0, 65_535), Buffer.from("\n")]));
    expect(big).toHaveLength(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBe(64 * 1024 * 1024 - 1);
  });
});
