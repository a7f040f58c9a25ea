// SECURITY.md checks 1-18 through the real built-in routes: real HTTP on loopback, the live
// (arctic) providers behind them, their network intercepted at the boundary (undici
// MockAgent), every response and log line kept for the secret scan of check 17.
import * as http from "node:http";
import * as HttpServer from "@effect/platform/HttpServer";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import { OAuthProviders, SecureRandom } from "../../src/oauth/index.js";
import {
  ACCESS_TOKEN,
  credentials,
  fullTokens,
  REDIRECT,
  REFRESH_TOKEN,
  SECRET,
  s256,
} from "./fixtures.js";
import { form, mockNetwork } from "./support/network.js";
import { mockLogin, mockProfile, tokenEndpoint, tokenRequests } from "./support/providerNetwork.js";
import {
  answers,
  callback,
  cookieOf,
  get,
  logs,
  oauthServer,
  seal,
  start,
  testConfig,
  unseal,
} from "./support/server.js";

const net = mockNetwork();

const INVALID_STATE = { statusCode: 401, message: "Invalid state", error: "invalid_state" };
const cleared = (answer: { readonly setCookie: string | undefined }) =>
  expect(answer.setCookie).toMatch(
    /(^|\n)strata_oauth=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax/,
  );

/** What must never show: secrets, codes, verifiers, nonces, tokens, upstream bodies, stacks. */
const secrets = new Set<string>([SECRET, ACCESS_TOKEN, REFRESH_TOKEN]);
const UPSTREAM = "UPSTREAM-BODY-MARKER";

describe("SECURITY.md OAuth checks, through the built-in routes", () => {
  layer(oauthServer(), { excludeTestServices: true })("sealed-cookie store (default)", (it) => {
    it.effect(
      "SECURITY 1: state from a CSPRNG, 256 bits, fresh on every authorization request",
      () =>
        Effect.gen(function* () {
          const states = new Set<string>();
          for (let i = 0; i < 20; i++) {
            const flow = yield* start("github");
            expect(flow.state).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
            states.add(flow.state);
          }
          expect(states.size).toBe(20);
          // The default SecureRandom is node's CSPRNG (crypto.randomBytes).
          const random = yield* SecureRandom;
          const [a, b] = yield* Effect.all([random.bytes(16), random.bytes(16)]);
          expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
        }),
    );

    it.effect(
      "SECURITY 2: a valid callback URL without the transaction cookie is refused, no token request",
      () =>
        Effect.gen(function* () {
          const flow = yield* start("google");
          mockLogin(net, "google");
          const answer = yield* callback("google", `?code=code-2&state=${flow.state}`);
          expect(answer.status).toBe(401);
          expect(answer.json).toEqual(INVALID_STATE);
          expect(tokenRequests(net)).toEqual([]);
        }),
    );

    it.effect(
      "SECURITY 3: single use: a replay after success is refused, without a token request",
      () =>
        Effect.gen(function* () {
          const flow = yield* start("github");
          mockLogin(net, "github");
          const query = `?code=code-3&state=${flow.state}`;
          const first = yield* callback("github", query, flow.cookie);
          expect(first.status).toBe(200);
          cleared(first);
          const replay = yield* callback("github", query, flow.cookie);
          expect(replay.status).toBe(401);
          expect(replay.json).toEqual(INVALID_STATE);
          expect(tokenRequests(net)).toHaveLength(1);
        }),
    );

    it.effect("SECURITY 3: a failed callback consumes the transaction too", () =>
      Effect.gen(function* () {
        const flow = yield* start("github");
        const failed = yield* callback("github", "?code=code-3b&state=wrong", flow.cookie);
        expect(failed.status).toBe(401);
        mockLogin(net, "github");
        const retry = yield* callback("github", `?code=code-3b&state=${flow.state}`, flow.cookie);
        expect(retry.status).toBe(401);
        expect(tokenRequests(net)).toEqual([]);
      }),
    );

    it.effect("SECURITY 4: the transaction expires after 10 minutes", () =>
      Effect.gen(function* () {
        const before = Date.now();
        const flow = yield* start("github");
        const tx = Option.getOrThrow(yield* unseal(flow.cookie));
        expect(tx.expiry).toBeGreaterThanOrEqual(before + 600_000);
        expect(tx.expiry).toBeLessThanOrEqual(Date.now() + 600_000);
        expect(flow.answer.setCookie).toContain("Max-Age=600");
        // The same transaction, sealed with the server's key, but 10 minutes old.
        const expired = yield* seal({ ...tx, expiry: Date.now() - 1 });
        mockLogin(net, "github");
        const answer = yield* callback(
          "github",
          `?code=code-4&state=${tx.state}`,
          `strata_oauth=${expired}`,
        );
        expect(answer.status).toBe(401);
        expect(answer.json).toEqual(INVALID_STATE);
        expect(tokenRequests(net)).toEqual([]);
      }),
    );

    it.effect("SECURITY 5: missing, empty, duplicated or different state is refused", () =>
      Effect.gen(function* () {
        mockLogin(net, "github");
        const queries = (state: string) => [
          "?code=c5",
          "?code=c5&state=",
          `?code=c5&state=${state}&state=${state}`,
          `?code=c5&state=${state}x`,
          `?code=c5&state=${state.slice(0, -1)}`,
          `?code=c5&state=${state.toUpperCase()}`,
        ];
        for (let i = 0; i < queries("x").length; i++) {
          const flow = yield* start("github");
          const answer = yield* callback("github", queries(flow.state)[i], flow.cookie);
          expect(answer.status, queries(flow.state)[i]).toBe(401);
          expect(answer.json).toEqual(INVALID_STATE);
        }
        expect(tokenRequests(net)).toEqual([]);
      }),
    );

    it.effect("SECURITY 6: a state minted for google is refused at /auth/github/callback", () =>
      Effect.gen(function* () {
        const flow = yield* start("google");
        mockLogin(net, "github");
        const answer = yield* callback("github", `?code=c6&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(401);
        expect(answer.json).toEqual(INVALID_STATE);
        expect(tokenRequests(net)).toEqual([]);
      }),
    );

    it.effect("SECURITY 7: an iss must equal the provider's issuer", () =>
      Effect.gen(function* () {
        const good = yield* start("google");
        mockLogin(net, "google");
        const ok = yield* callback(
          "google",
          `?code=c7&state=${good.state}&iss=${encodeURIComponent("https://accounts.google.com")}`,
          good.cookie,
        );
        expect(ok.status).toBe(200);
        const bad = yield* start("google");
        const mixUp = yield* callback(
          "google",
          `?code=c7&state=${bad.state}&iss=${encodeURIComponent("https://login.microsoftonline.com/common/v2.0")}`,
          bad.cookie,
        );
        expect(mixUp.status).toBe(401);
        expect(mixUp.json).toEqual(INVALID_STATE);
        const github = yield* start("github");
        const noIssuer = yield* callback(
          "github",
          `?code=c7&state=${github.state}&iss=${encodeURIComponent("https://github.com")}`,
          github.cookie,
        );
        expect(noIssuer.status).toBe(401);
        expect(tokenRequests(net)).toHaveLength(1);
      }),
    );

    it.effect(
      "SECURITY 8: S256 PKCE with a fresh 32-byte verifier for google, microsoft, twitter",
      () =>
        Effect.gen(function* () {
          for (const provider of ["google", "microsoft", "twitter"] as const) {
            const verifiers: Array<string> = [];
            for (let i = 0; i < 2; i++) {
              const flow = yield* start(provider);
              expect(flow.url.searchParams.get("code_challenge_method")).toBe("S256");
              mockLogin(net, provider);
              const answer = yield* callback(provider, `?code=c8&state=${flow.state}`, flow.cookie);
              expect(answer.status).toBe(200);
              const verifier = form(tokenRequests(net).at(-1) ?? net.seen[0]).code_verifier;
              expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
              expect(flow.url.searchParams.get("code_challenge")).toBe(s256(verifier));
              verifiers.push(verifier);
            }
            expect(verifiers[0]).not.toBe(verifiers[1]);
          }
          for (const provider of ["github", "facebook"] as const) {
            const flow = yield* start(provider);
            expect(flow.url.searchParams.has("code_challenge")).toBe(false);
          }
        }),
    );

    it.effect(
      "SECURITY 9: verifier, nonce and tokens never in a URL, a Location or a log line",
      () =>
        Effect.gen(function* () {
          logs.length = 0;
          const flow = yield* start("google", "?successRedirect=%2Fhome");
          const tx = Option.getOrThrow(yield* unseal(flow.cookie));
          const verifier = tx.codeVerifier ?? "missing";
          const nonce = tx.nonce ?? "missing";
          // The URL carries the challenge and the nonce's hash, never the values themselves.
          expect(flow.url.searchParams.get("nonce")).not.toBe(nonce);
          mockLogin(net, "google");
          const done = yield* callback("google", `?code=c9&state=${flow.state}`, flow.cookie);
          expect(done.location).toBe("/home");
          const failing = yield* start("google", "?errorRedirect=%2Flogin");
          net.on("POST", tokenEndpoint.google, { status: 500, text: "down" });
          const failed = yield* callback(
            "google",
            `?code=c9&state=${failing.state}`,
            failing.cookie,
          );
          expect(failed.location).toBe("/login?error=provider_unreachable");
          const urls = [
            flow.answer.location,
            done.location,
            failed.location,
            failing.answer.location,
          ];
          for (const text of [...urls, ...logs]) {
            for (const value of [verifier, nonce, ACCESS_TOKEN, REFRESH_TOKEN]) {
              expect(String(text)).not.toContain(value);
            }
          }
        }),
    );

    it.effect(
      "SECURITY 10: redirect_uri in the token request is the configured one, whatever the Host",
      () =>
        Effect.gen(function* () {
          const flow = yield* start("github");
          expect(flow.url.searchParams.get("redirect_uri")).toBe(REDIRECT("github"));
          mockLogin(net, "github");
          // Proxy headers an attacker controls (fetch cannot set Host; see below for that).
          const answer = yield* get(`/auth/github/callback?code=c10&state=${flow.state}`, {
            cookie: flow.cookie,
            "x-forwarded-host": "evil.example",
            "x-forwarded-proto": "https",
            forwarded: "host=evil.example;proto=https",
          });
          expect(answer.status).toBe(200);
          expect(form(tokenRequests(net)[0]).redirect_uri).toBe(REDIRECT("github"));
          // A raw request with a forged Host header (node:http lets us set it).
          const second = yield* start("github");
          mockLogin(net, "github");
          const address = (yield* HttpServer.HttpServer).address;
          if (address._tag !== "TcpAddress") throw new Error("expected a TCP server");
          const status = yield* Effect.promise(
            () =>
              new Promise<number | undefined>((resolve, reject) => {
                http
                  .get(
                    {
                      host: "127.0.0.1",
                      port: address.port,
                      path: `/auth/github/callback?code=c10&state=${second.state}`,
                      headers: { host: "evil.example", cookie: second.cookie },
                    },
                    (response) => {
                      response.resume();
                      resolve(response.statusCode);
                    },
                  )
                  .on("error", reject);
              }),
          );
          expect(status).toBe(200);
          expect(form(tokenRequests(net)[1]).redirect_uri).toBe(REDIRECT("github"));
        }),
    );

    it.effect(
      "SECURITY 11: callback responses carry no-store and no-referrer, whatever the outcome",
      () =>
        Effect.gen(function* () {
          const outcomes = [];
          const ok = yield* start("github");
          mockLogin(net, "github");
          outcomes.push(yield* callback("github", `?code=c11&state=${ok.state}`, ok.cookie));
          outcomes.push(yield* callback("github", "?code=c11&state=x"));
          const redirect = yield* start("github", "?successRedirect=%2Fhome");
          mockLogin(net, "github");
          outcomes.push(
            yield* callback("github", `?code=c&state=${redirect.state}`, redirect.cookie),
          );
          const upstream = yield* start("github");
          net.on("POST", tokenEndpoint.github, { status: 502, text: "bad gateway" });
          outcomes.push(
            yield* callback("github", `?code=c&state=${upstream.state}`, upstream.cookie),
          );
          outcomes.push(yield* callback("nope", "?code=c&state=x"));
          outcomes.push(ok.answer);
          expect(outcomes.map((o) => o.status)).toEqual([200, 401, 302, 502, 404, 302]);
          for (const answer of outcomes) {
            expect(answer.headers["cache-control"]).toBe("no-store");
            expect(answer.headers["referrer-policy"]).toBe("no-referrer");
          }
        }),
    );

    it.effect("SECURITY 12: open redirects are refused (400, no cookie) and never echoed", () =>
      Effect.gen(function* () {
        const attacks = [
          "//evil.example/x",
          "/\\evil.example",
          "\\\\evil.example",
          "https://evil.example/",
          "http://app.example.com/",
          "https://app.example.com.evil.example/",
          "https://user@app.example.com/",
          "https://app.example.com@evil.example/",
          "javascript:alert(document.domain)",
          "JavaScript:alert(1)",
          "data:text/html,<script>alert(1)</script>",
          "/ok\r\nSet-Cookie: evil=1",
          "/ok\tevil",
          "/ok\u0000evil",
          "evil.example",
          "",
        ];
        for (const attack of attacks) {
          for (const parameter of ["successRedirect", "errorRedirect"]) {
            const query = `?${parameter}=${encodeURIComponent(attack)}`;
            const started = yield* get(`/auth/github${query}`);
            expect(started.status, `${parameter}=${JSON.stringify(attack)}`).toBe(400);
            expect(started.json).toEqual({
              statusCode: 400,
              message: "Invalid redirect",
              error: "invalid_redirect",
            });
            expect(started.setCookie).toBeUndefined();
            expect(started.location).toBeUndefined();
            const flow = yield* start("github");
            const back = yield* callback(
              "github",
              `${query}&code=c&state=${flow.state}`,
              flow.cookie,
            );
            expect(back.status).toBe(400);
            expect(back.location).toBeUndefined();
            cleared(back);
            for (const answer of [started, back]) {
              expect(answer.text).not.toContain("evil");
              expect(answer.text).not.toContain("alert");
            }
          }
        }
        // A repeated parameter is refused too.
        const twice = yield* get("/auth/github?successRedirect=%2Fa&successRedirect=%2Fb");
        expect(twice.status).toBe(400);
        // Relative paths and configured origins are accepted.
        const allowed = yield* start(
          "github",
          `?successRedirect=${encodeURIComponent("https://app.example.com/welcome")}&errorRedirect=%2Flogin%3Fretry%3D1`,
        );
        const tx = Option.getOrThrow(yield* unseal(allowed.cookie));
        expect(tx.redirects).toEqual({
          success: "https://app.example.com/welcome",
          error: "/login?retry=1",
        });
        expect(tokenRequests(net)).toEqual([]);
      }),
    );

    it.effect(
      "SECURITY 13: cookie HttpOnly; SameSite=Lax; Path=/; Max-Age=600 on http (no Secure)",
      () =>
        Effect.gen(function* () {
          const flow = yield* start("github");
          expect(flow.answer.setCookies).toHaveLength(1);
          const line = flow.answer.setCookies[0];
          expect(line).toMatch(/^strata_oauth=v1\.[A-Za-z0-9_-]+; /);
          const attributes = line.split("; ").slice(1).sort();
          expect(attributes).toEqual(["HttpOnly", "Max-Age=600", "Path=/", "SameSite=Lax"]);
        }),
    );

    it.effect(
      "SECURITY 14: tampered, truncated or foreign-key cookies give 401 Invalid state, never 500",
      () =>
        Effect.gen(function* () {
          const flow = yield* start("github");
          const value = flow.cookie.slice("strata_oauth=".length);
          const tx = Option.getOrThrow(yield* unseal(flow.cookie));
          const flip = (s: string, i: number) =>
            `${s.slice(0, i)}${s[i] === "A" ? "B" : "A"}${s.slice(i + 1)}`;
          const foreign = yield* seal(tx, "another-sealing-key-0123456789-abcdefghijkl");
          const forged = [
            flip(value, 5),
            flip(value, Math.floor(value.length / 2)),
            flip(value, value.length - 2),
            value.slice(0, -1),
            value.slice(0, 30),
            value.slice(0, 3),
            "v1.",
            `v2.${value.slice(3)}`,
            foreign,
            Buffer.from(JSON.stringify(tx)).toString("base64url"),
            JSON.stringify(tx),
            "%00%ff",
          ];
          mockLogin(net, "github");
          for (const cookie of forged) {
            const answer = yield* callback(
              "github",
              `?code=c14&state=${tx.state}`,
              `strata_oauth=${cookie}`,
            );
            expect(answer.status, cookie).toBe(401);
            expect(answer.json).toEqual(INVALID_STATE);
            cleared(answer);
          }
          expect(tokenRequests(net)).toEqual([]);
          // The untouched cookie still works (nothing above consumed it) and is cleared too.
          const ok = yield* callback("github", `?code=c14&state=${tx.state}`, flow.cookie);
          expect(ok.status).toBe(200);
          cleared(ok);
        }),
    );

    it.effect("SECURITY 14: the cookie is cleared on every callback outcome", () =>
      Effect.gen(function* () {
        const outcomes = [];
        const run = (setup: () => void, query = "") =>
          Effect.gen(function* () {
            const flow = yield* start("github", query);
            setup();
            outcomes.push(yield* callback("github", `?code=c&state=${flow.state}`, flow.cookie));
          });
        yield* run(() => mockLogin(net, "github"));
        yield* run(() => mockLogin(net, "github"), "?successRedirect=%2Fhome");
        yield* run(() =>
          net.on("POST", tokenEndpoint.github, { json: { error: "bad_verification_code" } }),
        );
        yield* run(() => net.on("POST", tokenEndpoint.github, { status: 500, text: "x" }));
        yield* run(() => net.on("POST", tokenEndpoint.github, { status: 200, text: "x" }));
        yield* run(() =>
          net.on("POST", tokenEndpoint.github, { json: fullTokens(), delayMs: 3_000 }),
        );
        yield* run(() => {
          net.on("POST", tokenEndpoint.github, { json: fullTokens() });
          mockProfile(net, "github", { status: 500, text: "x" });
        }, "?errorRedirect=%2Flogin");
        outcomes.push(yield* callback("github", "?error=access_denied&state=x"));
        expect(outcomes.map((o) => o.status)).toEqual([200, 302, 401, 502, 502, 504, 302, 401]);
        for (const answer of outcomes) cleared(answer);
      }),
    );

    it.effect(
      "SECURITY 15: error= is looked at only after the state check; no raw description",
      () =>
        Effect.gen(function* () {
          const description = "DESCRIPTION-<script>alert(1)</script>";
          const query = (state: string) =>
            `?error=access_denied&error_description=${encodeURIComponent(description)}&state=${state}`;
          const forged = yield* callback("github", query("attacker-state"));
          expect(forged.status).toBe(401);
          expect(forged.json).toEqual(INVALID_STATE);
          const flow = yield* start("github");
          const denied = yield* callback("github", query(flow.state), flow.cookie);
          expect(denied.status).toBe(401);
          expect(denied.json).toEqual({
            statusCode: 401,
            message: "The provider refused the authorization (access_denied)",
            error: "provider_error",
          });
          const odd = yield* start("github");
          const weird = yield* callback(
            "github",
            `?error=${encodeURIComponent("<b>custom</b>")}&state=${odd.state}`,
            odd.cookie,
          );
          expect(weird.json).toEqual({
            statusCode: 401,
            message: "The provider refused the authorization",
            error: "provider_error",
          });
          for (const answer of [forged, denied, weird]) {
            expect(answer.text).not.toContain("DESCRIPTION");
            expect(answer.text).not.toContain("<");
          }
          expect(logs.join("\n")).not.toContain("DESCRIPTION");
          expect(tokenRequests(net)).toEqual([]);
        }),
    );

    it.effect("SECURITY 16: unknown and prototype names are 404 and set no cookie", () =>
      Effect.gen(function* () {
        const names = [
          "unknown",
          "__proto__",
          "constructor",
          "toString",
          "hasOwnProperty",
          "valueOf",
          "prototype",
          "GitHub",
        ];
        for (const name of names) {
          for (const path of [`/auth/${name}`, `/auth/${name}/callback?code=c&state=s`]) {
            const answer = yield* get(path, { cookie: "strata_oauth=whatever" });
            expect(answer.status, path).toBe(404);
            expect(answer.json).toEqual({
              statusCode: 404,
              message: "Unknown OAuth provider",
              error: "unknown_provider",
            });
            expect(answer.setCookie).toBeUndefined();
          }
        }
        expect(tokenRequests(net)).toEqual([]);
      }),
    );

    it.effect("SECURITY 18: a hanging token endpoint gives 504 within the timeout (400 ms)", () =>
      Effect.gen(function* () {
        const flow = yield* start("google");
        net.on("POST", tokenEndpoint.google, { json: fullTokens(), delayMs: 5_000 });
        const started = Date.now();
        const answer = yield* callback("google", `?code=c18&state=${flow.state}`, flow.cookie);
        const elapsed = Date.now() - started;
        expect(answer.status).toBe(504);
        expect(answer.json).toEqual({
          statusCode: 504,
          message: "The provider did not answer in time",
          error: "provider_timeout",
        });
        expect(elapsed).toBeGreaterThanOrEqual(350);
        expect(elapsed).toBeLessThan(1_500);
      }),
    );

    it.effect("SECURITY 18: a hanging profile endpoint gives 504 within the timeout", () =>
      Effect.gen(function* () {
        const flow = yield* start("twitter");
        net.on("POST", tokenEndpoint.twitter, { json: fullTokens() });
        mockProfile(net, "twitter", { json: {}, delayMs: 5_000 });
        const started = Date.now();
        const answer = yield* callback("twitter", `?code=c&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(504);
        expect(Date.now() - started).toBeLessThan(1_500);
      }),
    );

    it.effect("SECURITY 18: unreachable, 5xx, malformed, oversized -> 502; bad code -> 401", () =>
      Effect.gen(function* () {
        const cases: Array<[() => void, number, string]> = [
          [
            () => net.on("POST", tokenEndpoint.github, { networkError: true }),
            502,
            "provider_unreachable",
          ],
          [
            () => net.on("POST", tokenEndpoint.github, { status: 500, text: UPSTREAM }),
            502,
            "provider_unreachable",
          ],
          [
            () => net.on("POST", tokenEndpoint.github, { status: 503, json: { error: UPSTREAM } }),
            502,
            "provider_unreachable",
          ],
          [
            () =>
              net.on("POST", tokenEndpoint.github, {
                status: 200,
                text: `<html>${UPSTREAM}</html>`,
              }),
            502,
            "token_response_malformed",
          ],
          [
            () =>
              net.on("POST", tokenEndpoint.github, { status: 200, json: { token_type: UPSTREAM } }),
            502,
            "token_response_malformed",
          ],
          [
            () =>
              net.on("POST", tokenEndpoint.github, {
                status: 200,
                json: { error: "bad_verification_code", error_description: UPSTREAM },
              }),
            401,
            "code_rejected",
          ],
          [
            () => {
              net.on("POST", tokenEndpoint.github, { json: fullTokens() });
              mockProfile(net, "github", { status: 500, text: UPSTREAM });
            },
            502,
            "provider_unreachable",
          ],
          [
            () => {
              net.on("POST", tokenEndpoint.github, { json: fullTokens() });
              mockProfile(net, "github", { status: 200, text: `not json ${UPSTREAM}` });
            },
            502,
            "profile_fetch_failed",
          ],
          [
            () => {
              net.on("POST", tokenEndpoint.github, { json: fullTokens() });
              mockProfile(net, "github", {
                json: { id: 1, login: "x", bio: "y".repeat(1_100_000) },
              });
            },
            502,
            "profile_fetch_failed",
          ],
        ];
        for (const [setup, status, code] of cases) {
          const flow = yield* start("github");
          setup();
          const answer = yield* callback("github", `?code=c&state=${flow.state}`, flow.cookie);
          expect(answer.status, code).toBe(status);
          expect((answer.json as { error: string }).error).toBe(code);
          expect(answer.text).not.toContain(UPSTREAM);
        }
      }),
    );

    it.effect(
      "SECURITY 17: no secret, code, verifier, token, upstream body or stack in any response or log",
      () =>
        Effect.gen(function* () {
          // Runs after the tests above: every response and log line of this file is scanned.
          const codes = new Set<string>();
          for (const seen of net.seen) {
            const fields = form(seen);
            if (fields.code) codes.add(fields.code);
            if (fields.code_verifier) secrets.add(fields.code_verifier);
          }
          // A last full login, so there are tokens in flight.
          const flow = yield* start("microsoft");
          mockLogin(net, "microsoft");
          const tx = Option.getOrThrow(yield* unseal(flow.cookie));
          yield* callback(
            "microsoft",
            `?code=secret-code-17&state=${flow.state}&successRedirect=%2Fok`,
            flow.cookie,
          );
          codes.add("secret-code-17");
          secrets.add(tx.codeVerifier ?? "");
          secrets.add(tx.nonce ?? "");
          const forbidden = [
            ...secrets,
            ...[...codes].filter((c) => c.length > 4),
            UPSTREAM,
            "DESCRIPTION",
          ];
          expect(answers.length).toBeGreaterThan(50);
          expect(logs.length).toBeGreaterThan(10);
          const bodies = answers.filter((a) => a.status >= 300).map((a) => a.text);
          const locations = answers.map((a) => a.location ?? "");
          for (const text of [...bodies, ...locations, ...logs]) {
            for (const value of forbidden) expect(text).not.toContain(value);
            expect(text).not.toMatch(/\n\s+at /); // no stack trace
          }
        }),
    );
  });

  layer(oauthServer({ store: "memory" }), { excludeTestServices: true })(
    "server-side store",
    (it) => {
      it.effect("SECURITY 3: single use with the in-memory store", () =>
        Effect.gen(function* () {
          const flow = yield* start("github");
          expect(flow.cookie).toMatch(/^strata_oauth=[A-Za-z0-9_-]{43}$/);
          mockLogin(net, "github");
          const query = `?code=c&state=${flow.state}`;
          expect((yield* callback("github", query, flow.cookie)).status).toBe(200);
          expect((yield* callback("github", query, flow.cookie)).status).toBe(401);
          const tampered = yield* callback("github", query, `${flow.cookie}x`);
          expect(tampered.status).toBe(401);
          expect(tokenRequests(net)).toHaveLength(1);
        }),
      );
    },
  );

  const https = (provider: "google" | "github") => ({
    ...credentials(provider),
    redirectUri: `https://app.example.com/auth/${provider}/callback`,
  });
  layer(
    oauthServer({
      config: testConfig({ providers: { github: https("github"), google: https("google") } }),
    }),
    { excludeTestServices: true },
  )("https redirect URIs", (it) => {
    it.effect(
      "SECURITY 13: on https, Secure and the __Host- prefix; a plain-named cookie is ignored",
      () =>
        Effect.gen(function* () {
          const answer = yield* get("/auth/github");
          const line = answer.setCookies[0];
          expect(line).toMatch(/^__Host-strata_oauth=v1\./);
          const attributes = line.split("; ").slice(1).sort();
          expect(attributes).toEqual([
            "HttpOnly",
            "Max-Age=600",
            "Path=/",
            "SameSite=Lax",
            "Secure",
          ]);
          expect(line).not.toContain("Domain");
          const value = cookieOf(answer).slice("__Host-strata_oauth=".length);
          const state = new URL(answer.location ?? "").searchParams.get("state");
          mockLogin(net, "github");
          // A cookie tossed under the plain name (e.g. by a sibling subdomain) is not read.
          const tossed = yield* callback(
            "github",
            `?code=c&state=${state}`,
            `strata_oauth=${value}`,
          );
          expect(tossed.status).toBe(401);
          const cleared = tossed.setCookies.join("\n");
          expect(cleared).toMatch(
            /^__Host-strata_oauth=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Lax/,
          );
          const ok = yield* callback(
            "github",
            `?code=c&state=${state}`,
            `__Host-strata_oauth=${value}`,
          );
          expect(ok.status).toBe(200);
        }),
    );
  });

  // The registry never serves a name through an object property read.
  it("SECURITY 16: the provider registry has no prototype names", () => {
    const registry = OAuthProviders.make([]);
    for (const name of ["__proto__", "constructor", "toString"]) {
      expect(Option.isNone(registry.get(name))).toBe(true);
    }
  });
});
