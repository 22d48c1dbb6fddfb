/**
 * Test data: realistic tool output with planted secrets of many kinds. The secret values are
 * generated from a seeded PRNG at run time rather than written out, so the repository holds no
 * secret-shaped literals for scanners (or push protection) to trip on, and every run is the same.
 */

export interface Planted {
  kind: string;
  value: string;
}

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_NUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64 = ALNUM + "+/";
const B64URL = ALNUM + "-_";
const HEX = "0123456789abcdef";

function b64url(s: string): string {
  return Buffer.from(s).toString("base64url");
}

/** Builds the fixture: one text per source, and every secret value planted in it. */
export function buildLeakFixture(seed = 20240501): { text: string; planted: Planted[] } {
  const rnd = prng(seed);
  const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
  const planted: Planted[] = [];
  const plant = (kind: string, value: string) => (planted.push({ kind, value }), value);
  const pemBody = (lines: number, kind: string) =>
    Array.from({ length: lines }, (_, i) => plant(kind, i === lines - 1 ? pick(B64, 40) + "==" : pick(B64, 64)));

  const jwt = plant(
    "jwt",
    `${b64url('{"alg":"RS256","typ":"JWT","kid":"' + pick(HEX, 16) + '"}')}.${b64url('{"sub":"user-' + pick(HEX, 8) + '","scope":"admin","exp":1893456000}')}.${pick(B64URL, 86)}`,
  );
  const envDump = [
    "$ cat .env.production",
    "NODE_ENV=production",
    "PORT=8080",
    `DATABASE_URL=postgres://app_user:${plant("url_password", pick(ALNUM, 20))}@db.internal:5432/app`,
    `DB_PASSWORD=${plant("password", pick(ALNUM, 18) + "!#")}`,
    `AWS_ACCESS_KEY_ID=${plant("aws_access_key_id", "AKIA" + pick(UPPER_NUM, 16))}`,
    `AWS_SECRET_ACCESS_KEY=${plant("aws_secret_access_key", pick(B64, 40))}`,
    `STRIPE_SECRET_KEY=${plant("stripe", "sk_live_" + pick(ALNUM, 24))}`,
    `STRIPE_RESTRICTED_KEY=${plant("stripe_restricted", "rk_live_" + pick(ALNUM, 24))}`,
    `OPENAI_API_KEY=${plant("openai", "sk-proj-" + pick(B64URL, 48))}`,
    `ANTHROPIC_API_KEY=${plant("anthropic", "sk-ant-api03-" + pick(B64URL, 80))}`,
    `SLACK_BOT_TOKEN=${plant("slack_token", "xoxb-" + pick("0123456789", 12) + "-" + pick("0123456789", 13) + "-" + pick(ALNUM, 24))}`,
    `GITHUB_TOKEN=${plant("github_classic", "ghp_" + pick(ALNUM, 36))}`,
    `GITLAB_TOKEN="${plant("gitlab", "glpat-" + pick(B64URL, 20))}"`,
    `SECRET_KEY='${plant("django_secret", pick(ALNUM + "!@#%^*", 50))}'`,
    `SENDGRID_API_KEY=${plant("sendgrid", "SG." + pick(B64URL, 22) + "." + pick(B64URL, 43))}`,
    `HF_TOKEN=${plant("huggingface", "hf_" + pick(ALNUM, 34))}`,
    `SLACK_WEBHOOK_URL=https://hooks.slack.com/services/${plant("slack_webhook", "T" + pick(UPPER_NUM, 8) + "/B" + pick(UPPER_NUM, 8) + "/" + pick(ALNUM, 24))}`,
    "LOG_LEVEL=info",
  ].join("\n");

  const k8sSecret = [
    "$ kubectl get secret app-secrets -o yaml",
    "apiVersion: v1",
    "data:",
    `  password: ${plant("k8s_password", Buffer.from(pick(ALNUM, 16)).toString("base64"))}`,
    `  tls.key: ${plant("k8s_tls_key", Buffer.from("-----BEGIN PRIVATE KEY-----\n" + pick(B64, 64) + "\n-----END PRIVATE KEY-----\n").toString("base64"))}`,
    `  .dockerconfigjson: ${plant("dockerconfig", Buffer.from('{"auths":{"ghcr.io":{"auth":"' + Buffer.from("bot:" + pick(ALNUM, 20)).toString("base64") + '"}}}').toString("base64"))}`,
    "  username: YXBw",
    "kind: Secret",
    "metadata:",
    "  name: app-secrets",
    "  namespace: prod",
    "type: Opaque",
  ].join("\n");

  const curlTrace = [
    "$ curl -v https://api.example.com/v1/me",
    "*   Trying 93.184.216.34:443...",
    "* Connected to api.example.com (93.184.216.34) port 443",
    "> GET /v1/me HTTP/2",
    "> Host: api.example.com",
    "> user-agent: curl/8.5.0",
    `> authorization: Bearer ${jwt}`,
    "> accept: */*",
    ">",
    "< HTTP/2 200",
    "< content-type: application/json",
    `< x-request-id: ${pick(HEX, 32)}`,
    "<",
    '{"id": 42, "name": "Ada", "token_count": 1234}',
    `$ curl -u admin:${plant("curl_basic_password", pick(ALNUM, 14))} https://legacy.example.com/ -H "Authorization: Basic ${plant("basic_header", Buffer.from("svc:" + pick(ALNUM, 16)).toString("base64"))}"`,
  ].join("\n");

  const serviceAccount = JSON.stringify(
    {
      type: "service_account",
      project_id: "acme-prod",
      private_key_id: pick(HEX, 40),
      private_key: `-----BEGIN PRIVATE KEY-----\n${pemBody(5, "gcp_private_key").join("\n")}\n-----END PRIVATE KEY-----\n`,
      client_email: "deployer@acme-prod.iam.gserviceaccount.com",
      client_id: pick("0123456789", 21),
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      maps_key: plant("gcp_api_key", "AIza" + pick(B64URL, 35)),
    },
    null,
    2,
  );

  const gitRemote = [
    "$ git remote -v",
    `origin\thttps://deploy-bot:${plant("git_remote_password", pick(ALNUM, 24))}@git.example.com/acme/app.git (fetch)`,
    `mirror\thttps://x-access-token:${plant("github_app_token", "ghs_" + pick(ALNUM, 36))}@github.com/acme/app.git (push)`,
    `fine\thttps://${plant("github_pat", "github_pat_" + pick(ALNUM, 22) + "_" + pick(ALNUM, 59))}@github.com/acme/tools.git (fetch)`,
  ].join("\n");

  const azure = [
    `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${plant("azure_account_key", pick(B64, 86) + "==")};EndpointSuffix=core.windows.net"`,
    `blob url: https://acmeprod.blob.core.windows.net/backups/db.tar?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=${plant("azure_sas", pick(ALNUM, 40) + "%3D")}`,
    `s3 presigned: https://bucket.s3.amazonaws.com/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=${plant("aws_presigned_signature", pick(HEX, 64))}`,
  ].join("\n");

  const sshKeys = [
    "$ cat ~/.ssh/id_ed25519",
    "-----BEGIN OPENSSH PRIVATE KEY-----",
    ...pemBody(5, "openssh_private_key"),
    "-----END OPENSSH PRIVATE KEY-----",
    "$ cat ec.pem",
    "-----BEGIN EC PRIVATE KEY-----",
    ...pemBody(3, "ec_private_key"),
    "-----END EC PRIVATE KEY-----",
    "$ gpg --export-secret-keys --armor ops@acme.test",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----",
    "",
    ...pemBody(6, "pgp_private_key"),
    `=${pick(B64, 4)}`, // the armour checksum: masked with the body, too short to assert on
    "-----END PGP PRIVATE KEY BLOCK-----",
    "$ head -4 legacy_rsa.pem   # cut off: no END line",
    "-----BEGIN RSA PRIVATE KEY-----",
    ...pemBody(3, "truncated_rsa_private_key"),
  ].join("\n");

  const misc = [
    "$ cat ~/.npmrc",
    `//registry.npmjs.org/:_authToken=${plant("npm_token", "npm_" + pick(ALNUM, 36))}`,
    "$ docker login registry.acme.test --username ci --password " + plant("docker_cli_password", pick(ALNUM, 20)),
    "settings.py:",
    `    EMAIL_HOST_PASSWORD = "${plant("python_password", pick(ALNUM, 12))}"`,
    `    "api_key": "${plant("json_api_key", pick(HEX, 32))}",`,
    `client_secret: ${plant("oauth_client_secret", "GOCSPX-" + pick(B64URL, 28))}`,
    `redis: redis://:${plant("redis_password", pick(ALNUM, 16))}@cache:6379/0`,
    `discord: https://discord.com/api/webhooks/123456789012345678/${plant("discord_webhook", pick(B64URL, 68))}`,
    `log: {\\"user\\": \\"ada\\", \\"password\\": \\"${plant("escaped_json_password", pick(ALNUM, 15))}\\"}`,
  ].join("\n");

  const text = [envDump, k8sSecret, curlTrace, serviceAccount, gitRemote, azure, sshKeys, misc].join("\n\n") + "\n";
  return { text, planted };
}
