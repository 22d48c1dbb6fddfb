// The early initialize answer negotiates versions from its own list (the SDK does not load before
// it answers); this holds that list to the SDK's, so an SDK upgrade cannot make the two disagree.
import { LATEST_PROTOCOL_VERSION as SDK_LATEST, SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED } from "@modelcontextprotocol/sdk/types.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, initializeResult } from "./serverIdentity";

describe("the protocol versions Spillway answers initialize with", () => {
  it("are the SDK's, in the SDK's order", () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_SUPPORTED);
    expect(LATEST_PROTOCOL_VERSION).toBe(SDK_LATEST);
  });

  it("offer the requested version when supported, else the latest", () => {
    expect(initializeResult("2024-11-05").protocolVersion).toBe("2024-11-05");
    expect(initializeResult("2030-01-01").protocolVersion).toBe(SDK_LATEST);
    expect(initializeResult(undefined).protocolVersion).toBe(SDK_LATEST);
  });
});
