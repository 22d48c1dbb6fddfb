import { generateKeyPairSync } from "node:crypto";
import { maskSecrets } from "../sensitivity/secrets";
import { keptJson, keptText } from "./auditText";

const filler = (n: number) => "INFO step done, nothing to see here\n".repeat(Math.ceil(n / 36)).slice(0, n);
const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const pemBody = pem.split("\n")[5]!;
const awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ9vLk2m8T";
const ghToken = "ghp_" + "x7Kq2Vb9Lm4Np8Rt3Wz6Yc1Df5Gh0Jk2Ms9Q".slice(0, 36);

describe("keptText", () => {
  it("keeps a long text's head masked as the whole text masks it, with the secrets before and across the cut masked", () => {
    // A credential early, a private key that starts before the cut and ends after it, and megabytes after.
    const head = `${filler(600)}AWS_SECRET_ACCESS_KEY=${awsSecret}\n${filler(1200)}`;
    const text = `${head}${pem}${filler(3 * 1024 * 1024)}token=${ghToken}\n`;
    expect(head.length).toBeLessThan(2000);
    expect(head.length + pem.length).toBeGreaterThan(2000);
    const kept = keptText(text, 2000);
    const [body, marker] = kept.split("… [");
    expect(body).toBe(maskSecrets(text).text.slice(0, 2000));
    expect(kept).not.toContain(awsSecret);
    expect(body).toContain("-----BEGIN PRIVATE KEY-----");
    expect(kept).not.toContain(pemBody.slice(0, 24));
    expect(kept).toContain("[masked:");
    // What is missing: about the rest of the text (masking changed the lengths a little).
    const missing = Number(/^([\d,]+) more chars\]$/.exec(marker!)![1]!.replace(/,/g, ""));
    expect(Math.abs(missing - (text.length - 2000))).toBeLessThan(pem.length);
  });

  it("masks a Kubernetes Secret whose kind comes after its data, however far past the cut", () => {
    const secret = JSON.stringify(
      {
        apiVersion: "v1",
        data: { "db-password": "c3VwZXItc2VjcmV0LXBhc3N3b3JkLTEyMzQ1Njc4OTA=", "ca.crt": "Q".repeat(300_000) },
        kind: "Secret",
      },
      null,
      2,
    );
    const text = `${filler(1500)}${secret}\n${filler(2 * 1024 * 1024)}`;
    const kept = keptText(text, 2000);
    expect(kept).not.toContain("c3VwZXItc2VjcmV0");
    expect(kept).toContain("[masked:kubernetes_secret]");
  });

  it("keeps a short text whole, masked, with no marker", () => {
    const text = `export GITHUB_TOKEN=${ghToken}\n`;
    expect(keptText(text, 2000)).toBe(maskSecrets(text).text);
    expect(keptText(text, 2000)).not.toContain(ghToken);
    expect(keptText(text)).toBe(maskSecrets(text).text);
  });

  it("cuts every long string of a JSON-RPC message the same way", () => {
    const big = `${filler(1000)}AWS_SECRET_ACCESS_KEY=${awsSecret}\n${filler(5 * 1024 * 1024)}`;
    const json = keptJson({ jsonrpc: "2.0", result: { content: [{ type: "text", text: big }], structuredContent: { content: big } } })!;
    expect(json).not.toContain(awsSecret);
    expect(json.length).toBeLessThan(10_000);
    expect(json.match(/more chars\]/g)).toHaveLength(2);
  });
});
