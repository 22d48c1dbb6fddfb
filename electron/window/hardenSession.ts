/**
 * Session-wide refusals: the inspector needs no camera, microphone, geolocation, notifications,
 * clipboard-read or any other permission, so every request and check is answered "no".
 */
import type { SessionPort } from "../ports";

export function hardenSession(session: SessionPort): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
