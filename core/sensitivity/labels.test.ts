import { scanPersonal, scanPersonalAsync } from "./personal";
import { labelArguments, labelContent, labelForTool, labelResult, maxLabel } from "./labels";

const GH_TOKEN = "ghp_" + "k3Y9".repeat(9);

describe("maxLabel", () => {
  it("orders public < internal < personal < credential", () => {
    expect(maxLabel("public", "internal")).toBe("internal");
    expect(maxLabel("credential", "personal")).toBe("credential");
    expect(maxLabel("personal", "internal")).toBe("personal");
    expect(maxLabel("public", "public")).toBe("public");
  });
});

describe("labelContent", () => {
  it("is credential when a secret is present, and says which kind without the value", () => {
    const r = labelContent(`deploy log\nexport GITHUB_TOKEN=${GH_TOKEN}\ndone`);
    expect(r.label).toBe("credential");
    expect(r.reasons.join(" ")).toContain("github_token");
    expect(r.reasons.join(" ")).not.toContain(GH_TOKEN);
  });

  it("is personal for a list of people's contacts", () => {
    const csv =
      "name,email,phone\nAda,ada.l@acme.io,+44 20 7946 0958\nAlan,alan.t@acme.io,+44 20 7946 0321\nGrace,grace@navy.test,(555) 010-4477\n";
    const r = labelContent(csv);
    expect(r.label).toBe("personal");
    expect(r.reasons[0]).toMatch(/3 e-mail addresses, 3 phone numbers/);
  });

  it("is personal for one valid IBAN, SSN-like number or payment card", () => {
    expect(labelContent("Pay to GB82 WEST 1234 5698 7654 32 by Friday").label).toBe("personal");
    expect(labelContent("SSN: 123-45-6789").label).toBe("personal");
    expect(labelContent("card 4111 1111 1111 1111 exp 12/29").label).toBe("personal");
  });

  it("labels the same from the text's UTF-8 bytes as from the text, for every signal", () => {
    const texts = [
      "name,email,phone\nAda,ada.l@acme.io,+44 20 7946 0958\nAlan,alan.t@acme.io,+44 20 7946 0321\nGrace,grace@navy.test,(555) 010-4477\n",
      "Pay to GB82 WEST 1234 5698 7654 32 by Friday",
      "SSN: 123-45-6789, card 4111 1111 1111 1111 exp 12/29",
      "ref GB00 WEST 1234 5698 7654 32; id 666-12-3456 and 4111 1111 1111 1112; From: noreply@github.com",
      "Zoë, zoe@acme.io, +33 1 42 68 53 00; Jörg, joerg@acme.io, +49 30 901820",
    ];
    for (const t of texts) {
      const bytes = Buffer.from(t, "utf8");
      expect(scanPersonal(t, bytes)).toEqual(scanPersonal(t));
      expect(labelContent(t, undefined, bytes)).toEqual(labelContent(t));
    }
  });

  it("counts the same in a text of several megabytes scanned a window at a time, signals across window edges included", async () => {
    const MiB = 1 << 20;
    const filler = (n: number) => "log line with nothing personal in it\n".repeat(Math.ceil(n / 37)).slice(0, n);
    // Each signal starts a few chars before a 1 MiB edge, so it ends past it; one address is glued
    // to a word that ends before the edge (its match starts there, not at the edge).
    let t = "";
    const before = (edge: number, signal: string, back: number) => (t += filler(edge * MiB - back - t.length) + signal);
    before(1, " ana.lima@acme-corp.io ", 6);
    before(2, " prefixjohn@acme-corp.io ", 3);
    before(3, " GB82 WEST 1234 5698 7654 32 ", 10);
    before(4, " card 4111 1111 1111 1111 ", 12);
    t += filler(1000) + "+44 20 7946 0958, 123-45-6789\n";
    expect(t.length).toBeGreaterThan(4 * MiB);
    const whole = scanPersonal(t, Buffer.from(t, "utf8"));
    expect(whole).toEqual({ emails: 2, phones: 1, iban: 1, ssn: 1, card: 1 });
    expect(scanPersonal(t)).toEqual(whole);
    // The background scan gives the event loop a turn between windows, and counts the same.
    let turns = 0;
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const scanned = await scanPersonalAsync(t);
    done = true;
    expect(scanned).toEqual(whole);
    expect(turns).toBeGreaterThanOrEqual(4);
  });

  it("is public for checksum-failing look-alikes and role addresses", () => {
    expect(labelContent("ref GB00 WEST 1234 5698 7654 32").label).toBe("public"); // bad IBAN checksum
    expect(labelContent("id 666-12-3456 and 4111 1111 1111 1112").label).toBe("public");
    expect(labelContent("From: noreply@github.com, git@github.com, a@example.com").label).toBe("public");
  });

  it("is public for a single address (an author line is not a contact list)", () => {
    expect(labelContent("Author: Ada Lovelace <ada@acme.io>\nDate: today").label).toBe("public");
  });

  it("is public for plain output", () => {
    expect(labelContent('{"items": [1, 2, 3], "max_tokens": 512}')).toEqual({ label: "public", reasons: [] });
  });
});

describe("labelArguments", () => {
  it("finds a secret passed as an argument, key included", () => {
    expect(labelArguments({ query: "select 1", auth: { password: "Tr0ub4dor&3" } }).label).toBe("credential");
    expect(labelArguments({ headers: [`Authorization: token ${GH_TOKEN}`] }).label).toBe("credential");
  });

  it("is public for ordinary arguments and odd values", () => {
    expect(labelArguments({ path: "/etc/hosts", max_tokens: 100 }).label).toBe("public");
    expect(labelArguments(undefined).label).toBe("public");
    expect(labelArguments({ big: 10n }).label).toBe("public");
    const cyclic: Record<string, unknown> = { a: "x" };
    cyclic.self = cyclic;
    expect(labelArguments(cyclic).label).toBe("public");
    cyclic.password = "Tr0ub4dor&3";
    expect(labelArguments(cyclic).label).toBe("credential");
  });
});

describe("labelForTool", () => {
  const map = { "hr__*": "personal", vault__read_secret: "credential", "*": "internal" } as const;

  it("matches exact names and globs, highest label wins", () => {
    expect(labelForTool("vault__read_secret", map)).toBe("credential");
    expect(labelForTool("hr__list_employees", map)).toBe("personal");
    expect(labelForTool("fs__read_file", map)).toBe("internal");
  });

  it("is null when nothing matches", () => {
    expect(labelForTool("fs__read_file", { "hr__*": "personal" })).toBeNull();
    expect(labelForTool("fs__read_file", {})).toBeNull();
  });
});

describe("labelResult", () => {
  it("takes the highest of tool map, arguments and content", () => {
    const base = { tool: "hr__get_employee", toolLabels: { "hr__*": "personal" as const } };
    expect(labelResult({ ...base, args: { id: 7 }, content: "name: Ada" }).label).toBe("personal");
    const withSecret = labelResult({ ...base, args: { id: 7 }, content: `token=${GH_TOKEN}` });
    expect(withSecret.label).toBe("credential");
    expect(withSecret.reasons).toEqual([
      expect.stringContaining("hr__get_employee is configured as personal"),
      expect.stringContaining("github_token"),
    ]);
    expect(labelResult({ tool: "fs__read", args: { password: "Tr0ub4dor&3" }, content: "ok", toolLabels: {} }).label).toBe("credential");
    expect(labelResult({ tool: "fs__read", args: {}, content: "ok", toolLabels: {} })).toEqual({ label: "public", reasons: [] });
  });
});
