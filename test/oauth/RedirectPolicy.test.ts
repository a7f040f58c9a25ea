// The redirect policy (SECURITY.md 12 and 36): unit cases, a property over generated targets
// resolved as a browser resolves them, and the built-in routes refusing what it refuses.
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as fc from "effect/FastCheck";
import * as Option from "effect/Option";
import { StrataResponse } from "../../src/index.js";
import {
  normaliseOrigins,
  validateRedirect,
  withErrorCode,
} from "../../src/oauth/RedirectPolicy.js";
import { mockNetwork } from "./support/network.js";
import { mockLogin, tokenRequests } from "./support/providerNetwork.js";
import { callback, get, logs, oauthServer, start } from "./support/server.js";

const origins = normaliseOrigins(["https://app.example.com", "http://localhost:3000/"]);
const check = (value: unknown) => validateRedirect(value, origins);

describe("redirect policy (SECURITY 12)", () => {
  it("accepts relative paths and configured origins, normalised", () => {
    expect(check(undefined)).toEqual(Either.right(Option.none()));
    expect(check("/home")).toEqual(Either.right(Option.some("/home")));
    expect(check("/a/../b?x=1#y")).toEqual(Either.right(Option.some("/b?x=1#y")));
    expect(check("/")).toEqual(Either.right(Option.some("/")));
    expect(check("/login?next=%2F%2Fx")).toEqual(Either.right(Option.some("/login?next=%2F%2Fx")));
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

describe("redirect policy: the value sent is the value checked (SECURITY 36)", () => {
  it("check 36: targets that normalise to //host or hide one behind an encoding are refused", () => {
    for (const value of [
      "/.//evil.example",
      "/..//evil.example",
      "/%2e//evil.example",
      "/%2E//evil.example",
      "/a/..//evil.example",
      "/a/%2e%2e//evil.example",
      "/.%2e//evil.example",
      "/././/evil.example/x?y#z",
      "/%5Cevil.example",
      "/%5cevil.example",
      "/%2F%2Fevil.example",
      "/%2f/evil.example",
      "/a%2e%2e%2f%2fevil.example",
      "/%09/evil.example",
      "/%0a/evil.example",
      "/%00",
      "https://app.example.com/%2F%2Fevil.example",
    ]) {
      expect(check(value), JSON.stringify(value)).toEqual(Either.left("invalid"));
    }
  });

  it("check 36: what browsers strip or reinterpret, userinfo and other schemes stay refused", () => {
    for (const value of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "\t//evil.example",
      " //evil.example",
      "/\\/evil.example",
      "\\/evil.example",
      "%2F%2Fevil.example",
      "https://app.example.com@evil.example/",
      "https://user@app.example.com/",
      "https:evil.example",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "/\u0000",
      "/\u007f",
    ]) {
      expect(check(value), JSON.stringify(value)).toEqual(Either.left("invalid"));
    }
  });

  // What a browser does with a Location: resolve it against the page that sent it.
  const app = "https://app.example";
  const allowed = new Set([app, ...origins]);
  const landsOn = (target: string) => new URL(target, `${app}/auth/github/callback`).origin;

  const piece = fc.constantFrom(
    ..."/\\.%2eE5cCFf:@?#\t\n\r abx".split(""),
    "%2e",
    "%2E",
    "%2f",
    "%2F",
    "%5c",
    "%5C",
    "%09",
    "%00",
    ".",
    "..",
    "./",
    "../",
    "//",
    "/\\",
    "evil.example",
    "app.example.com",
    "localhost:3000",
    "user:pw@",
    "\u0000",
    "\u0085",
    "\u3000",
    "\uff0e",
    "\uff0f",
  );
  const prefix = fc.constantFrom(
    "",
    "/",
    "//",
    "/.",
    "/..",
    "/./",
    "/../",
    "/\\",
    "\\",
    "%2F",
    "http://",
    "https://",
    "https:",
    "https://app.example.com",
    "https://app.example.com/",
    "http://localhost:3000",
    "https://evil.example",
    "javascript:",
    "data:",
  );
  const targets = fc
    .tuple(prefix, fc.array(piece, { maxLength: 24 }))
    .map(([start, rest]) => start + rest.join(""));

  it("check 36: property: every accepted target keeps a browser on the app or a configured origin", () => {
    const accepted = { path: 0, absolute: 0 };
    fc.assert(
      fc.property(targets, (value) => {
        const result = check(value);
        if (Either.isLeft(result) || Option.isNone(result.right)) return;
        const target = result.right.value;
        accepted[target.startsWith("/") ? "path" : "absolute"]++;
        expect(allowed.has(landsOn(target)), `${JSON.stringify(value)} -> ${target}`).toBe(true);
        // What is sent is already normalised: checking it again gives it back unchanged.
        expect(check(target)).toEqual(Either.right(Option.some(target)));
        // Nothing a browser would strip or reinterpret, only printable ASCII.
        expect(target).toMatch(/^[\x21-\x7e]+$/);
        // An error redirect made from it lands on the same origin and is itself accepted.
        const onError = withErrorCode(target, "invalid_state");
        expect(landsOn(onError)).toBe(landsOn(target));
        expect(check(onError)).toEqual(Either.right(Option.some(onError)));
      }),
      { numRuns: 20_000 },
    );
    // The generator reaches both accepting branches, not only refusals.
    expect(accepted.path).toBeGreaterThan(500);
    expect(accepted.absolute).toBeGreaterThan(100);
  });
});

const net = mockNetwork();
const evil = (answer: { readonly location: string | undefined; readonly text: string }) => {
  expect(answer.location === undefined || !answer.location.startsWith("//")).toBe(true);
  expect(answer.location ?? "").not.toContain("evil");
  expect(answer.text).not.toContain("evil");
};

describe("redirect policy through the built-in routes (SECURITY 36)", () => {
  layer(oauthServer(), { excludeTestServices: true })("without a handler", (it) => {
    it.effect("check 36: a /.//evil.example successRedirect is refused, never followed", () =>
      Effect.gen(function* () {
        for (const attack of ["/.//evil.example", "/..//evil.example", "/%2e//evil.example"]) {
          for (const parameter of ["successRedirect", "errorRedirect"]) {
            const query = `?${parameter}=${encodeURIComponent(attack)}`;
            const started = yield* get(`/auth/github${query}`);
            expect(started.status, `${parameter}=${attack}`).toBe(400);
            expect(started.json).toEqual({
              statusCode: 400,
              message: "Invalid redirect",
              error: "invalid_redirect",
            });
            expect(started.location).toBeUndefined();
            expect(started.setCookie).toBeUndefined();
            evil(started);
            // On the callback (spec style): refused too, the transaction spent, no token asked.
            const flow = yield* start("github");
            mockLogin(net, "github");
            const back = yield* callback(
              "github",
              `${query}&code=c&state=${flow.state}`,
              flow.cookie,
            );
            expect(back.status).toBe(400);
            expect(back.json).toEqual({
              statusCode: 400,
              message: "Invalid redirect",
              error: "invalid_redirect",
            });
            expect(back.location).toBeUndefined();
            expect(back.setCookie).toContain("strata_oauth=; Max-Age=0");
            evil(back);
            expect(tokenRequests(net)).toEqual([]);
            net.reset();
          }
        }
        // A harmless target is sent in the normalised form that was checked.
        const flow = yield* start(
          "github",
          `?successRedirect=${encodeURIComponent("/a/./b/../c")}`,
        );
        mockLogin(net, "github");
        const answer = yield* callback("github", `?code=c&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(302);
        expect(answer.location).toBe("/a/c");
      }),
    );
  });

  layer(
    oauthServer({
      routes: {
        onSuccess: (session) =>
          Effect.sync(() => {
            const to = session.provider === "github" ? "/.//evil.example" : "/a/../app";
            if (session.provider === "google") {
              const response = new StrataResponse();
              response.setHeader("set-cookie", "session=s; HttpOnly; Path=/");
              response.redirect(to, 303);
              return response;
            }
            return HttpServerResponse.redirect(to, { status: 303 }).pipe(
              HttpServerResponse.unsafeSetCookie("session", "s", { httpOnly: true }),
            );
          }),
      },
    }),
    { excludeTestServices: true },
  )("with a handler that redirects", (it) => {
    it.effect("check 36: a handler's redirect is checked and sent as validated", () =>
      Effect.gen(function* () {
        logs.length = 0;
        const flow = yield* start("github");
        mockLogin(net, "github");
        const refused = yield* callback("github", `?code=c&state=${flow.state}`, flow.cookie);
        expect(refused.status).toBe(500);
        expect(refused.json).toEqual({ statusCode: 500, message: "Internal Server Error" });
        expect(refused.location).toBeUndefined();
        expect(refused.setCookie).not.toContain("session=s");
        expect(refused.setCookie).toContain("strata_oauth=; Max-Age=0");
        evil(refused);
        expect(logs.join("\n")).toContain("redirect policy refuses");
        expect(logs.join("\n")).not.toContain("evil");
        // With an errorRedirect the browser goes there instead, with the handler's error code.
        const withError = yield* start("github", "?errorRedirect=%2Flogin");
        mockLogin(net, "github");
        const redirected = yield* callback(
          "github",
          `?code=c&state=${withError.state}`,
          withError.cookie,
        );
        expect(redirected.status).toBe(302);
        expect(redirected.location).toBe("/login?error=callback_handler_failed");
        expect(redirected.setCookie).not.toContain("session=s");
        // An accepted one is sent normalised, for a platform response and a StrataResponse.
        for (const provider of ["twitter", "google"] as const) {
          const ok = yield* start(provider);
          mockLogin(net, provider);
          const answer = yield* callback(provider, `?code=c&state=${ok.state}`, ok.cookie);
          expect(answer.status, provider).toBe(303);
          expect(answer.location).toBe("/app");
          expect(answer.setCookie).toContain("session=s");
        }
      }),
    );
  });
});
