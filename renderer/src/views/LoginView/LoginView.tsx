/** Shown when the page has no session: how to sign in, without ever asking for the token in the page. */
export function LoginView({ signedOut = false, restarted = false }: { signedOut?: boolean; restarted?: boolean }) {
  const again = signedOut || restarted;
  return (
    <main className="empty" style={{ marginTop: 80 }}>
      <h1 style={{ fontSize: 18 }}>{signedOut ? "Signed out of this Spillway inspector" : "Sign in to this Spillway inspector"}</h1>
      {signedOut && <p>This browser's session has ended on the server: its cookie no longer opens the inspector.</p>}
      {restarted && (
        <p role="status">
          The Spillway server stopped answering and now answers again, but without this browser's session: sessions end when{" "}
          <code className="mono">spillway serve</code> stops.
        </p>
      )}
      <p>
        {again ? "To sign in again, open" : "This page has no session. Open"} a one-time login link that{" "}
        <code className="mono">spillway serve</code> printed in its terminal{restarted ? " when it started again" : ""} (it looks like{" "}
        <code className="mono">{`${location.origin}/login?t=…`}</code>). Each link works once and signs this browser in with a cookie only
        this server can read.
      </p>
      <p className="muted">
        Lost it, or already used it? Restart <code className="mono">spillway serve</code>, or ask the running one for a new link with its
        token:{" "}
        <code className="mono">{`curl -s -X POST -H "Authorization: Bearer $(cat ~/.spillway/token)" ${location.origin}/login/new`}</code>{" "}
        (the token file is in Spillway's home: <code className="mono">~/.spillway</code> unless <code className="mono">SPILLWAY_HOME</code>{" "}
        or <code className="mono">--home</code> names another; <code className="mono">spillway serve</code> prints its path).
      </p>
    </main>
  );
}
