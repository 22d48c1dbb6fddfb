/** The inspector shell: navigation, keyboard shortcuts, theme, and the current view. */
import { useEffect, useState } from "react";
import { useAuthed, useReachable, useServerRestarted, useSignedOut, useSignOut } from "./api/ApiProvider";
import { ServerGone } from "./components/ServerGone/ServerGone";
import { useOp } from "./api/useOp";
import { formatRoute, sectionOf, type Route, type RouteName } from "./router/route";
import { navigate, useRoute } from "./router/useRoute";
import { setTheme, useTheme, type ThemeChoice } from "./theme/theme";
import { BlobsView } from "./views/BlobsView/BlobsView";
import { BlobView } from "./views/BlobView/BlobView";
import { EndpointView } from "./views/EndpointView/EndpointView";
import { ImportView } from "./views/ImportView/ImportView";
import { ReplayView } from "./views/ReplayView/ReplayView";
import { LoginView } from "./views/LoginView/LoginView";
import { OverviewView } from "./views/OverviewView/OverviewView";
import { SearchView } from "./views/SearchView/SearchView";
import { SessionsView } from "./views/SessionsView/SessionsView";
import { SessionView } from "./views/SessionView/SessionView";
import { SettingsView } from "./views/SettingsView/SettingsView";
import { ToolsView } from "./views/ToolsView/ToolsView";

const NAV: { name: RouteName; label: string; route: Route }[] = [
  { name: "overview", label: "Overview", route: { name: "overview" } },
  { name: "sessions", label: "Sessions", route: { name: "sessions" } },
  { name: "blobs", label: "Blobs", route: { name: "blobs" } },
  { name: "search", label: "Search", route: { name: "search" } },
  { name: "tools", label: "Tools", route: { name: "tools" } },
  { name: "import", label: "Import", route: { name: "import" } },
  { name: "replay", label: "Replay", route: { name: "replay" } },
  { name: "endpoint", label: "Endpoint", route: { name: "endpoint" } },
  { name: "settings", label: "Settings", route: { name: "settings" } },
];

function CurrentView({ route }: { route: Route }) {
  switch (route.name) {
    case "overview":
      return <OverviewView />;
    case "sessions":
      return <SessionsView />;
    case "session":
      // Keyed by the session only: opening and closing calls changes the URL, not the view.
      return <SessionView key={route.id} route={route} />;
    case "blobs":
      // Not keyed by its query: the view writes its filters to the URL as they change, and
      // takes a query that came from elsewhere (a link, Back) as a new start.
      return <BlobsView route={route} />;
    case "blob":
      return <BlobView key={route.id} id={route.id} line={route.line} />;
    case "search":
      return <SearchView route={route} />;
    case "tools":
      return <ToolsView selected={route.tool} />;
    case "import":
      return <ImportView />;
    case "replay":
      return <ReplayView key={formatRoute(route)} session={route.session} agent={route.agent} />;
    case "endpoint":
      return <EndpointView />;
    case "settings":
      return <SettingsView />;
  }
}

function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || !!el.closest(".monaco-editor"));
}

export function App() {
  const route = useRoute();
  const authed = useAuthed();
  const signedOut = useSignedOut();
  const restarted = useServerRestarted();
  const { choice } = useTheme();
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const n = Number(e.key);
      if (n >= 1 && n <= NAV.length) return navigate(NAV[n - 1]!.route);
      if (e.key === "/") {
        const el = document.querySelector<HTMLElement>("[data-shortcut=filter], [data-shortcut=grep]");
        if (el) {
          e.preventDefault();
          el.focus();
        }
      } else if (e.key === "?") setHelp((h) => !h);
      else if (e.key === "Escape") setHelp(false);
      else if (e.key === "t") setTheme(choice === "system" ? "dark" : choice === "dark" ? "light" : "system");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [choice]);
  if (!authed) return <LoginView signedOut={signedOut} restarted={restarted} />;
  const section = sectionOf(route);
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Inspector">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Spillway
        </div>
        <div className="nav">
          {NAV.map((n, i) => (
            <a key={n.name} href={formatRoute(n.route)} aria-current={section === n.name ? "page" : undefined}>
              {n.label}
              <kbd aria-hidden="true">{i + 1}</kbd>
            </a>
          ))}
        </div>
        <SidebarFoot choice={choice} onHelp={() => setHelp(true)} />
      </nav>
      <main className="main">
        <ServerGone />
        <CurrentView route={route} />
      </main>
      {help && <Help onClose={() => setHelp(false)} />}
    </div>
  );
}

function SidebarFoot({ choice, onHelp }: { choice: ThemeChoice; onHelp: () => void }) {
  const st = useOp("endpoint.status", {});
  const reachable = useReachable();
  const signOut = useSignOut();
  const [signOutError, setSignOutError] = useState<string | null>(null);
  return (
    <div className="sidebar-foot">
      <span data-testid="endpoint-dot">
        <span className={`live-dot${!reachable ? " bad" : st.data?.running ? " on" : ""}`} aria-hidden="true" />
        endpoint {!reachable ? "unreachable" : st.data ? (st.data.running ? "running" : "stopped") : "…"}
      </span>
      <label className="check">
        <span className="muted">Theme</span>
        <select
          className="input"
          value={choice}
          onChange={(e) => setTheme(e.target.value as ThemeChoice)}
          style={{ height: 22 }}
          aria-label="Theme"
        >
          <option value="system">system</option>
          <option value="light">light</option>
          <option value="dark">dark</option>
        </select>
      </label>
      <button type="button" className="btn small" onClick={onHelp}>
        Shortcuts (?)
      </button>
      {signOut && (
        <button type="button" className="btn small" onClick={() => void signOut().then(setSignOutError)}>
          Sign out
        </button>
      )}
      {signOutError && (
        <span className="bad-text" role="alert">
          {signOutError}
        </span>
      )}
    </div>
  );
}

function Help({ onClose }: { onClose: () => void }) {
  return (
    <div className="help" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={onClose}>
      <div onClick={(e) => e.stopPropagation()}>
        <h2 style={{ marginTop: 0, fontSize: 15 }}>Keyboard shortcuts</h2>
        <dl className="kv">
          <dt>
            <kbd>1</kbd>–<kbd>9</kbd>
          </dt>
          <dd>Overview, Sessions, Blobs, Search, Tools, Import, Replay, Endpoint, Settings</dd>
          <dt>
            <kbd>/</kbd>
          </dt>
          <dd>Focus the filter, search or grep box</dd>
          <dt>
            <kbd>↑</kbd> <kbd>↓</kbd> <kbd>PgUp</kbd> <kbd>PgDn</kbd>
          </dt>
          <dd>Move in the blobs table</dd>
          <dt>
            <kbd>Enter</kbd> / <kbd>Space</kbd>
          </dt>
          <dd>Open / select the current blob</dd>
          <dt>
            <kbd>Ctrl</kbd>+<kbd>F</kbd>
          </dt>
          <dd>Find inside the viewer window</dd>
          <dt>
            <kbd>t</kbd>
          </dt>
          <dd>Cycle the theme (system, dark, light)</dd>
          <dt>
            <kbd>?</kbd> / <kbd>Esc</kbd>
          </dt>
          <dd>Show / hide this help</dd>
        </dl>
        <button type="button" className="btn" style={{ marginTop: 12 }} onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}
