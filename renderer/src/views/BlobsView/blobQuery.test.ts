import { describe, expect, it } from "vitest";
import { formatRoute, parseRoute } from "../../router/route";
import { filterOf, queryOf, sortOf } from "./blobQuery";

describe("the blobs table's URL", () => {
  it("turns the URL query into the server's filter and sort, ignoring values that name nothing", () => {
    const r = parseRoute("#/blobs?q=orders&kind=json&label=secret&state=pinned&role=dedup&min=20&sort=chars&dir=asc");
    if (r.name !== "blobs") throw new Error("not the blobs route");
    expect(filterOf(r)).toEqual({ text: "orders", kinds: ["json"], states: ["pinned"], role: "dedup", minChars: 20_000 });
    expect(sortOf(r)).toEqual({ by: "chars", dir: "asc" });
    expect(sortOf({ sort: "nonsense" })).toEqual({ by: "createdAt", dir: "desc" });
  });

  it("writes a form and a sort back as a URL that reads the same (the default sort left out)", () => {
    const q = queryOf({ q: " orders ", tool: "read_text_file", min: "" }, { by: "createdAt", dir: "desc" });
    expect(formatRoute({ name: "blobs", ...q })).toBe("#/blobs?q=orders&tool=read_text_file");
    const sorted = queryOf({ role: "rescued" }, { by: "fetchCount", dir: "desc" });
    expect(parseRoute(formatRoute({ name: "blobs", ...sorted }))).toEqual({
      name: "blobs",
      role: "rescued",
      sort: "fetchCount",
      dir: "desc",
    });
  });
});
