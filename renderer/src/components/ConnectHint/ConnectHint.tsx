/** The empty state: what Spillway is waiting for, and how to point an agent at it. */
import { useOp } from "../../api/useOp";
import { formatRoute } from "../../router/route";

export function ConnectHint({ what }: { what: string }) {
  const status = useOp("endpoint.status", {});
  const mcpUrl = status.data?.mcpUrl ?? "http://127.0.0.1:7341/mcp";
  return (
    <div className="empty" data-testid="empty-state">
      <h2>{what}</h2>
      <p>Spillway fills this in as soon as an agent's tool calls pass through it. Connect one:</p>
      <ol>
        <li>
          Print a ready-to-paste config for your agent: <code className="mono">spillway connect claude-code</code> (or codex, cursor,
          gemini-cli, opencode, hermes…).
        </li>
        <li>
          Or add the MCP endpoint by hand: <code className="mono">{mcpUrl}</code> with the header{" "}
          <code className="mono">Authorization: Bearer &lt;token&gt;</code>; the <a href={formatRoute({ name: "endpoint" })}>Endpoint</a>{" "}
          page says where the token is.
        </li>
        <li>
          Put your existing MCP servers under <code className="mono">mcpServers</code> in Settings; Spillway proxies them and keeps their
          big results out of the model's context.
        </li>
      </ol>
    </div>
  );
}
