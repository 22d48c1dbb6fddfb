import { findSecrets, maskSecrets } from "./secrets";

/** Every 4-character piece of `secret`: a user sees a leak in any of them. */
function expectNoPartOf(masked: string, secret: string): void {
  for (let i = 0; i + 4 <= secret.length; i++) expect(masked).not.toContain(secret.slice(i, i + 4));
}

const PW1 = "Pw0rd-9xQ!z";
const PW2 = "hunter2-Lk8#";
const TOKEN = "tK7vQ2mZ9pL4xW8nR3cB";

describe("a delimited table's secret column", () => {
  it("masks the password column of a CSV, and only it", () => {
    const csv = `id,user,password\n1,alice,${PW1}\n2,bob,${PW2}`;
    const masked = maskSecrets(csv).text;
    expectNoPartOf(masked, PW1);
    expectNoPartOf(masked, PW2);
    expect(masked).toBe("id,user,password\n1,alice,[masked:password]\n2,bob,[masked:password]");
  });

  it.each([
    ["tab", "\t"],
    ["semicolon", ";"],
    ["pipe", "|"],
  ])("with %s delimiters", (_name, d) => {
    const text = ["id", "user", "api_key", "note"].join(d) + "\n" + ["1", "alice", TOKEN, "ok"].join(d) + "\r\n";
    const masked = maskSecrets(text).text;
    expectNoPartOf(masked, TOKEN);
    expect(masked).toBe(["id", "user", "api_key", "note"].join(d) + "\n" + ["1", "alice", "[masked:api_key]", "ok"].join(d) + "\r\n");
  });

  it("reads quoted fields whole, a delimiter or a doubled quote inside", () => {
    const csv = `"name","comment","Client Secret"\n"alice","hi, there","${PW1},x"\n"bob","a ""quote""","${PW2}"""`;
    const masked = maskSecrets(csv).text;
    expectNoPartOf(masked, `${PW1},x`);
    expectNoPartOf(masked, PW2);
    expect(masked.split("\n")).toEqual([
      '"name","comment","Client Secret"',
      '"alice","hi, there","[masked:secret]"',
      '"bob","a ""quote""","[masked:secret]"',
    ]);
  });

  it("masks a Markdown table's column and keeps its rule row", () => {
    const md = `| user | token |\n|------|-------|\n| alice | ${TOKEN} |\n`;
    const masked = maskSecrets(md).text;
    expectNoPartOf(masked, TOKEN);
    expect(masked).toBe("| user | token |\n|------|-------|\n| alice | [masked:token] |\n");
  });

  it("leaves empty fields and placeholders, and stops at a blank line or a row of another width", () => {
    const text = [
      "user,password,role",
      "alice,,admin",
      "bob,********,dev",
      "carol,changeme,dev",
      `dave,${PW1},ops`,
      "",
      `erin,${PW2},ops`,
      "user,password",
      `frank,${PW2},x`,
    ].join("\n");
    const masked = maskSecrets(text).text;
    expectNoPartOf(masked, PW1);
    expect(masked.split("\n")).toEqual([
      "user,password,role",
      "alice,,admin",
      "bob,********,dev",
      "carol,changeme,dev",
      "dave,[masked:password],ops",
      "",
      `erin,${PW2},ops`,
      "user,password",
      `frank,${PW2},x`,
    ]);
  });

  it("inside a JSON string (a shell tool's stdout): masked, and the JSON stays valid", () => {
    const json = JSON.stringify({ exit_code: 0, stdout: `id,user,password\n1,alice,${PW1}\n2,bob,"${PW2}"\n` });
    const masked = maskSecrets(json).text;
    expectNoPartOf(masked, PW1);
    expectNoPartOf(masked, PW2);
    expect((JSON.parse(masked) as { stdout: string }).stdout).toBe(
      'id,user,password\n1,alice,[masked:password]\n2,bob,"[masked:password]"\n',
    );
  });

  it("leaves a CSV without a secret column as it was", () => {
    const csv = "id,user,email,token_count,keyboard\n1,alice,alice@example.com,42,us\n2,bob,bob@example.com,7,de\n";
    expect(maskSecrets(csv).text).toBe(csv);
    expect(findSecrets("date,passes,key_count\n2024-01-01,3,Kq9mZ2vP8xL4wR7\n")).toEqual([]);
  });

  it("does not read prose or code with commas as a header", () => {
    for (const text of [
      "Set the user, password and token in the config.\nThen restart it, check the log, and retry.",
      "function login(user, password, token) {\n  return check(user, password, token);\n}",
      "const { user, password } = req.body;\nconst { a, b } = other;",
    ])
      expect(findSecrets(text)).toEqual([]);
  });

  it("masks an auth column only where its values look generated", () => {
    const masked = maskSecrets(`host,auth\napi.example.com,${TOKEN}\ndb.example.com,kerberos\n`).text;
    expect(masked).toBe("host,auth\napi.example.com,[masked:secret]\ndb.example.com,kerberos\n");
  });

  it("stays linear on a long one-line text full of secret words", () => {
    const text = "token,key,".repeat(200_000) + "\n" + "pass;".repeat(200_000);
    const t0 = performance.now();
    expect(findSecrets(text)).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});

describe("a key written as words in prose", () => {
  const HEX = "0123456789abcdef0123456789abcdef";
  it.each([
    [`heroku api key: ${HEX}`, HEX, "heroku api key: [masked:api_key]"],
    [`Your API token: ${TOKEN}`, TOKEN, "Your API token: [masked:token]"],
    [`Secret Key = "${TOKEN}"`, TOKEN, 'Secret Key = "[masked:secret]"'],
    [`stripe access key: ${TOKEN}, rotate it yearly`, TOKEN, "stripe access key: [masked:api_key], rotate it yearly"],
  ])("%s", (text, secret, expected) => {
    const masked = maskSecrets(text).text;
    expectNoPartOf(masked, secret);
    expect(masked).toBe(expected);
  });

  it("leaves prose about keys alone", () => {
    for (const text of [
      "api key: see the dashboard",
      "Secret key: YOUR_SECRET_KEY",
      "The api key: it lives in the vault under prod/heroku.",
      "api token: <token>",
      "access key: ********************",
    ])
      expect(findSecrets(text)).toEqual([]);
  });
});
