/**
 * Kubernetes Secret manifests (`kubectl get secret -o yaml|json`, a Helm render): every value
 * under `data` and `stringData` is a secret, whatever its key is called (`DATABASE_URL`,
 * `SIGNING`), and base64 hides nothing from a model. The values have no shape of their own, so
 * the manifest around them decides: a mapping whose `kind` is `Secret`. kubectl sorts keys, so
 * `data` comes before `kind`; each mapping is judged when it closes. One pass over the lines
 * (YAML) or the characters (JSON), after a literal test: a text without `Secret` costs nothing.
 */
import RE2 from "re2";
import type { SecretFinding } from "./secrets";

const SECRET = new RE2("Secret");
const YAML_KIND = /^[ \t-]*kind:[ \t]*(["']?)Secret\1[ \t]*\r?$/m;
const JSON_KIND = /"kind"[ \t\r\n]*:[ \t\r\n]*"Secret"/;
const DATA_KEYS = new Set(["data", "stringData"]);
/** A value masking already replaced (masking masked text must find nothing new). */
const MASKED = /^\[masked:[a-z0-9_]+\]$/;
const span = (text: string, start: number, end: number): SecretFinding | null =>
  end > start && !MASKED.test(text.slice(start, end)) ? { type: "kubernetes_secret", start, end } : null;

/** Spans of the values of `data` and `stringData` in Kubernetes Secrets. `utf8`: the text's bytes when ASCII. */
export function findKubernetesSecrets(text: string, utf8?: Buffer): SecretFinding[] {
  const found: SecretFinding[] = [];
  if (utf8 === undefined ? !text.includes("Secret") : !SECRET.test(utf8 as unknown as string)) return found;
  if (JSON_KIND.test(text)) jsonSecrets(text, found);
  if (YAML_KIND.test(text)) yamlSecrets(text, found);
  return found;
}

interface YamlFrame {
  /** Column of this mapping's keys. */
  col: number;
  /** The key of the parent mapping this mapping is the value of. */
  parentKey: string | null;
  lastKey: string | null;
  secret: boolean;
  /** Values of its `data`/`stringData` children, kept until the mapping closes and says whether it is a Secret. */
  spans: SecretFinding[];
}

const KEY_LINE = /^([A-Za-z0-9_.\-/]+|"[^"]*"|'[^']*'):(?:[ \t]+(.*?))?[ \t]*\r?$/;

function yamlSecrets(text: string, found: SecretFinding[]): void {
  const stack: YamlFrame[] = [{ col: -1, parentKey: null, lastKey: null, secret: false, spans: [] }];
  const close = () => {
    const f = stack.pop()!;
    if (f.secret) for (const s of f.spans) found.push(s);
  };
  // A block scalar (`key: |`) under `data`: its lines deeper than `col` are the value.
  let block: { col: number; owner: YamlFrame } | null = null;
  for (let start = 0; start < text.length;) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    const lineStart = start;
    start = end + 1;
    let i = lineStart;
    while (i < end && text.charCodeAt(i) === 32) i++;
    if (i >= end || text.charCodeAt(i) === 35 || (i === end - 1 && text.charCodeAt(i) === 13)) continue; // blank or comment
    let col = i - lineStart;
    if (block) {
      if (col > block.col) {
        let e = end;
        if (text.charCodeAt(e - 1) === 13) e--;
        while (e > i && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
        const f = span(text, i, e);
        if (f) block.owner.spans.push(f);
        continue;
      }
      block = null;
    }
    if (col === 0 && /^(?:---|\.\.\.)[ \t]*\r?$/.test(text.slice(i, Math.min(end, i + 8)))) {
      while (stack.length > 1) close();
      continue;
    }
    let item = false;
    if (text.charCodeAt(i) === 45 && text.charCodeAt(i + 1) === 32) {
      item = true;
      i += 2;
      while (i < end && text.charCodeAt(i) === 32) i++;
      col = i - lineStart;
    }
    while (stack.length > 1 && stack[stack.length - 1]!.col > col) close();
    let top = stack[stack.length - 1]!;
    if (item && top.col === col) {
      close();
      top = stack[stack.length - 1]!;
    }
    if (top.col < col) {
      stack.push({ col, parentKey: item ? null : top.lastKey, lastKey: null, secret: false, spans: [] });
      top = stack[stack.length - 1]!;
    }
    const m = KEY_LINE.exec(text.slice(i, end));
    if (!m) continue;
    const key = m[1]!.replace(/^["']|["']$/g, "");
    const value = m[2] ?? "";
    top.lastKey = key;
    if (key === "kind" && /^(["']?)Secret\1$/.test(value)) top.secret = true;
    const owner = top.parentKey !== null && DATA_KEYS.has(top.parentKey) ? stack[stack.length - 2] : undefined;
    if (!owner || value === "") continue;
    if (/^[|>][-+0-9]*$/.test(value)) {
      block = { col, owner };
      continue;
    }
    // The value's span in the text, inside its quotes when quoted.
    let s = i + m[1]!.length + 1;
    while (text.charCodeAt(s) === 32 || text.charCodeAt(s) === 9) s++;
    let e = s + value.length;
    const q = text.charCodeAt(s);
    if ((q === 34 || q === 39) && e - s >= 2 && text.charCodeAt(e - 1) === q) {
      s++;
      e--;
    }
    const f = span(text, s, e);
    if (f) owner.spans.push(f);
  }
  while (stack.length > 1) close();
  if (stack[0]!.secret) for (const s of stack[0]!.spans) found.push(s);
}

interface JsonFrame {
  isObj: boolean;
  expectKey: boolean;
  key: string | null;
  secret: boolean;
  /** This object is the value of a `data`/`stringData` member: its string values go to the parent's spans. */
  data: boolean;
  spans: SecretFinding[];
}

function jsonSecrets(text: string, found: SecretFinding[]): void {
  const stack: JsonFrame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      while (j < text.length) {
        const x = text.charCodeAt(j);
        if (x === 34) break;
        j += x === 92 ? 2 : 1;
      }
      const top = stack[stack.length - 1];
      if (top?.isObj && top.expectKey) {
        top.key = j - i <= 64 ? text.slice(i + 1, j) : null;
        top.expectKey = false;
      } else if (top?.isObj) {
        if (top.key === "kind" && j - i === 7 && text.startsWith("Secret", i + 1)) top.secret = true;
        const f = top.data ? span(text, i + 1, Math.min(j, text.length)) : null;
        if (f) stack[stack.length - 2]!.spans.push(f);
      }
      i = j;
    } else if (c === 123 || c === 91) {
      const parent = stack[stack.length - 1];
      const data =
        c === 123 && parent !== undefined && parent.isObj && !parent.expectKey && parent.key !== null && DATA_KEYS.has(parent.key);
      stack.push({ isObj: c === 123, expectKey: c === 123, key: null, secret: false, data, spans: [] });
    } else if (c === 125 || c === 93) {
      const f = stack.pop();
      if (f?.secret) for (const s of f.spans) found.push(s);
    } else if (c === 44) {
      const top = stack[stack.length - 1];
      if (top?.isObj) {
        top.expectKey = true;
        top.key = null;
      }
    }
  }
}
