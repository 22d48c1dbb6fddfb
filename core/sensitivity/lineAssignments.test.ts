import { findSecrets, maskSecrets } from "./secrets";

/** Every 4-character piece of `secret`: a user sees a leak in any of them. */
function expectNoPartOf(masked: string, secret: string): void {
  for (let i = 0; i + 4 <= secret.length; i++) expect(masked).not.toContain(secret.slice(i, i + 4));
}

describe("a line that is one assignment masks its value to the line's end", () => {
  it.each([
    ["DB_PASSWORD=Tr0ub4dor&3xQzPlmV", "Tr0ub4dor&3xQzPlmV", "DB_PASSWORD=[masked:password]"],
    ["X_PASSWORD=Kq9;mZ2vP8xL4wR7", "Kq9;mZ2vP8xL4wR7", "X_PASSWORD=[masked:password]"],
    ["DB_PASSWORD=(Kq9mZ2vP8xL4wR7)", "(Kq9mZ2vP8xL4wR7)", "DB_PASSWORD=[masked:password]"],
    ["MYSQL_ROOT_PASSWORD=Hx7[kQ2]mP9vL", "Hx7[kQ2]mP9vL", "MYSQL_ROOT_PASSWORD=[masked:password]"],
    ["SECRET_KEY=django-insecure-<a8f7z!q2>k9m", "django-insecure-<a8f7z!q2>k9m", "SECRET_KEY=[masked:secret]"],
    ["API_TOKEN=a8Kd93jLq0Zx7Vb2Nm4Pw6Rt456{rty}", "a8Kd93jLq0Zx7Vb2Nm4Pw6Rt456{rty}", "API_TOKEN=[masked:token]"],
  ])("%s", (text, secret, expected) => {
    const masked = maskSecrets(text).text;
    expectNoPartOf(masked, secret);
    expect(masked).toBe(expected);
  });

  it("in a whole .env file, keeping comments, other lines and the line count", () => {
    const env = [
      "# database",
      "DB_HOST=db.internal",
      "DB_PASSWORD=Tr0ub4dor&3xQzPlmV # rotated monthly",
      "export REDIS_PASSWORD=Kq9;mZ2vP8xL4wR7",
      "  MYSQL_ROOT_PASSWORD=Hx7[kQ2]mP9vL\r",
      "GITHUB_WEBHOOK_KEY=w9Xc4(Lp2)Qz7Rm5",
      "LOG_LEVEL=info",
    ].join("\n");
    const masked = maskSecrets(env).text;
    for (const secret of ["Tr0ub4dor&3xQzPlmV", "Kq9;mZ2vP8xL4wR7", "Hx7[kQ2]mP9vL", "w9Xc4(Lp2)Qz7Rm5"]) expectNoPartOf(masked, secret);
    expect(masked.split("\n")).toEqual([
      "# database",
      "DB_HOST=db.internal",
      "DB_PASSWORD=[masked:password] # rotated monthly",
      "export REDIS_PASSWORD=[masked:password]",
      "  MYSQL_ROOT_PASSWORD=[masked:password]\r",
      "GITHUB_WEBHOOK_KEY=[masked:api_key]",
      "LOG_LEVEL=info",
    ]);
  });

  it("in grep output and a compose file's environment list", () => {
    const text = [
      "config/.env.production:12:DB_PASSWORD=Tr0ub4dor&3xQzPlmV",
      "services:",
      "  db:",
      "    environment:",
      "      - MYSQL_ROOT_PASSWORD=Hx7[kQ2]mP9vL",
    ].join("\n");
    const masked = maskSecrets(text).text;
    expectNoPartOf(masked, "Tr0ub4dor&3xQzPlmV");
    expectNoPartOf(masked, "Hx7[kQ2]mP9vL");
    expect(masked).toContain("config/.env.production:12:DB_PASSWORD=[masked:password]\n");
    expect(masked).toContain("      - MYSQL_ROOT_PASSWORD=[masked:password]");
  });

  it("inside a JSON string (a shell tool's stdout): masked, and the JSON stays valid", () => {
    const json = JSON.stringify({
      exit_code: 0,
      stdout: 'DB_PASSWORD=Tr0ub4dor&3xQ"zPlmV\nAPI_TOKEN=a8Kd93jLq0Zx7Vb2Nm4Pw6Rt456{rty}\nPORT=5432\n',
    });
    const masked = maskSecrets(json).text;
    expectNoPartOf(masked, 'Tr0ub4dor&3xQ\\"zPlmV');
    expectNoPartOf(masked, "a8Kd93jLq0Zx7Vb2Nm4Pw6Rt456{rty}");
    expect((JSON.parse(masked) as { stdout: string }).stdout).toBe("DB_PASSWORD=[masked:password]\nAPI_TOKEN=[masked:token]\nPORT=5432\n");
  });
});

describe("key=value inside a line still ends at punctuation", () => {
  it("keeps the next URL parameter", () => {
    expect(maskSecrets("https://x.example.com/login?password=Hunter2xQ9&user=bob").text).toBe(
      "https://x.example.com/login?password=[masked:password]&user=bob",
    );
    expect(maskSecrets("password=Hunter2xQ9&user=bob appears in the query").text).toBe(
      "password=[masked:password]&user=bob appears in the query",
    );
  });

  it("keeps the command after a variable set for it", () => {
    expect(maskSecrets("PGPASSWORD=Kq9mZ2vP8xL4 psql -h db -U app").text).toBe("PGPASSWORD=[masked:password] psql -h db -U app");
  });

  it("leaves placeholders, references and code alone, and masked text as it is", () => {
    for (const line of [
      "DB_PASSWORD=<your-password>",
      "DB_PASSWORD=${DB_PASSWORD}",
      "DB_PASSWORD=$(cat /run/secrets/db_password)",
      "DB_PASSWORD=[masked:password]",
      "password=getpass();",
      "token=tokens[0];",
      "password=input()",
    ])
      expect(findSecrets(line)).toEqual([]);
  });
});
