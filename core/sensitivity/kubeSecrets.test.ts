import { findSecrets, maskSecrets } from "./secrets";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const url = b64("postgres://app:Zx81kLq2@db:5432/app");
const signing = b64("k3yM4t3r1alXYZ");

describe("Kubernetes Secrets: every data and stringData value is masked, whatever its key", () => {
  it("in `kubectl get secrets -o yaml` (a List, keys sorted: data comes before kind), and not in a ConfigMap beside it", () => {
    const yaml = [
      "apiVersion: v1",
      "items:",
      "- apiVersion: v1",
      "  data:",
      `    DATABASE_URL: ${url}`,
      `    SIGNING: "${signing}"`,
      "  kind: Secret",
      "  metadata:",
      "    name: app",
      "  type: Opaque",
      "- apiVersion: v1",
      "  data:",
      "    LOG_LEVEL: info",
      "  kind: ConfigMap",
      "  metadata:",
      "    name: app-config",
      "kind: List",
      "",
    ].join("\n");
    expect(maskSecrets(yaml).text).toBe(yaml.replace(url, "[masked:kubernetes_secret]").replace(signing, "[masked:kubernetes_secret]"));
    expect(maskSecrets(yaml).text).toContain("    LOG_LEVEL: info\n");
  });

  it("in a multi-document manifest, with a block scalar under stringData and a Secret that comes second", () => {
    const lines = [
      "kind: ConfigMap",
      "data:",
      "  mode: prod",
      "---",
      "apiVersion: v1",
      "kind: Secret",
      "stringData:",
      "  config.yaml: |",
      "    user: app",
      "    signing: k3yM4t3r1alXYZ",
      "  TOKEN: plain-text-value",
      "",
    ];
    const expected = [...lines];
    expected[8] = expected[9] = "    [masked:kubernetes_secret]";
    expected[10] = "  TOKEN: [masked:kubernetes_secret]";
    expect(maskSecrets(lines.join("\n")).text).toBe(expected.join("\n"));
  });

  it("in `kubectl get secret -o json`, a List of them, and a Secret held in a JSON string", () => {
    const one = {
      apiVersion: "v1",
      data: { DATABASE_URL: url, SIGNING: signing },
      kind: "Secret",
      metadata: { name: "app", labels: { tier: "db" } },
    };
    const configMap = { apiVersion: "v1", data: { LOG_LEVEL: "info" }, kind: "ConfigMap" };
    const json = JSON.stringify({ apiVersion: "v1", items: [one, configMap], kind: "List" }, null, 2);
    const out = maskSecrets(json).text;
    expect(out).not.toContain(url);
    expect(out).not.toContain(signing);
    expect(out).toContain('"LOG_LEVEL": "info"');
    expect(out).toContain('"tier": "db"');
    expect(JSON.parse(out).items[0].data).toEqual({ DATABASE_URL: "[masked:kubernetes_secret]", SIGNING: "[masked:kubernetes_secret]" });
  });

  it("in the last-applied-configuration annotation that kubectl apply leaves on a Secret (its data again, as JSON)", () => {
    const applied = JSON.stringify({ apiVersion: "v1", data: { DATABASE_URL: url }, kind: "Secret", metadata: { name: "app" } });
    const yaml = [
      "apiVersion: v1",
      "data:",
      `  DATABASE_URL: ${url}`,
      "kind: Secret",
      "metadata:",
      "  annotations:",
      "    kubectl.kubernetes.io/last-applied-configuration: |",
      `      ${applied}`,
      "  name: app",
      "",
    ].join("\n");
    const out = maskSecrets(yaml).text;
    expect(out).not.toContain(url);
    expect(out).toContain('{"apiVersion":"v1","data":{"DATABASE_URL":"[masked:kubernetes_secret]"},"kind":"Secret"');
  });

  it("finds nothing in a ConfigMap, in prose about Secrets, or in masked text", () => {
    expect(findSecrets("kind: ConfigMap\ndata:\n  LOG_LEVEL: info\n  DATABASE_HOST: db.internal\n")).toEqual([]);
    expect(findSecrets('{"kind": "ConfigMap", "data": {"a": "b"}}')).toEqual([]);
    expect(findSecrets("A Secret holds data: keys and values, base64-encoded.\nkind: Secret is the manifest's kind.")).toEqual([]);
    const masked = maskSecrets(`kind: Secret\ndata:\n  A: ${signing}\n`).text;
    expect(findSecrets(masked)).toEqual([]);
  });
});
