/**
 * Progress an upstream sends just before its result can be handled after that result: the SDK
 * takes a response at once but a notification a microtask later, finds the request ended and
 * reports each one as an error ("unknown token"). This tells those apart from a token the proxy
 * never sent, which stays a protocol error worth a warning.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

const UNKNOWN_TOKEN = "Received a progress notification for an unknown token: ";
/** How many recent requests' tokens are remembered (the late notifications come right after their result). */
const KEPT = 1_000;

type Token = string | number;

/** The progress tokens of the requests one connection sent, and whether a late notification of each was already told. */
export class ProgressTokens {
  private readonly sent = new Map<Token, boolean>();

  /** Notes the progress token of every request `transport` sends from now on. */
  watch(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const token = "method" in message ? (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken : undefined;
      if (typeof token === "string" || typeof token === "number") this.note(token);
      return send(message, options);
    };
  }

  /**
   * For the SDK's error about a progress notification of a request this connection sent and that
   * has ended: "first" for the first such notification of that request, "again" for the others.
   * null for any other error, an unknown token that was never sent included.
   */
  late(err: Error): "first" | "again" | null {
    if (!err.message.startsWith(UNKNOWN_TOKEN)) return null;
    let token: unknown;
    try {
      token = (JSON.parse(err.message.slice(UNKNOWN_TOKEN.length)) as { params?: { progressToken?: unknown } }).params?.progressToken;
    } catch {
      return null;
    }
    if ((typeof token !== "string" && typeof token !== "number") || !this.sent.has(token)) return null;
    if (this.sent.get(token)) return "again";
    this.sent.set(token, true);
    return "first";
  }

  private note(token: Token): void {
    this.sent.delete(token);
    this.sent.set(token, false);
    if (this.sent.size > KEPT) this.sent.delete(this.sent.keys().next().value!);
  }
}
