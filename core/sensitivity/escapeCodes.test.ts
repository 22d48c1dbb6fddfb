import { withoutEscapeCodes } from "./escapeCodes";
import { findSecrets, maskSecrets } from "./secrets";

// Fake tokens of the vendors' shapes.
const GITHUB = `ghp_${"R8mK2vQ9xL4wT7nB3cF6hJ1pZ5sD0gY8aE2u"}`;
const AWS = `AKIA${"QX7RT2MZ4KP9LW3N"}`;
const SLACK = `xoxb-${"2847561930-4718293056172-Qw8eRt5yUi2oPa9sDf3gHj6k"}`;
const ANTHROPIC = `sk-ant-${"api03-Zx8Cv2Bn5Mq9Lw3Er7Ty1Ui4Op6As0Df"}`;
const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" +
  ".eyJzdWIiOiJ1c2VyLTQ4MjEiLCJleHAiOjE4OTM0NTYwMDB9" +
  ".Xq3vR8mK2pL9wN4tB7cF1hJ6sD0gY5aE2uZ8iO3kQ7";
const PASSWORD = "Hv8qZ2mLx9Tw";

/** Every 5-character piece of `secret`: a user sees a leak in any of them. */
function pieces(secret: string): string[] {
  return Array.from({ length: Math.max(1, secret.length - 4) }, (_, i) => secret.slice(i, i + 5));
}
function expectNoPartOf(masked: string, secret: string): void {
  for (const piece of pieces(secret)) expect(masked).not.toContain(piece);
}

describe("secrets behind terminal colour codes", () => {
  it.each([
    ["a coloured GitHub token", `\x1b[32m${GITHUB}\x1b[0m`, GITHUB],
    ["grep --color on a .env file", `.env:GITHUB_TOKEN=\x1b[01;31m\x1b[K${GITHUB}\x1b[m\x1b[K`, GITHUB],
    ["a coloured AWS access key id", `aws_access_key_id = \x1b[33m${AWS}\x1b[0m`, AWS],
    ["a coloured Slack bot token", `token: \x1b[1;36m${SLACK}\x1b[0m`, SLACK],
    ["a coloured Anthropic key", `\x1b[35m${ANTHROPIC}\x1b[39m`, ANTHROPIC],
    ["a coloured JWT", `Authorization header: \x1b[2m${JWT}\x1b[22m`, JWT],
    ["a coloured password value", `password=\x1b[31m${PASSWORD}\x1b[0m`, PASSWORD],
    ["a coloured password value inside a line", `login ok user=bob password=\x1b[31m${PASSWORD}\x1b[0m via sso`, PASSWORD],
    ["a token after an OSC hyperlink", `\x1b]8;;https://example.com\x07${GITHUB}\x1b]8;;\x07`, GITHUB],
  ])("masks %s", (_name, text, secret) => {
    const masked = maskSecrets(text).text;
    expectNoPartOf(masked, secret);
  });

  it("keeps the colour codes around a masked token, so the terminal output still reads", () => {
    expect(maskSecrets(`\x1b[32m${GITHUB}\x1b[0m`).text).toBe("\x1b[32m[masked:github_token]\x1b[0m");
    expect(maskSecrets(`key \x1b[33m${AWS}\x1b[0m done`).text).toBe("key \x1b[33m[masked:aws_access_key_id]\x1b[0m done");
  });

  it("masks a coloured token inside a JSON-wrapped command output, and the JSON stays valid", () => {
    const json = JSON.stringify({ exit_code: 0, stdout: `found:\n\x1b[32m${GITHUB}\x1b[0m\n` });
    const masked = maskSecrets(json).text;
    expectNoPartOf(masked, GITHUB);
    expect((JSON.parse(masked) as { stdout: string }).stdout).toBe("found:\n\x1b[32m[masked:github_token]\x1b[0m\n");
  });
});

describe("a code deep inside a long text", () => {
  it("is read around, on a one-line text too, and masked text stays masked", () => {
    const line = `${"a1,".repeat(100_000)} \x1b[32m${GITHUB}\x1b[0m ${"b2;".repeat(100_000)}`;
    const text = `${"x".repeat(5_000)}\n${line}\nlast %3D line`;
    const masked = maskSecrets(text);
    expectNoPartOf(masked.text, GITHUB);
    expect(masked.text).toContain(" \x1b[32m[masked:github_token]\x1b[0m ");
    expect(masked.text).toHaveLength(text.length - GITHUB.length + "[masked:github_token]".length);
    expect(maskSecrets(masked.text).count).toBe(0);
  });
});

describe("secrets behind URL escapes", () => {
  it("masks a token whose key and `=` are percent-encoded in a URL", () => {
    const text = `GET https://app.example.com/cb?next=%2Fhome%26token%3D${GITHUB} 302`;
    const masked = maskSecrets(text).text;
    expectNoPartOf(masked, GITHUB);
    expect(masked).toBe("GET https://app.example.com/cb?next=%2Fhome%26token%3D[masked:github_token] 302");
  });

  it("masks an encoded password parameter up to the next encoded `&`", () => {
    const masked = maskSecrets(`redirect=%2Flogin%3Fpassword%3D${PASSWORD}%26user%3Dbob`).text;
    expectNoPartOf(masked, PASSWORD);
    expect(masked).toContain("%26user%3Dbob");
  });

  it("still masks a value holding a percent escape as a whole", () => {
    expect(maskSecrets("password=abc%21def").text).toBe("password=[masked:password]");
    expect(maskSecrets("https://x.example.com/login?password=Kq9%21mZ2v&user=bob").text).toBe(
      "https://x.example.com/login?password=[masked:password]&user=bob",
    );
  });

  it("finds nothing new in escapes around ordinary words", () => {
    expect(findSecrets("GET /search?q=caf%C3%A9%20au%20lait 200 \x1b[32mOK\x1b[0m 100% done")).toEqual([]);
  });
});

describe("withoutEscapeCodes", () => {
  it("blanks codes character for character, so offsets stay those of the text", () => {
    const text = `a\x1b[01;31m\x1b[Kb%3Dc%26d%41e\x1b(Bf`;
    const plain = withoutEscapeCodes(text)!;
    expect(plain).toHaveLength(text.length);
    expect(plain).toBe("a" + " ".repeat(11) + "b=  c&  d   e   f");
  });

  it("answers null for text with neither (the common path scans once)", () => {
    expect(withoutEscapeCodes("plain log line, no codes")).toBeNull();
    expect(withoutEscapeCodes("took 50% of the time")).toBeNull();
  });
});
