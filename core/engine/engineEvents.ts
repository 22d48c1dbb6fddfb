/** Events the engine pushes to whoever watches it (the inspector's live updates). Pure types. */
import type { Outcome } from "../types";

export type EngineEvent =
  | { type: "call"; sessionId: string; callId: number; outcome: Outcome; blobId: string | null }
  | { type: "fetch"; sessionId: string | null; blobId: string; mode: string }
  | { type: "expansion"; sessionId: string; tool: string; expanded: number; denied: number }
  | { type: "blob"; blobId: string; change: "pinned" | "unpinned" | "purged" | "label" }
  | { type: "session"; sessionId: string; change: "compaction" | "turn" | "import" }
  | { type: "sweep"; expired: number; evicted: number };
