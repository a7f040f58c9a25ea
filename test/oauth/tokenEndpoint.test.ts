// Token requests against a token endpoint on a real loopback socket: the answer is read with
// the size cap, and a request that times out is aborted (the provider sees the connection
// closed), not left running as arctic's own requests were (arctic takes no abort signal).
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import { GoogleProvider, type ProviderSettings } from "../../src/oauth/index.js";
import { credentials, REFRESH_TOKEN, SECRET } from "./fixtures.js";
import { VERIFIER } from "./support/liveProvider.js";
import { endless, hang, type LoopbackIdp, startLoopbackIdp } from "./support/loopbackIdp.js";

let idp: LoopbackIdp;

beforeAll(async () => {
  idp = await startLoopbackIdp();
});
afterAll(() => idp.close());
beforeEach(() => {
  idp.seen.length = 0;
  idp.routes.clear();
});

const google = (settings: ProviderSettings) =>
  GoogleProvider.make(
    {
      ...credentials("google"),
      endpoints: {
        authorization: `${idp.origin}/authorize`,
        token: `${idp.origin}/token`,
        revocation: `${idp.origin}/revoke`,
        api: `${idp.origin}/api`,
      },
    },
    settings,
  ).pipe(Effect.provide(FetchHttpClient.layer));

/** Waits (up to 2 s) until the IdP has seen the client give up on `path`. */
const abortSeen = (path: string) =>
  Effect.promise(async () => {
    for (let i = 0; i < 40; i++) {
      if (idp.seen.some((s) => s.path === path && s.aborted)) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  });

describe("token endpoint over a real socket", () => {
  it.live("an endless token answer -> TokenResponseMalformed at the cap, not a timeout", () =>
    Effect.gen(function* () {
      idp.routes.set("POST /token", endless(`{"access_token":"${"x".repeat(16 * 1024)}`));
      const provider = yield* google({ timeout: "10 seconds", maxProfileBytes: 128 * 1024 });
      const started = Date.now();
      const error = yield* Effect.flip(
        provider.exchangeCode({ code: "c", codeVerifier: VERIFIER }),
      );
      expect(error).toEqual(
        expect.objectContaining({ _tag: "TokenResponseMalformed", status: 200 }),
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(yield* abortSeen("/token")).toBe(true);
    }),
  );

  it.live("a token endpoint that does not answer: 504 in time, and the request is aborted", () =>
    Effect.gen(function* () {
      idp.routes.set("POST /token", hang);
      idp.routes.set("POST /revoke", hang);
      const provider = yield* google({ timeout: "300 millis" });
      const error = yield* Effect.flip(
        provider.exchangeCode({ code: "c", codeVerifier: VERIFIER }),
      );
      expect(error).toEqual(
        expect.objectContaining({ _tag: "ProviderTimeout", operation: "token" }),
      );
      expect(yield* abortSeen("/token")).toBe(true);
      const refreshError = yield* Effect.flip(
        provider.refreshToken?.(Redacted.make(REFRESH_TOKEN)) ?? Effect.die("no refresh"),
      );
      expect(refreshError).toEqual(
        expect.objectContaining({ _tag: "ProviderTimeout", operation: "refresh" }),
      );
      const revokeError = yield* Effect.flip(
        provider.revokeToken?.(Redacted.make("t")) ?? Effect.die("no revocation"),
      );
      expect(revokeError).toEqual(
        expect.objectContaining({ _tag: "ProviderTimeout", operation: "revoke" }),
      );
      expect(yield* abortSeen("/revoke")).toBe(true);
    }),
  );

  it.live("refusals and broken answers keep arctic's reading, and carry no upstream body", () =>
    Effect.gen(function* () {
      const provider = yield* google({ timeout: "5 seconds" });
      const exchange = provider.exchangeCode({ code: "c", codeVerifier: VERIFIER });
      const answers: ReadonlyArray<readonly [number, string, Record<string, unknown>]> = [
        [
          400,
          `{"error":"invalid_grant","error_description":"${SECRET}"}`,
          { _tag: "CodeRejected", oauthError: "invalid_grant" },
        ],
        [401, `{"error":"made_up"}`, { _tag: "CodeRejected", oauthError: "other" }],
        [400, `<html>${SECRET}</html>`, { _tag: "TokenResponseMalformed", status: 400 }],
        [200, `not json ${SECRET}`, { _tag: "TokenResponseMalformed", status: 200 }],
        [200, `["a"]`, { _tag: "TokenResponseMalformed", status: 200 }],
        [201, `{}`, { _tag: "TokenResponseMalformed", status: 201 }],
        [503, `{"error":"temporarily_unavailable"}`, { _tag: "ProviderUnreachable", status: 503 }],
      ];
      for (const [status, body, expected] of answers) {
        idp.routes.set("POST /token", (res) => {
          res.writeHead(status, { "content-type": "application/json" }).end(body);
        });
        const error = yield* Effect.flip(exchange);
        expect(error).toEqual(expect.objectContaining(expected));
        expect(JSON.stringify(error)).not.toContain(SECRET);
      }
    }),
  );
});
