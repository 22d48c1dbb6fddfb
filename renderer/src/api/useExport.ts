/** Export: asks the host for a download ticket and follows it (web), or reports where it saved (desktop). */
import { useState } from "react";
import type { InspectorError } from "../../../core/inspector/api/contract";
import { useCache } from "./ApiProvider";

export function useExport() {
  const cache = useCache();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<InspectorError | undefined>();
  const [savedTo, setSavedTo] = useState<string | null>(null);
  const run = async (id: string, masked = true) => {
    setPending(true);
    setError(undefined);
    const r = await cache.call("blobs.export", { id, masked });
    setPending(false);
    if (!r.ok) return setError(r.error);
    if (r.value.kind === "saved") return setSavedTo(r.value.path);
    if (r.value.href) {
      const a = document.createElement("a");
      a.href = r.value.href;
      a.download = r.value.filename;
      document.body.append(a);
      a.click();
      a.remove();
    }
  };
  return { run, pending, error, savedTo };
}
