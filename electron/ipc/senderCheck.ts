/**
 * Who may call the inspector API over IPC: only the app's own window, and only while it shows
 * the app:// bundle in its top frame. A page that somehow navigated elsewhere, an iframe, or
 * any other webContents is refused even if it reached the preload's methods.
 */
import { APP_HOST, APP_SCHEME } from "../protocol/appPath";
import type { IpcInvokeEvent } from "../ports";

/** True when `url` is a page of the app:// bundle. */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    // Node gives non-special schemes an opaque "null" origin, so compare the parts instead.
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** `windowContentsId` returns the id of the inspector window's webContents, or null when none. */
export function createSenderCheck(windowContentsId: () => number | null): (event: IpcInvokeEvent) => boolean {
  return (event) => {
    const expected = windowContentsId();
    if (expected === null || event.sender.id !== expected) return false;
    const frame = event.senderFrame;
    if (!frame) return false;
    if ("parent" in frame && (frame as { parent: unknown }).parent) return false;
    return isAppUrl(frame.url);
  };
}
