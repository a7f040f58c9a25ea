import { describe, expect, it } from "@effect/vitest";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import { normaliseOrigins, validateRedirect, withErrorCode } from "../../src/oauth/index.js";

const origins = normaliseOrigins(["https://app.example.com", "http://localhost:3000/"]);
const check = (value: unknown) => validateRedirect(value, origins);

describe("redirect policy (SECURITY 12)", () => {
  it("accepts relative paths and configured origins, normalised", () => {
    expect(check(undefined)).toEqual(Either.right(Option.none()));
    expect(check("/home")).toEqual(Either.right(Option.some("/home")));
    expect(check("/a/../b?x=1#y")).toEqual(Either.right(Option.some("/b?x=1#y")));
    expect(check("https://app.example.com/welcome")).toEqual(
      Either.right(Option.some("https://app.example.com/welcome")),
    );
    expect(check("http://localhost:3000/x")).toEqual(
      Either.right(Option.some("http://localhost:3000/x")),
    );
  });

  it("refuses everything else", () => {
    for (const value of [
      "",
      "//evil.example",
      "/\\evil.example",
      "/a\\b",
      "https://evil.example",
      "https://app.example.com:8443/",
      "http://app.example.com/",
      "https://user:pw@app.example.com/",
      "javascript:alert(1)",
      "data:text/html,x",
      "vbscript:x",
      "/a\nb",
      "/a\rb",
      "/a\u0085b",
      "relative/path",
      ["/a", "/b"],
      42,
      `/${"a".repeat(3000)}`,
    ]) {
      expect(Either.isLeft(check(value)), JSON.stringify(value)).toBe(true);
    }
  });

  it("adds the error code to error redirects, keeping relative ones relative", () => {
    expect(withErrorCode("/login", "invalid_state")).toBe("/login?error=invalid_state");
    expect(withErrorCode("/login?next=%2Fx#top", "x")).toBe("/login?next=%2Fx&error=x#top");
    expect(withErrorCode("https://app.example.com/l", "x")).toBe(
      "https://app.example.com/l?error=x",
    );
  });

  it("refuses non-http origins in the configuration", () => {
    expect(() => normaliseOrigins(["javascript:alert(1)"])).toThrow();
  });
});
