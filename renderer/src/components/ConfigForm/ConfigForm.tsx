/**
 * The configuration as a form built from its JSON Schema. Presentational: it gets the value,
 * the validation issues and a change callback; the view validates and saves.
 */
import { useEffect, useState } from "react";
import type { ConfigIssue } from "../../../../core/inspector/api/contract";
import { getAt, type Field } from "./schemaWalk";

const HELP: Record<string, string> = {
  "rescue.thresholdChars": "Results longer than this are stored and replaced by a handle.",
  "rescue.excludeTools": "Tools never rescued (exact names or globs with *), one per line.",
  "rescue.includeTools": "When set, only these tools are rescued, one per line.",
  "excerpt.maxChars": "Exact cap on the preview inside a handle.",
  "excerpt.minChars": "Smallest preview budget; within the cap it grows with the result.",
  "excerpt.share": "Share of the result's size the preview budget grows by (0.1 = 10 %).",
  "fetch.maxChars": "Cap on each rescuer_fetch answer.",
  "fetch.fullMaxChars": "Above this, full refuses and names the modes to use.",
  "dedup.minChars": "Repeats shorter than this are delivered again, not stubbed.",
  "dedup.maxStubStreak": "After this many stubs in a row for the same call, deliver it in full once.",
  "dedup.nearDuplicates": "A re-run that changed a few lines becomes a stub plus those lines.",
  "dedup.nearMaxChangedShare": "Most lines that may change (timings and temp paths aside) for such a stub.",
  "dedup.echoStubs": "A result that repeats an argument of its own call (a write echoing what it wrote) becomes a one-line stub.",
  "store.ttlHours": "Blobs expire after this many hours (pinned ones never).",
  "store.maxStoreMb": "Size cap; least recently used blobs are evicted above it.",
  "store.detailTtlDays":
    "Days a call's detail (raw record, texts, thumbnails, read answers) is kept; its figures stay for good. 0: forever.",
  "sensitivity.mode": "mask: hide credential-shaped spans from the model; audit: label only; off.",
  "server.port": "Port of `spillway serve` (loopback only).",
  mcpServers: "Your MCP servers, in the mcpServers shape your agent already uses.",
};

export interface ConfigFormProps {
  fields: Field[];
  value: Record<string, unknown>;
  issues: ConfigIssue[];
  onChange(path: string[], value: unknown): void;
}

export function ConfigForm({ fields, value, issues, onChange }: ConfigFormProps) {
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 12 }}>
      {fields.map((f) => (
        <FieldView key={f.path.join(".")} f={f} value={value} issues={issues} onChange={onChange} />
      ))}
    </div>
  );
}

function FieldView({
  f,
  value,
  issues,
  onChange,
}: {
  f: Field;
  value: Record<string, unknown>;
  issues: ConfigIssue[];
  onChange: ConfigFormProps["onChange"];
}) {
  const key = f.path.join(".");
  const id = `cfg-${key.replace(/\./g, "-")}`;
  const issue = issues.find((i) => i.path === key || i.path.startsWith(key + "."));
  if (f.kind === "group") {
    return (
      <fieldset className="panel" style={{ padding: "8px 12px", margin: 0 }}>
        <legend style={{ fontWeight: 650, padding: "0 4px" }}>{f.title}</legend>
        <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(240px, 1fr))", gap: "10px 16px" }}>
          {f.fields.map((c) => (
            <FieldView key={c.path.join(".")} f={c} value={value} issues={issues} onChange={onChange} />
          ))}
        </div>
      </fieldset>
    );
  }
  const v = getAt(value, f.path);
  const help = HELP[key];
  const describedBy = [help ? `${id}-help` : "", issue ? `${id}-err` : ""].filter(Boolean).join(" ") || undefined;
  const common = { id, "aria-invalid": issue ? true : undefined, "aria-describedby": describedBy };
  let control;
  switch (f.kind) {
    case "number":
      control = (
        <input
          {...common}
          className="input num"
          type="number"
          style={{ textAlign: "left" }}
          step={f.integer ? 1 : "any"}
          min={f.min}
          max={f.max}
          value={typeof v === "number" ? v : ""}
          onChange={(e) => onChange(f.path, e.target.value === "" ? undefined : Number(e.target.value))}
        />
      );
      break;
    case "enum":
      control = (
        <select
          {...common}
          className="input"
          value={String(v ?? f.def ?? "")}
          onChange={(e) => onChange(f.path, e.target.value)}
          disabled={f.options.length < 2}
        >
          {f.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    case "boolean":
      control = <input {...common} type="checkbox" checked={Boolean(v)} onChange={(e) => onChange(f.path, e.target.checked)} />;
      break;
    case "text":
      control = <input {...common} className="input" value={String(v ?? "")} onChange={(e) => onChange(f.path, e.target.value)} />;
      break;
    case "list":
      control = (
        <textarea
          {...common}
          className="input"
          rows={3}
          value={Array.isArray(v) ? v.join("\n") : ""}
          onChange={(e) =>
            onChange(
              f.path,
              e.target.value
                .split("\n")
                .map((s) => s.trim())
                .filter(Boolean),
            )
          }
        />
      );
      break;
    case "json":
      control = <JsonField {...common} value={v} onChange={(x) => onChange(f.path, x)} />;
      break;
  }
  return (
    <div className="field" style={f.kind === "json" ? { gridColumn: "1 / -1" } : undefined}>
      <label htmlFor={id} className="mono" style={{ fontSize: 12, color: "var(--text)", textTransform: "none", letterSpacing: 0 }}>
        {key}
      </label>
      {control}
      {help && (
        <small id={`${id}-help`} className="muted">
          {help}
        </small>
      )}
      {issue && (
        <small id={`${id}-err`} role="alert" style={{ color: "var(--bad)" }}>
          {issue.message}
        </small>
      )}
    </div>
  );
}

/** A JSON value edited as text; it reaches the form value only when it parses. */
function JsonField({
  value,
  onChange,
  ...rest
}: {
  value: unknown;
  onChange: (v: unknown) => void;
  id: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}) {
  const [text, setText] = useState(() => JSON.stringify(value ?? {}, null, 2));
  const [bad, setBad] = useState<string | null>(null);
  useEffect(() => {
    if (bad === null) setText(JSON.stringify(value ?? {}, null, 2));
  }, [JSON.stringify(value)]);
  return (
    <>
      <textarea
        {...rest}
        className="input"
        rows={Math.min(16, Math.max(3, text.split("\n").length))}
        value={text}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value));
            setBad(null);
          } catch (err) {
            setBad((err as Error).message);
          }
        }}
      />
      {bad && (
        <small role="alert" style={{ color: "var(--bad)" }}>
          Not valid JSON yet: {bad}
        </small>
      )}
    </>
  );
}
