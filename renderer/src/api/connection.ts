/**
 * Whether the Spillway server answers this page. Web mode loses it when `spillway serve` stops:
 * the event stream breaks and calls fail as "unreachable". Any answer (even a refusal) means it is back.
 */
export type Reach = "up" | "down";

export class Connection {
  private current: Reach = "up";
  private readonly listeners = new Set<() => void>();

  get state(): Reach {
    return this.current;
  }

  /** A call or the stream found nobody answering. */
  lost(): void {
    this.to("down");
  }

  /** The server answered something; true when that ended a time it did not. */
  answered(): boolean {
    if (this.current === "up") return false;
    this.to("up");
    return true;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private to(next: Reach): void {
    if (this.current === next) return;
    this.current = next;
    for (const l of this.listeners) l();
  }
}
