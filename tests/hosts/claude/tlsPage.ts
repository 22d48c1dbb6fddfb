/**
 * A page for WebFetch, which upgrades http to https: served over TLS on 127.0.0.1 with a throwaway
 * self-signed certificate made by `openssl` (Claude Code then runs with NODE_TLS_REJECT_UNAUTHORIZED=0
 * and skipWebFetchPreflight). Null where openssl is missing.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export async function startTlsPage(dir: string, html: string): Promise<{ url: string; close(): void } | null> {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
  } catch {
    return null;
  }
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end(html),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/notes`, close: () => server.close() };
}
