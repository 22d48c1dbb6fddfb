/**
 * The endpoint's part of the app's lifecycle: started with the app when the user asked for that,
 * failures logged (the tray and the window show them too), and stopped before the app quits so
 * the port is free for the next start.
 */
import type { EndpointController } from "./endpointController";

export interface EndpointSetupDeps {
  endpoint: EndpointController;
  startWithApp: boolean;
  onError(message: string): void;
}

/** Returns the teardown, which resolves once the endpoint has stopped. */
export function setupEndpoint(deps: EndpointSetupDeps): () => Promise<void> {
  const offErrors = deps.endpoint.onChange((s) => {
    if (s.error) deps.onError(s.error);
  });
  if (deps.startWithApp) void deps.endpoint.start();
  return async () => {
    offErrors();
    await deps.endpoint.stop();
  };
}
