/**
 * The only place IPC channel names are made. Each is derived from a contract operation name, so
 * the preload and the main-process handlers cannot disagree and no channel is typed by hand.
 */
import type { OpName } from "../../core/inspector/api/contract";

const NAMESPACE = "spillway";

/** The invoke channel of one inspector operation. */
export function invokeChannel(op: OpName): string {
  return `${NAMESPACE}:op:${op}`;
}

/** The one channel main pushes contract events on (`Pushed` values). */
export const EVENT_CHANNEL = `${NAMESPACE}:event`;
