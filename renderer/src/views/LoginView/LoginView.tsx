/** Shown when the page has no session: how to sign in, without ever asking for the token in the page. */
export function LoginView() {
  return (
    <main className="empty" style={{ marginTop: 80 }}>
      <h1 style={{ fontSize: 18 }}>Sign in to this Spillway inspector</h1>
      <p>
        This page has no session. Open the one-time login link that <code className="mono">spillway serve</code> printed in its terminal (it
        looks like <code className="mono">http://127.0.0.1:7341/login?t=…</code>). Each link works once and signs this browser in with a
        cookie only this server can read.
      </p>
      <p className="muted">
        Lost it? Restart <code className="mono">spillway serve</code>, or run it again to print a new link.
      </p>
    </main>
  );
}
