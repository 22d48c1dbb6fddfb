import { checkDisk, DISK_LOW_BYTES } from "./checks";

describe("doctor's disk check", () => {
  it("fails, saying what it costs, when the home's filesystem has less room than a result may need", () => {
    expect(checkDisk("/h", 5 * 1024 * 1024)).toEqual({
      ok: false,
      name: "disk",
      detail: expect.stringMatching(/^5\.0 MB free where \/h is: new results are passed to the agent without being stored or recorded;/),
    });
    expect(checkDisk("/h", DISK_LOW_BYTES)).toMatchObject({ ok: true, detail: "64.0 MB free" });
  });
});
