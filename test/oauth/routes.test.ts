// The built-in routes over real HTTP (Effect face): complete logins at the five providers,
// success and error redirects, the success handler, and the server-side store.

import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, layer } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import { type OAuthSession, supportedProviders } from "../../src/oauth/index.js";
import { ACCESS_TOKEN, googleUserinfo, REFRESH_TOKEN } from "./fixtures.js";
import { mockNetwork } from "./support/network.js";
import { mockLogin, tokenEndpoint } from "./support/providerNetwork.js";
import { callback, cookieOf, get, oauthServer, start } from "./support/server.js";

const net = mockNetwork();

describe("built-in routes", () => {
  layer(oauthServer(), { excludeTestServices: true })("without a handler", (it) => {
    for (const provider of supportedProviders) {
      it.effect(
        `${provider}: /auth/${provider} -> 302 to the provider, callback -> JSON result`,
        () =>
          Effect.gen(function* () {
            const flow = yield* start(provider);
            expect(flow.answer.status).toBe(302);
            expect(flow.url.searchParams.get("client_id")).toBe(`${provider}-client-id`);
            mockLogin(net, provider);
            const answer = yield* callback(
              provider,
              `?code=code-1&state=${flow.state}`,
              flow.cookie,
            );
            expect(answer.status).toBe(200);
            expect(answer.headers["content-type"]).toContain("application/json");
            const body = answer.json as Record<string, unknown>;
            expect(body.accessToken).toBe(ACCESS_TOKEN);
            expect(body.refreshToken).toBe(REFRESH_TOKEN);
            expect(typeof body.expiresAt).toBe("string");
            expect(Date.parse(String(body.expiresAt))).toBeGreaterThan(Date.now());
            expect((body.user as { id: string }).id).toBeTruthy();
            expect(net.seen[0].path).toBe(new URL(tokenEndpoint[provider]).pathname);
          }),
      );
    }

    it.effect("github without expiry or refresh token: the JSON has neither", () =>
      Effect.gen(function* () {
        const flow = yield* start("github");
        mockLogin(net, "github", { json: { access_token: ACCESS_TOKEN, token_type: "bearer" } });
        const answer = yield* callback("github", `?code=c&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(200);
        expect(answer.json).toEqual({
          accessToken: ACCESS_TOKEN,
          user: {
            id: "583231",
            email: "octocat@github.com",
            emailVerified: true,
            name: "The Octocat",
            picture: "https://avatars.githubusercontent.com/u/583231?v=4",
          },
        });
      }),
    );

    it.effect("successRedirect given at the start: 302 there after the login, no token in it", () =>
      Effect.gen(function* () {
        const flow = yield* start("google", "?successRedirect=%2Fwelcome%3Ftab%3D1");
        mockLogin(net, "google");
        const answer = yield* callback("google", `?code=c&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(302);
        expect(answer.location).toBe("/welcome?tab=1");
        expect(answer.text).toBe("");
      }),
    );

    it.effect("successRedirect on the callback (spec style) to a configured origin", () =>
      Effect.gen(function* () {
        const flow = yield* start("github");
        mockLogin(net, "github");
        const answer = yield* callback(
          "github",
          `?code=c&state=${flow.state}&successRedirect=${encodeURIComponent("https://app.example.com/home")}`,
          flow.cookie,
        );
        expect(answer.status).toBe(302);
        expect(answer.location).toBe("https://app.example.com/home");
      }),
    );

    it.effect("errorRedirect: any callback error redirects there with a stable error code", () =>
      Effect.gen(function* () {
        const flow = yield* start("github", "?errorRedirect=%2Flogin");
        net.on("POST", tokenEndpoint.github, { json: { error: "bad_verification_code" } });
        const answer = yield* callback("github", `?code=c&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(302);
        expect(answer.location).toBe("/login?error=code_rejected");
        const denied = yield* start("github", "?errorRedirect=%2Flogin");
        const refused = yield* callback(
          "github",
          `?error=access_denied&state=${denied.state}`,
          denied.cookie,
        );
        expect(refused.location).toBe("/login?error=provider_error");
        const noCookie = yield* callback("github", "?code=c&state=x&errorRedirect=%2Foops");
        expect(noCookie.location).toBe("/oops?error=invalid_state");
      }),
    );
  });

  class Users extends Context.Tag("test/Users")<
    Users,
    { readonly upsert: (session: OAuthSession) => Effect.Effect<{ id: string; isNew: boolean }> }
  >() {}
  const seenByHandler: Array<OAuthSession> = [];
  const UsersLive = Layer.succeed(Users, {
    upsert: (session) => Effect.succeed({ id: `app-${session.user.id}`, isNew: true }),
  });

  layer(
    oauthServer({
      routes: {
        onSuccess: (session, provider) =>
          Effect.gen(function* () {
            seenByHandler.push(session);
            const user = yield* (yield* Users).upsert(session);
            if (provider === "twitter") {
              return HttpServerResponse.redirect("/app", { status: 303 }).pipe(
                HttpServerResponse.unsafeSetCookie("session", `s-${user.id}`, { httpOnly: true }),
              );
            }
            if (provider === "facebook") return yield* Effect.fail(new Error("handler broke"));
            return { token: `app-token-for-${user.id}`, user, isNewUser: user.isNew };
          }),
      },
      extra: UsersLive,
    }),
    { excludeTestServices: true },
  )("with a success handler (services injected)", (it) => {
    it.effect("the handler's value is the JSON body; it sees Redacted tokens", () =>
      Effect.gen(function* () {
        const flow = yield* start("google");
        mockLogin(net, "google");
        const answer = yield* callback("google", `?code=c&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(200);
        expect(answer.json).toEqual({
          token: `app-token-for-app-${googleUserinfo.sub}`,
          user: { id: `app-${googleUserinfo.sub}`, isNew: true },
          isNewUser: true,
        });
        const session = seenByHandler.at(-1);
        expect(session && Redacted.value(session.tokens.accessToken)).toBe(ACCESS_TOKEN);
      }),
    );

    it.effect("a handler may answer with a full response (session cookie + redirect)", () =>
      Effect.gen(function* () {
        const flow = yield* start("twitter");
        mockLogin(net, "twitter");
        const answer = yield* callback("twitter", `?code=c&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(303);
        expect(answer.location).toBe("/app");
        expect(answer.setCookie).toContain("session=s-app-2244994945");
        expect(answer.setCookie).toContain("strata_oauth=; Max-Age=0");
        expect(answer.headers["cache-control"]).toBe("no-store");
      }),
    );

    it.effect("a failing handler: 500 in the standard shape, cookie cleared", () =>
      Effect.gen(function* () {
        const flow = yield* start("facebook");
        mockLogin(net, "facebook");
        const answer = yield* callback("facebook", `?code=c&state=${flow.state}`, flow.cookie);
        expect(answer.status).toBe(500);
        expect(answer.json).toEqual({ statusCode: 500, message: "Internal Server Error" });
        expect(answer.text).not.toContain("handler broke");
        expect(answer.setCookie).toContain("Max-Age=0");
      }),
    );
  });

  layer(oauthServer({ store: "memory", routes: { path: "/login" } }), {
    excludeTestServices: true,
  })("server-side store, another base path", (it) => {
    it.effect("the cookie carries only an id; the flow works under /login, once", () =>
      Effect.gen(function* () {
        const wrongBase = yield* get("/auth/google");
        expect(wrongBase.status).toBe(404);
        const started = yield* get("/login/google");
        expect(started.status).toBe(302);
        const state = new URL(started.location ?? "").searchParams.get("state");
        const cookie = cookieOf(started);
        expect(cookie).toMatch(/^strata_oauth=[A-Za-z0-9_-]{43}$/);
        mockLogin(net, "google");
        const path = `/login/google/callback?code=c&state=${state}`;
        const answer = yield* get(path, { cookie });
        expect(answer.status).toBe(200);
        const replay = yield* get(path, { cookie });
        expect(replay.status).toBe(401);
      }),
    );
  });
});
