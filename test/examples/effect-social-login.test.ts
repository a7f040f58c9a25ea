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
      AppServices(Redacted.make("example-session-secret-0123456789-abcdefgh")),
    ),
  ),
  Layer.provide(FetchHttpClient.layer),
);

const send = (request: HttpClientRequest.HttpClientRequest, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const response = yield* HttpClient.execute(
      request.pipe(HttpClientRequest.setHeaders(headers)),
    ).pipe(Effect.provideService(FetchHttpClient.RequestInit, { redirect: "manual" }));
    const text = yield* response.text;
    const cookies = rawSetCookies(response).map((header) => header.split(";")[0] ?? "");
    return {
      status: response.status,
      location: response.headers.location,
      cookie: cookies[0] ?? "",
      session: cookies.find((cookie) => cookie.startsWith("strata_session=")),
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
    };
  }).pipe(Effect.orDie);

const get = (path: string, headers: Record<string, string> = {}) =>
  send(HttpClientRequest.get(path), headers);

layer(App, { excludeTestServices: true })("examples/effect-social-login", (it) => {
  it.effect("a twitter login signs the app's user in: reload, still signed in; sign out", () =>
    Effect.gen(function* () {
      const started = yield* get("/auth/twitter");
      expect(started.status).toBe(302);
      const state = new URL(started.location ?? "").searchParams.get("state");
      mockLogin(net, "twitter");
      const done = yield* get(`/auth/twitter/callback?code=c&state=${state}`, {
        cookie: started.cookie,
      });
      // Signed in with a session, sent home; no token in the body.
      expect(done.status).toBe(302);
      expect(done.location).toBe("/");
      expect(done.body).toBeUndefined();
      const session = done.session ?? "";
      expect(session).toMatch(/^strata_session=.+/);
      const user = { id: 1, account: "twitter:2244994945", name: "Developers" };
      for (let reload = 0; reload < 2; reload++) {
        expect(yield* get("/me", { cookie: session })).toMatchObject({ status: 200, body: user });
      }
      expect(yield* get("/auth/session", { cookie: session })).toMatchObject({ body: user });
      // Home, where the sign-in landed, answers the user; signed out, where to sign in.
      expect(yield* get("/", { cookie: session })).toMatchObject({
        status: 200,
        body: { signedIn: true, user },
      });
      expect(yield* get("/")).toMatchObject({
        status: 200,
        body: { signedIn: false, signIn: ["/auth/github", "/auth/twitter"] },
      });
      expect((yield* get("/me")).status).toBe(401);
      const out = yield* send(HttpClientRequest.post("/auth/logout"), {
        cookie: session,
        origin: "http://127.0.0.1", // the redirect URIs' origin
      });
      expect(out.status).toBe(204);
      expect(out.cookie).toBe("strata_session=");
    }),
  );

  it.effect("prototype names and malformed cookies are 4xx, never 500", () =>
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
      for (const value of ["%", "a.b.c", "__proto__", "1.99999999999.x"]) {
        const me = yield* get("/me", { cookie: `strata_session=${value}` });
        expect(me.status).toBe(401);
        expect(me.cookie).toBe("strata_session=");
        const home = yield* get("/", { cookie: `strata_session=${value}` });
        expect(home).toMatchObject({ status: 200, body: { signedIn: false } });
        expect(home.cookie).toBe("strata_session=");
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
