/**
 * Tokens that name themselves: a vendor prefix (or a fixed structure) makes them secret wherever
 * they appear, with no key or header around them. Each value is an RE2 expression with only
 * non-capturing groups; secretPatterns.ts compiles them with the context-bound entries into one
 * scan. Formats are the vendors' published ones; lengths are kept a little loose on the long
 * side (vendors lengthen tokens) and strict on the short side (short runs are ordinary words).
 */
import type { SecretPattern } from "./secretPatterns";

const B64URL = "[A-Za-z0-9_-]";

/** Order matters only between entries that can match at the same position (first wins). */
export const TOKEN_PATTERNS: readonly SecretPattern[] = [
  // Cloud providers. An access key id followed by its secret (the credentials CSV the console
  // hands out, `id:secret` pairs) is one span: the secret has no shape of its own.
  { type: "aws_credentials", value: String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}[ \t]*[,:;|\t][ \t]*[A-Za-z0-9+/]{40}\b` },
  { type: "aws_access_key_id", value: String.raw`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b` },
  { type: "gcp_api_key", value: String.raw`\bAIza[0-9A-Za-z_-]{35}` },
  { type: "google_oauth_token", value: String.raw`\bya29\.[0-9A-Za-z_-]{20,}` },
  { type: "google_oauth_client_secret", value: String.raw`\bGOCSPX-[0-9A-Za-z_-]{20,}` },
  // Entra ID (Azure AD) client secrets carry `<3 chars><digit>Q~` at a fixed place.
  { type: "azure_client_secret", value: String.raw`\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}` },
  { type: "digitalocean_token", value: String.raw`\bdo[opr]_v1_[a-f0-9]{64}\b` },
  { type: "heroku_token", value: String.raw`\bHRKU-${B64URL}{40,}` },
  { type: "databricks_token", value: String.raw`\bdapi[a-f0-9]{32}(?:-\d)?\b` },
  { type: "vault_token", value: String.raw`\bhv[sbr]\.[A-Za-z0-9_-]{24,}` },
  { type: "doppler_token", value: String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}` },
  { type: "alibaba_access_key_id", value: String.raw`\bLTAI[A-Za-z0-9]{12,20}\b` },
  { type: "terraform_cloud_token", value: String.raw`\b[A-Za-z0-9]+\.atlasv1\.[A-Za-z0-9_=-]{60,}` },
  { type: "pulumi_token", value: String.raw`\bpul-[a-f0-9]{40}\b` },
  { type: "tailscale_key", value: String.raw`\btskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}` },
  { type: "onepassword_service_token", value: String.raw`\bops_eyJ[A-Za-z0-9+/=_-]{40,}` },
  { type: "neon_api_key", value: String.raw`\bnapi_[a-z0-9]{64}\b` },
  { type: "netlify_token", value: String.raw`\bnfp_[A-Za-z0-9]{36,}\b` },
  // Source hosting and package registries.
  { type: "github_token", value: String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{30,255})\b` },
  {
    type: "gitlab_token",
    value: String.raw`\b(?:gl(?:pat|dt|rt|ptt|cbt|oas|imt|soat|ffct|agent|wt)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,})`,
  },
  { type: "npm_token", value: String.raw`\bnpm_[A-Za-z0-9]{36}\b` },
  { type: "jfrog_token", value: String.raw`\b(?:AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{40,})\b` },
  { type: "bitbucket_app_password", value: String.raw`\bATBB[A-Za-z0-9_=.-]{28,}` },
  { type: "buildkite_token", value: String.raw`\bbkua_[a-f0-9]{40}\b` },
  { type: "circleci_token", value: String.raw`\bCCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}\b` },
  { type: "sourcegraph_token", value: String.raw`\bsgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}\b` },
  { type: "pypi_token", value: String.raw`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}` },
  { type: "docker_token", value: String.raw`\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{24,}` },
  { type: "huggingface_token", value: String.raw`\bhf_[A-Za-z0-9]{34,}\b` },
  // Chat, mail and payment.
  { type: "slack_token", value: String.raw`\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}` },
  {
    type: "slack_webhook",
    prefix: String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/`,
    value: String.raw`[A-Za-z0-9/_-]{16,}`,
  },
  {
    type: "discord_webhook",
    prefix: String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/`,
    value: String.raw`[A-Za-z0-9_-]{20,}`,
  },
  { type: "telegram_bot_token", value: String.raw`\b\d{8,10}:AA[0-9A-Za-z_-]{33}\b` },
  // The Bot API's URLs put the token right after `bot`, with no word boundary before it.
  { type: "telegram_bot_token", prefix: String.raw`/bot`, value: String.raw`\d{8,10}:AA[0-9A-Za-z_-]{33}\b` },
  // A Discord bot token as a bot logs in (`client.login('MTA…')`): the bot's id in base64, a
  // timestamp, an HMAC. Only after `login(`: a bare three-part shape, counted at every word, put the
  // scan's DFA out of its memory on minified code (4.4 s for 4.6 MB, see the secrets bench).
  {
    type: "discord_bot_token",
    prefix: String.raw`\blogin\(["'\x60]`,
    value: String.raw`[MNO][A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`,
  },
  { type: "stripe_key", value: String.raw`\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,})` },
  { type: "square_token", value: String.raw`\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,}` },
  { type: "shopify_token", value: String.raw`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b` },
  { type: "sendgrid_key", value: String.raw`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}` },
  { type: "mailgun_key", value: String.raw`\bkey-[0-9a-f]{32}\b` },
  { type: "mailchimp_key", value: String.raw`\b[0-9a-f]{32}-us[0-9]{1,2}\b` },
  // LLM and AI APIs.
  { type: "anthropic_key", value: String.raw`\bsk-ant-[A-Za-z0-9_-]{20,}` },
  { type: "openrouter_key", value: String.raw`\bsk-or-v1-[a-f0-9]{64}\b` },
  // Legacy OpenAI keys are one unbroken alphanumeric run, so `sk-some-package-name` stays out.
  { type: "openai_key", value: String.raw`\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,})` },
  { type: "groq_key", value: String.raw`\bgsk_[A-Za-z0-9]{40,}\b` },
  { type: "xai_key", value: String.raw`\bxai-[A-Za-z0-9]{60,}\b` },
  { type: "perplexity_key", value: String.raw`\bpplx-[A-Za-z0-9]{40,}\b` },
  { type: "replicate_token", value: String.raw`\br8_[A-Za-z0-9]{30,}\b` },
  { type: "fireworks_key", value: String.raw`\bfw_[A-Za-z0-9]{24,}\b` },
  { type: "langsmith_key", value: String.raw`\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b` },
  // SaaS APIs.
  { type: "atlassian_token", value: String.raw`\bATATT3[A-Za-z0-9_=-]{100,}` },
  { type: "linear_key", value: String.raw`\blin_api_[A-Za-z0-9]{40}\b` },
  { type: "notion_token", value: String.raw`\b(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43})\b` },
  { type: "postman_key", value: String.raw`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b` },
  { type: "sentry_token", value: String.raw`\bsntr[ysu]_[A-Za-z0-9+/=_-]{40,}` },
  { type: "grafana_token", value: String.raw`\b(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}\b)` },
  { type: "newrelic_key", value: String.raw`\bNRAK-[A-Z0-9]{27}\b` },
  { type: "planetscale_token", value: String.raw`\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}` },
  { type: "supabase_token", value: String.raw`\bsbp_[a-f0-9]{40}\b` },
  { type: "airtable_token", value: String.raw`\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b` },
  { type: "figma_token", value: String.raw`\bfigd_[A-Za-z0-9_-]{40,}` },
  { type: "contentful_token", value: String.raw`\bCFPAT-[A-Za-z0-9_-]{43,}` },
  { type: "prefect_key", value: String.raw`\bpnu_[A-Za-z0-9]{36}\b` },
  { type: "pinecone_key", value: String.raw`\bpcsk_[A-Za-z0-9_]{50,}` },
  { type: "mapbox_secret_token", value: String.raw`\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}` },
  // Structured tokens.
  { type: "jwt", value: String.raw`\beyJ${B64URL}{8,}\.eyJ${B64URL}{8,}\.${B64URL}*` },
  // An age identity (`age-keygen`, sops): bech32, upper case, 58 data characters after the `1`.
  { type: "age_secret_key", value: String.raw`\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b` },
  // Password hashes in crypt(3) form (/etc/shadow, .htpasswd, a users table): crackable offline.
  {
    type: "password_hash",
    value: String.raw`\$(?:(?:1|5|6|apr1)\$[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}|2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|y\$[./A-Za-z0-9]{1,32}\$[./A-Za-z0-9]{1,64}\$[./A-Za-z0-9]{43}|argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,})`,
  },
  // base64 of `{"auths":`, the start of a Docker config (kubernetes .dockerconfigjson).
  { type: "docker_config_auth", value: String.raw`\beyJhdXRocyI6[A-Za-z0-9+/]{8,}={0,2}` },
];
