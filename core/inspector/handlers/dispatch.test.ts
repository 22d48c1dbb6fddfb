import { memoryLogger } from "../../runtime";
import { ErrorCode, SpillwayError } from "../../errors";
import { createDispatch } from "./dispatch";
import type { Handlers } from "./handlers";

const handlers = {
  "blobs.get": ({ id }: { id: string }) => {
    if (id === "000000000000") throw new SpillwayError(ErrorCode.NotFound, "There is no blob 000000000000 in this store.");
    if (id === "111111111111") throw new SpillwayError(ErrorCode.CannotDecrypt, "cannot decrypt 111111111111");
    if (id === "222222222222") throw new Error("disk on fire\n    at stack line");
    return { id };
  },
} as unknown as Handlers;

describe("dispatch: the one boundary", () => {
  const logger = memoryLogger();
  const dispatch = createDispatch(handlers, logger);

  it("answers ok with the handler's value", async () => {
    expect(await dispatch("blobs.get", { id: "0123456789ab" })).toEqual({ ok: true, value: { id: "0123456789ab" } });
  });

  it("rejects unknown operations and malformed requests with a code and the field", async () => {
    expect(await dispatch("blobs.drop", {})).toMatchObject({ ok: false, error: { code: "unknown_operation" } });
    expect(await dispatch("__proto__", {})).toMatchObject({ ok: false, error: { code: "unknown_operation" } });
    expect(await dispatch("blobs.get", { id: "ZZ" })).toMatchObject({ ok: false, error: { code: "bad_request", path: "id" } });
    expect(await dispatch("blobs.get", { id: "0123456789ab", extra: 1 })).toMatchObject({ ok: false, error: { code: "bad_request" } });
  });

  it("turns failures into data, never a stack trace", async () => {
    expect(await dispatch("blobs.get", { id: "000000000000" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await dispatch("blobs.get", { id: "111111111111" })).toMatchObject({ ok: false, error: { code: "cannot_decrypt" } });
    const r = await dispatch("blobs.get", { id: "222222222222" });
    expect(r).toMatchObject({ ok: false, error: { code: "internal" } });
    if (!r.ok) expect(r.error.message).not.toContain("stack line");
    expect(logger.entries.some((e) => e.level === "error")).toBe(true);
  });
});
