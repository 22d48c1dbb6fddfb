import { SensitiveViews } from "./views";

const TOKEN = "ghp_" + "Zq7x".repeat(9);
const TEXT = `deploy ok\nGITHUB_TOKEN=${TOKEN}\ndone\n`;
const MASKED = "deploy ok\nGITHUB_TOKEN=[masked:github_token]\ndone\n";

describe("the model's exit", () => {
  it("masks in mask mode, for every tool but the opted-out ones", () => {
    const v = new SensitiveViews({ mode: "mask", unmaskedTools: ["vault__*"] });
    expect(v.modelView(TEXT, "shell")).toBe(MASKED);
    expect(v.modelView(TEXT, null)).toBe(MASKED);
    expect(v.modelView(TEXT, "vault__read_secret")).toBe(TEXT);
    expect(v.masksFor("vault__read_secret")).toBe(false);
  });

  it("gives the text as it is in audit and off modes", () => {
    for (const mode of ["audit", "off"] as const) {
      const v = new SensitiveViews({ mode, unmaskedTools: [] });
      expect(v.modelView(TEXT, "shell")).toBe(TEXT);
      expect(v.modelBlob("0123456789ab", TEXT, "shell")).toBe(TEXT);
    }
  });
});

describe("the stored and operator views", () => {
  it("masks what is stored in every mode, and what the operator sees unless revealed", () => {
    for (const mode of ["mask", "audit", "off"] as const) {
      const v = new SensitiveViews({ mode, unmaskedTools: ["*"] });
      expect(v.storedView(TEXT)).toBe(MASKED);
      expect(v.operatorView(TEXT)).toBe(MASKED);
      expect(v.operatorView(TEXT, true)).toBe(TEXT);
    }
  });

  it("pages a blob masked or revealed, loading its text once, and says whether masking changed it", () => {
    const v = new SensitiveViews({ mode: "audit", unmaskedTools: [] });
    let loads = 0;
    const load = () => (loads++, TEXT);
    const masked = v.operatorBlob("0123456789ab", false, load)!;
    expect(masked.text).toBe(MASKED);
    expect(masked.masked).toBe(true);
    expect(masked.starts()).toEqual([0, 10, MASKED.indexOf("done")]);
    const revealed = v.operatorBlob("0123456789ab", true, load)!;
    expect(revealed).toMatchObject({ text: TEXT, masked: false });
    expect(loads).toBe(1);
    const plain = v.operatorBlob("aaaaaaaaaaaa", false, () => "nothing to hide\n")!;
    expect(plain).toMatchObject({ text: "nothing to hide\n", masked: false });
    expect(v.operatorBlob("bbbbbbbbbbbb", false, () => null)).toBeNull();
  });
});

describe("the one cache", () => {
  it("keeps the masked view of a blob, so the model's next read does not scan again", () => {
    const v = new SensitiveViews({ mode: "mask", unmaskedTools: [] });
    expect(v.maskedBlob("0123456789ab", TEXT)).toBe(MASKED);
    // A second call with different text would only agree if it came from the cache.
    expect(v.maskedBlob("0123456789ab", "other text")).toBe(MASKED);
    v.forget("0123456789ab");
    expect(v.maskedBlob("0123456789ab", "other text")).toBe("other text");
  });

  it("stays within its budget, evicting the least recently used", () => {
    const v = new SensitiveViews({ mode: "mask", unmaskedTools: [] }, 40);
    let loads = 0;
    const load = (t: string) => () => (loads++, t);
    v.operatorBlob("aaaaaaaaaaaa", true, load("a".repeat(25)));
    v.operatorBlob("bbbbbbbbbbbb", true, load("b".repeat(25))); // both do not fit: a goes
    v.operatorBlob("bbbbbbbbbbbb", true, load("b".repeat(25)));
    expect(loads).toBe(2);
    v.operatorBlob("aaaaaaaaaaaa", true, load("a".repeat(25)));
    expect(loads).toBe(3);
    // a text over the whole budget is served and not kept
    expect(v.operatorBlob("cccccccccccc", true, load("c".repeat(50)))!.text).toHaveLength(50);
    expect(v.hasText("cccccccccccc")).toBe(false);
    v.clear();
    expect(v.hasText("aaaaaaaaaaaa")).toBe(false);
  });
});
