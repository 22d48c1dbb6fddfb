/** What every host test asserts on the model's side of a Spillway run of the policy. */
import { GREP_PATTERN, handleId, stubId, type Step } from "./policy";
import type { GroundTruth } from "./host";
import type { LoggedRequest } from "./server";

/** The request in which the model took `step`, i.e. the one that carried the previous step's result. */
export function requestAt(requests: LoggedRequest[], step: Step): LoggedRequest {
  const r = requests.find((q) => q.main && q.action.type !== "side" && q.action.step === step);
  if (!r)
    throw new Error(
      `no request where the model took step "${step}"; steps taken: ${requests.map((q) => (q.action.type === "side" ? "side" : q.action.step)).join(", ")}`,
    );
  return r;
}

const lastResult = (r: LoggedRequest) => r.results.at(-1)!;

/**
 * Handle, fetch, stub, recall and `spill:` delivery, each as the model received it. `recallExact`
 * is false where the host itself cuts long tool results (the recall then arrives cut by the host).
 */
export function expectPolicyOutcome(requests: LoggedRequest[], truth: GroundTruth, opts: { recallExact: boolean }): void {
  // 1. The big result reached the model as a handle, not as the log.
  const handleText = lastResult(requestAt(requests, "fetch")).text;
  const id = handleId(handleText);
  expect(id, handleText.slice(0, 500)).toMatch(/^[0-9a-f]{12}$/);
  expect(handleText.length).toBeLessThan(truth.log.length / 2);
  expect(handleText).toContain(`${truth.log.length.toLocaleString("en-US")} chars`);
  expect(handleText).toContain(`rescuer_fetch(id="${id}"`);
  expect(handleText).toContain(`spill:${id}`);

  // 2. The fetch answered with the matching line.
  expect(lastResult(requestAt(requests, "repeat")).text).toContain("L13: [host] ERROR step 13: test suite 13 failed with exit code 2");
  expect(lastResult(requestAt(requests, "repeat")).text).toContain(GREP_PATTERN);

  // 3. The repeated call came back as a one-line stub naming the same result.
  const stub = lastResult(requestAt(requests, "recall")).text;
  expect(stubId(stub)).toBe(id);
  expect(stub.length).toBeLessThan(500);

  // 4. recall_result gave the exact bytes back (or, where the host cuts results, the start of them).
  const recalled = lastResult(requestAt(requests, "deliver"));
  if (opts.recallExact) expect(recalled.parts).toContain(truth.log);
  else {
    expect(recalled.parts.some((p) => p === truth.log)).toBe(false);
    expect(recalled.text).toContain(truth.log.slice(0, 2000));
  }

  // 5. spill:<id> delivered the whole stored result to the other tool, byte for byte.
  const deliver = requestAt(requests, "deliver");
  expect(deliver.action).toMatchObject({ type: "call", args: { text: `spill:${id}` } });
  expect(lastResult(requestAt(requests, "final")).text).toContain(truth.digest);
}
