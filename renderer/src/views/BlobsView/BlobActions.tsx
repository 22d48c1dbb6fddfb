/** Pin, unpin, purge and export for the selected blobs. Purge asks once more, inline. */
import { useEffect, useState } from "react";
import { useMutation } from "../../api/useOp";
import { useExport } from "../../api/useExport";
import { ErrorNote } from "../../components/Ui/Ui";

const REFRESH = ["blobs.list", "blobs.get", "blobs.content", "overview.get", "search.all"] as const;

export function BlobActions({ selected, onDone }: { selected: string[]; onDone?: () => void }) {
  const pin = useMutation("blobs.pin", [...REFRESH]);
  const unpin = useMutation("blobs.unpin", [...REFRESH]);
  const purge = useMutation("blobs.purge", [...REFRESH]);
  const exp = useExport();
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (!confirming) return;
    const t = setTimeout(() => setConfirming(false), 4000);
    return () => clearTimeout(t);
  }, [confirming]);
  const n = selected.length;
  const none = n === 0;
  const busy = pin.pending || unpin.pending || purge.pending || exp.pending;
  const suffix = n > 1 ? ` (${n})` : "";
  return (
    <div style={{ display: "flex", gap: 6, alignItems: "center" }}>
      <button type="button" className="btn" disabled={none || busy} onClick={() => void pin.run({ ids: selected })}>
        Pin{suffix}
      </button>
      <button type="button" className="btn" disabled={none || busy} onClick={() => void unpin.run({ ids: selected })}>
        Unpin{suffix}
      </button>
      <button
        type="button"
        className="btn"
        disabled={n !== 1 || busy}
        onClick={() => void exp.run(selected[0]!)}
        title="Download the content (masked for credential blobs)"
      >
        Export
      </button>
      <button
        type="button"
        className={`btn danger${confirming ? " primary" : ""}`}
        disabled={none || busy}
        onClick={async () => {
          if (!confirming) return setConfirming(true);
          setConfirming(false);
          const r = await purge.run({ ids: selected });
          if (r.ok) onDone?.();
        }}
      >
        {confirming ? `Confirm purge${suffix}` : `Purge${suffix}`}
      </button>
      {exp.savedTo && (
        <span className="muted" role="status">
          Saved to {exp.savedTo}
        </span>
      )}
      <ErrorNote error={pin.error ?? unpin.error ?? purge.error ?? exp.error} />
    </div>
  );
}
