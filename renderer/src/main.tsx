/** Entry of the web inspector: the HTTP transport, the query cache, the app. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ApiProvider } from "./api/ApiProvider";
import { apiTransport, webTransport } from "./api/transport";
import type { InspectorApi } from "../../core/inspector/api/contract";
import { App } from "./App";
import "./theme/styles.css";

declare global {
  interface Window {
    /** The desktop app's preload API; absent in web mode. */
    spillway?: InspectorApi;
  }
}

const transport = window.spillway ? apiTransport(window.spillway) : webTransport();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ApiProvider transport={transport}>
      <App />
    </ApiProvider>
  </StrictMode>,
);
