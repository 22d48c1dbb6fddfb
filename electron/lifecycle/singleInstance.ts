/**
 * One Spillway app per user: a second launch hands over to the first (which shows its window)
 * and exits, so two apps never fight over the endpoint's port or the tray.
 */
export interface SingleInstancePort {
  requestSingleInstanceLock(): boolean;
  on(event: "second-instance", listener: () => void): unknown;
  quit(): void;
}

/** Returns true when this process is the one instance; otherwise it has already asked to quit. */
export function claimSingleInstance(app: SingleInstancePort, onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on("second-instance", onSecondInstance);
  return true;
}
