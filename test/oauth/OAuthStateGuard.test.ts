// OAuthStateGuard on a custom classic callback route, and requireOAuthState on an Effect route.
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Controller, Get, Module, Query, StrataApp, UseGuards } from "../../src/index.js";
import {
  clearFlowCookie,
  flowCookie,
  OAuthStateGuard,
  readFlowCookie,
  requireOAuthState,
} from "../../src/oauth/index.js";
import { request, serveTest } from "../../src/testing/index.js";

@Controller("custom")
class CustomCallback {
  @Get("callback")
  @UseGuards(OAuthStateGuard)
  callback(@Query("code") code: string) {
    return { reached: true, code };
  }
}

@Module({ controllers: [CustomCallback] })
class AppModule {}

const STATE = "s".repeat(43);
const VERIFIER = "v".repeat(43);
const cookie = flowCookie({ state: STATE, codeVerifier: VERIFIER }, false).split(";")[0];

describe("flow cookie", () => {
  it("is httpOnly, SameSite=Lax, 10 minutes; __Host- and Secure on https", () => {
    expect(flowCookie({ state: STATE }, false)).toBe(
      `oauth_flow=${STATE}; Max-Age=600; Path=/; HttpOnly; SameSite=Lax`,
    );
    expect(flowCookie({ state: STATE, codeVerifier: VERIFIER }, true)).toBe(
      `__Host-oauth_flow=${STATE}.${VERIFIER}; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax`,
    );
    expect(clearFlowCookie(false)).toBe("oauth_flow=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
    expect(() => flowCookie({ state: "a;b" }, false)).toThrow();
  });

  it("reads back what it wrote; odd values are nothing", () => {
    expect(readFlowCookie(`a=1; ${cookie}`)).toEqual({ state: STATE, codeVerifier: VERIFIER });
    expect(readFlowCookie(`oauth_flow=x; __Host-oauth_flow=${STATE}`)).toEqual({ state: STATE });
    const NONCE = "n".repeat(43);
    for (const flow of [
      { state: STATE, codeVerifier: VERIFIER, nonce: NONCE },
      { state: STATE, nonce: NONCE },
    ]) {
      expect(readFlowCookie(flowCookie(flow, false).split(";")[0])).toEqual(flow);
    }
    expect(() => flowCookie({ state: STATE, nonce: "a.b" }, false)).toThrow();
    for (const header of [
      undefined,
      "",
      "oauth_flow=",
      "oauth_flow=a.b.c.d",
      "oauth_flow=a.b.",
      "oauth_flow=a..",
      "oauth_flow=%3Cx%3E",
      "x=y",
    ]) {
      expect(readFlowCookie(header)).toBeUndefined();
    }
  });
});

describe("OAuthStateGuard (classic @UseGuards)", () => {
  const app = new StrataApp(AppModule);
  beforeAll(() => app.listen(0));
  afterAll(() => app.close());

  it("lets a matching state through", async () => {
    const answer = await request(app, "GET", `/custom/callback?code=c&state=${STATE}`, {
      headers: { cookie },
    });
    expect(answer).toMatchObject({ status: 200, body: { reached: true, code: "c" } });
  });

  it("refuses a missing cookie, a missing, empty, repeated or different state with 401", async () => {
    const attempts: Array<[string, Record<string, string>]> = [
      [`?code=c&state=${STATE}`, {}],
      ["?code=c", { cookie }],
      ["?code=c&state=", { cookie }],
      [`?code=c&state=${STATE}&state=${STATE}`, { cookie }],
      [`?code=c&state=${STATE.slice(1)}`, { cookie }],
    ];
    for (const [query, headers] of attempts) {
      const answer = await request(app, "GET", `/custom/callback${query}`, { headers });
      expect(answer.status, query).toBe(401);
      expect(answer.body).toEqual({ statusCode: 401, message: "Invalid state" });
    }
  });
});

describe("requireOAuthState (Effect route)", () => {
  const route = HttpLayerRouter.add(
    "GET",
    "/effect/callback",
    Effect.zipRight(requireOAuthState, Effect.succeed(HttpServerResponse.unsafeJson({ ok: true }))),
  );
  it("guards an Effect route the same way", async () => {
    const statuses = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(serveTest(route));
          const call = (query: string, headers: Record<string, string>) =>
            Effect.map(
              HttpClient.get(`/effect/callback${query}`, { headers }),
              (r) => r.status,
            ).pipe(Effect.provide(context));
          return [
            yield* call(`?state=${STATE}`, { cookie }),
            yield* call(`?state=${STATE}`, {}),
            yield* call("?state=nope", { cookie }),
          ];
        }),
      ),
    );
    expect(statuses).toEqual([200, 401, 401]);
  });
});
