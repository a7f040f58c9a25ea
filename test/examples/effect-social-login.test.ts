// examples/effect-social-login: the same app composed from Layers, served with serveTest.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import { expect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import { AppRoutes, AppServices, OAuthLive } from "../../examples/effect-social-login/app.js";
import { serveTest } from "../../src/testing/index.js";
import { credentials } from "../oauth/fixtures.js";
import { mockNetwork } from "../oauth/support/network.js";
import { mockLogin } from "../oauth/support/providerNetwork.js";
import { rawSetCookies } from "../oauth/support/server.js";

const net = mockNetwork();

// As main.ts composes it: the routes served, then the OAuth and app services provided.
const App = serveTest(AppRoutes).pipe(
  Layer.provide(
    Layer.merge(
      OAuthLive(
        { providers: { github: credentials("github"), twitter: credentials("twitter") } },
        Redacted.make("example-sealing-key-0123456789-abcdefghijkl"),
      ),
      AppServices(Redacted.make("app-token-secret")),
    ),
  ),
  Layer.provide(FetchHttpClient.layer),
);

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const response = yield* HttpClient.execute(
      HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)),
    ).pipe(Effect.provideService(FetchHttpClient.RequestInit, { redirect: "manual" }));
    const text = yield* response.text;
    return {
      status: response.status,
      location: response.headers.location,
      cookie: (rawSetCookies(response)[0] ?? "").split(";")[0],
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
    };
  }).pipe(Effect.orDie);

layer(App, { excludeTestServices: true })("examples/effect-social-login", (it) => {
  it.effect("a twitter login answers { token, user, isNewUser }; the token opens /me", () =>
    Effect.gen(function* () {
      const started = yield* get("/auth/twitter");
      expect(started.status).toBe(302);
      const state = new URL(started.location ?? "").searchParams.get("state");
      mockLogin(net, "twitter");
      const done = yield* get(`/auth/twitter/callback?code=c&state=${state}`, {
        cookie: started.cookie,
      });
      expect(done.status).toBe(200);
      const body = done.body as {
        token: string;
        user: { id: number; name: string };
        isNewUser: boolean;
      };
      expect(body.isNewUser).toBe(true);
      expect(body.user).toEqual({ id: 1, account: "twitter:2244994945", name: "Developers" });
      const me = yield* get("/me", { authorization: `Bearer ${body.token}` });
      expect(me).toMatchObject({ status: 200, body: body.user });
      const anonymous = yield* get("/me");
      expect(anonymous.status).toBe(401);
    }),
  );

  it.effect("prototype names and malformed cookies or tokens are 4xx, never 500", () =>
    Effect.gen(function* () {
      for (const name of ["constructor", "__proto__", "toString"]) {
        expect(yield* get(`/auth/${name}`)).toMatchObject({ status: 404, cookie: "" });
      }
      for (const cookie of ["strata_oauth=%", "strata_oauth=%E0%A4%A", "strata_oauth=__proto__"]) {
        const answer = yield* get("/auth/github/callback?code=c&state=s&error=constructor", {
          cookie,
        });
        expect(answer).toMatchObject({ status: 401, body: { error: "invalid_state" } });
        expect(answer.cookie).toBe("strata_oauth=");
      }
      for (const token of ["%", "a.b.c", "__proto__", "1.99999999999.x"]) {
        const me = yield* get("/me", { authorization: `Bearer ${token}` });
        expect(me.status).toBe(401);
      }
    }),
  );

  it.effect("an unconfigured provider is 404; a forged state 401", () =>
    Effect.gen(function* () {
      expect((yield* get("/auth/google")).status).toBe(404);
      const forged = yield* get("/auth/github/callback?code=c&state=x");
      expect(forged).toMatchObject({ status: 401, body: { error: "invalid_state" } });
    }),
  );
});
