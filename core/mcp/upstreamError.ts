/** A failure talking to an upstream, phrased for the model and the operator. */
export class UpstreamError extends Error {
  constructor(message: string, readonly kind: "start" | "timeout" | "closed" | "refused" | "cancelled") {
    super(message);
    this.name = "UpstreamError";
  }
}
