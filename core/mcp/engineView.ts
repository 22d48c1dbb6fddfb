/** The part of the engine the endpoints use: a narrow view, so tests and benches can pass a real engine or a small fake. */
import type { Engine } from "../engine/engine";

export type ProxyEngine = Pick<
  Engine,
  "config" | "logger" | "store" | "sessions" | "touchSession" | "modelView" | "transformToolResult" | "expandArguments" | "fetch" | "recall" | "readBlob" | "compaction" | "turn"
>;
