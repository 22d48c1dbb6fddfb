/** Expected failures of inspector operations, carried to the boundary as `{ ok: false, error }`. */
import type { InspectorErrorCode } from "./contract";

export class InspectorFailure extends Error {
  constructor(
    readonly code: InspectorErrorCode,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = "InspectorFailure";
  }
}
