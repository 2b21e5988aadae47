import { describe, expect, it } from "vitest";
import { allowedHosts } from "./allowed-host.js";

describe("the names an MCP endpoint answers", () => {
  it("answers the loopback names on any port, with or without a public URL", () => {
    for (const check of [allowedHosts(undefined), allowedHosts("https://api.example.com")])
      for (const host of ["localhost:4021", "127.0.0.1:9", "[::1]:4021", "LOCALHOST"])
        expect(check(host, undefined), host).toBeUndefined();
  });

  it("answers the public URL's host when one is set, and no other name", () => {
    const check = allowedHosts("https://api.example.com");
    expect(check("api.example.com", "https://api.example.com")).toBeUndefined();
    expect(check("api.example.com:8443", undefined)).toBe("host");
    expect(check("evil.example", undefined)).toBe("host");
    expect(allowedHosts(undefined)("api.example.com", undefined)).toBe("host");
  });

  it("refuses a missing Host, and an Origin of another site or one that is not a URL", () => {
    const check = allowedHosts(undefined);
    expect(check(undefined, undefined)).toBe("host");
    expect(check("localhost:4021", "https://evil.example")).toBe("origin");
    expect(check("localhost:4021", "not a url")).toBe("origin");
    expect(check("localhost:4021", "http://localhost:3000")).toBeUndefined();
  });
});
