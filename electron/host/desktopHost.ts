/**
 * Everything the app hosts that is not Electron: the engine (with the keychain-backed key
 * provider), the endpoint the tray controls, and the inspector's handlers behind one dispatch.
 * Kept out of main.ts so it runs, and is tested, under plain Node.
 */
import { randomBytes } from "node:crypto";
import { resolveConfig } from "../../core/home/home";
import { ErrorCode, SpillwayError } from "../../core/errors";
import { fileKeyProvider } from "../../core/crypto/keys";
import { createEngine } from "../../core/engine/engine";
import type { Engine } from "../../core/engine/engineApi";
import { BlobViews } from "../../core/inspector/handlers/blobViews";
import { createDispatch, type Dispatch } from "../../core/inspector/handlers/dispatch";
import { createHandlers } from "../../core/inspector/handlers/handlers";
import type { EndpointControl, InspectorHost } from "../../core/inspector/handlers/host";
import type { Logger } from "../../core/runtime";
import { createEndpointController, type EndpointController } from "../endpoint/endpointController";
import { desktopEndpointControl, inProcessEndpoint } from "../endpoint/mcpEndpoint";
import { safeStorageKeyProvider, type SafeStorageLike } from "../keys/safeStorageKeys";
import type { ConnectContext } from "../../core/connect/agents";
import { claudeCodeConfig, connectSnippets, desktopConnectContext } from "./connect";
import { exportToFolder } from "./exportToFolder";

export interface DesktopHostOptions {
  home: string;
  /** `--config`; defaults to `$home/config.json`. */
  configPath?: string;
  safeStorage: SafeStorageLike;
  logger: Logger;
  /** Where exports are saved (Electron's Downloads folder). */
  downloadsDir(): string;
  /** Holds bin/spillway.js when running from a checkout (for the stdio agent snippets). */
  appRoot: string;
  /** Overrides the config's server.port (tests use 0). */
  port?: number;
}

export interface DesktopHost {
  engine: Engine;
  endpoint: EndpointController;
  endpointControl: EndpointControl;
  dispatch: Dispatch;
  /** The text for "Copy Claude Code config" for a running endpoint. */
  claudeCodeConfig(mcpUrl: string): string;
  close(): Promise<void>;
}

export function createDesktopHost(opts: DesktopHostOptions): DesktopHost {
  const { path: configPath, config } = resolveConfig(opts.home, { config: opts.configPath });
  const keyProvider = safeStorageKeyProvider(opts.safeStorage, {
    home: opts.home,
    fallback: fileKeyProvider(opts.home),
    randomKey: () => randomBytes(32),
    onWarn: (m) => opts.logger.warn(m),
  });
  const engine = createEngine({ home: opts.home, config, logger: opts.logger, keyProvider, sweepTimer: true });
  const endpoint = createEndpointController(inProcessEndpoint({ engine, home: opts.home, port: opts.port }));
  const endpointControl = desktopEndpointControl(endpoint, opts.home);
  const context = (): ConnectContext => {
    const url = endpoint.status().url;
    const port = url ? Number(new URL(url).port) : config.server.port;
    return desktopConnectContext({ appRoot: opts.appRoot, home: opts.home, port });
  };
  const views = new BlobViews(engine);
  const runningTools = () => {
    const t = endpoint.current()?.tools;
    if (!t)
      throw new SpillwayError(
        ErrorCode.Unsupported,
        "The endpoint is stopped: start it from the tray (or the Endpoint page) to list and run its upstream tools.",
      );
    return t;
  };
  const host: InspectorHost = {
    engine,
    configPath,
    endpoint: endpointControl,
    connectSnippets: () => connectSnippets(context()),
    exportBlob: exportToFolder(views, opts.downloadsDir),
    // The tools live on the running endpoint's upstreams; stopped, the handlers say to start it.
    tools: {
      catalog: () => runningTools().catalog(),
      run: (tool, args) => runningTools().run(tool, args),
    },
  };
  const dispatch = createDispatch(createHandlers(host, views), opts.logger);

  return {
    engine,
    endpoint,
    endpointControl,
    dispatch,
    claudeCodeConfig: (mcpUrl) => claudeCodeConfig(mcpUrl, context()),
    async close() {
      await endpoint.stop();
      await engine.close();
    },
  };
}
