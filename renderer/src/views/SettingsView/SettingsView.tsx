/** Settings: config.json edited as a form, validated with the engine's own schema as you type, saved atomically. */
import { useEffect, useMemo, useState } from "react";
import type { ConfigIssue } from "../../../../core/inspector/api/contract";
import { useCache } from "../../api/ApiProvider";
import { useMutation, useOp } from "../../api/useOp";
import { ConfigForm } from "../../components/ConfigForm/ConfigForm";
import { fieldsOf, setAt } from "../../components/ConfigForm/schemaWalk";
import { ErrorNote, Progress, ViewHead } from "../../components/Ui/Ui";

export function SettingsView() {
  const cache = useCache();
  const view = useOp("config.get", {});
  const save = useMutation("config.set", ["config.get"]);
  const [draft, setDraft] = useState<Record<string, unknown> | null>(null);
  const [issues, setIssues] = useState<ConfigIssue[]>([]);
  const [saved, setSaved] = useState(false);
  const d = view.data;
  useEffect(() => {
    if (d && draft === null) setDraft(d.config);
  }, [d]);
  const fields = useMemo(() => (d ? fieldsOf(d.schema) : []), [d?.schema]);
  const dirty = draft !== null && d !== undefined && JSON.stringify(draft) !== JSON.stringify(d.config);

  // Validate on the host with the engine's schema, a moment after the last edit.
  useEffect(() => {
    if (!draft || !dirty) return setIssues([]);
    const t = setTimeout(async () => {
      const r = await cache.call("config.validate", { config: draft });
      if (r.ok) setIssues(r.value.issues);
    }, 250);
    return () => clearTimeout(t);
  }, [draft]);

  const onSave = async () => {
    if (!draft) return;
    const r = await save.run({ config: draft });
    if (r.ok) {
      setDraft(r.value.config);
      setSaved(true);
      setTimeout(() => setSaved(false), 2500);
    } else if (r.error.path) setIssues([{ path: r.error.path, message: r.error.message }]);
  };
  return (
    <>
      <ViewHead title="Settings">
        <span className="muted mono" title="config file">
          {d?.path}
        </span>
        <button type="button" className="btn" disabled={!dirty || save.pending} onClick={() => d && setDraft(d.config)}>
          Discard
        </button>
        <button type="button" className="btn primary" disabled={!dirty || issues.length > 0 || save.pending} onClick={() => void onSave()}>
          {save.pending ? "Saving…" : saved ? "Saved" : "Save"}
        </button>
      </ViewHead>
      <Progress on={view.loading || save.pending} label="Loading settings" />
      <div className="view-body">
        <ErrorNote error={view.error ?? save.error} />
        {d?.restartRequired && (
          <div className="callout warn" role="status">
            The saved file differs from what the running engine loaded: restart `spillway serve` (or the app) to apply it.
          </div>
        )}
        {issues.length > 0 && (
          <div className="callout bad" role="alert" data-testid="config-issues">
            {issues.length} problem{issues.length === 1 ? "" : "s"}: {issues.map((i) => `${i.path}: ${i.message}`).join("; ")}
          </div>
        )}
        {draft && (
          <ConfigForm fields={fields} value={draft} issues={issues} onChange={(path, v) => setDraft((cur) => setAt(cur ?? {}, path, v))} />
        )}
      </div>
    </>
  );
}
