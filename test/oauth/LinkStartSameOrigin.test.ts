// SECURITY.md 45 on the Effect face: `GET /auth/:provider?intent=link` is refused cross-site
// (403, no transaction cookie, no redirect to the provider, nothing linked), judged as the
// logout is; a link from the app's own page starts, and a plain sign-in starts from anywhere.
// Over real HTTP with real cookies (examples/social-login covers the classic face).
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { OAuthRoutes } from "../../src/oauth/index.js";
import type { OAuthRoutesSession } from "../../src/oauth/OAuthRoutes.js";
import { MemorySessionStore } from "../../src/session/index.js";
import { MockProvider, serveTest } from "../../src/testing/index.js";
import { User, UserSession, userOf } from "../session/support/sessionServer.js";
import { baseUrlOf } from "../support/baseUrl.js";
import { CookieJar } from "../support/cookieJar.js";

const FORBIDDEN = { statusCode: 403, message: "Forbidden" };
const TRUSTED = "https://www.example.com";

/** Every link the app made: none may come from a refused start. */
const links: Array<string> = [];

const session: OAuthRoutesSession = {
  from: (oauth) => Effect.succeed({ id: oauth.user.id, name: oauth.user.name ?? "" }),
  link: (oauth, current) =>
    Effect.sync(() => {
      links.push(`${(current as User).id}:${oauth.provider}`);
      return current;
    }),
  origins: [TRUSTED],
};

const Login = HttpLayerRouter.add(
  "POST",
  "/login/:id",
  Effect.gen(function* () {
    const { id } = yield* HttpLayerRouter.params;
    yield* UserSession.create(userOf(id ?? ""));
    return HttpServerResponse.empty({ status: 204 });
  }),
);

const startApp = baseUrlOf(
  serveTest(Layer.merge(OAuthRoutes.layer({ session }), Login)).pipe(
    Layer.provide(MockProvider.layer({ provider: "github", profile: { id: "7", name: "Ada" } })),
    Layer.provide(UserSession.layer()),
    Layer.provide(MemorySessionStore.layer()),
  ),
);

const http = (jar: CookieJar, method: string, path: string, headers: Record<string, string> = {}) =>
  Effect.promise(() => jar.fetch(method, path, { headers }));

const crossSite: ReadonlyArray<Record<string, string>> = [
  { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
  { "sec-fetch-site": "same-site" },
  { origin: "https://evil.example" },
  { origin: "null" },
  { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
];

describe("check 45: a link starts only from the app's own pages (Effect face)", () => {
  it.scopedLive("a cross-site link start is 403: no transaction, no provider, nothing linked", () =>
    Effect.gen(function* () {
      const url = yield* startApp;
      const jar = new CookieJar(url);
      expect((yield* http(jar, "POST", "/login/ada")).status).toBe(204);
      links.length = 0;
      for (const headers of crossSite) {
        const started = yield* http(jar, "GET", "/auth/github?intent=link", headers);
        const label = JSON.stringify(headers);
        expect(started.status, label).toBe(403);
        expect(started.body, label).toEqual(FORBIDDEN);
        expect(started.headers.get("location"), label).toBeNull();
        expect(started.setCookies, label).toEqual([]);
        expect(started.headers.get("cache-control"), label).toBe("no-store");
      }
      expect(links).toEqual([]);
      // Still signed in: the refused starts touched nothing.
      expect((yield* http(jar, "GET", "/auth/session")).body).toEqual(userOf("ada"));
    }),
  );

  it.scopedLive(
    "from the app's own page, typed in, a trusted origin or a non-browser client, it starts and links",
    () =>
      Effect.gen(function* () {
        const url = yield* startApp;
        const jar = new CookieJar(url);
        expect((yield* http(jar, "POST", "/login/ada")).status).toBe(204);
        for (const headers of [
          { "sec-fetch-site": "none" },
          { origin: TRUSTED, "sec-fetch-site": "same-site" },
          {},
          { "sec-fetch-site": "same-origin" },
        ] as ReadonlyArray<Record<string, string>>) {
          const started = yield* http(jar, "GET", "/auth/github?intent=link", headers);
          expect(started.status, JSON.stringify(headers)).toBe(302);
          expect(started.setCookies.some((c) => c.startsWith("strata_oauth="))).toBe(true);
        }
        links.length = 0;
        const started = yield* http(jar, "GET", "/auth/github?intent=link", {
          "sec-fetch-site": "same-origin",
        });
        const state = new URL(started.headers.get("location") ?? "").searchParams.get("state");
        const done = yield* http(jar, "GET", `/auth/github/callback?state=${state}&code=any`);
        expect(done.status).toBe(302);
        expect(links).toEqual(["ada:github"]);
      }),
  );

  it.scopedLive("a plain sign-in still starts from another site's link", () =>
    Effect.gen(function* () {
      const url = yield* startApp;
      for (const headers of crossSite) {
        const started = yield* http(new CookieJar(url), "GET", "/auth/github", headers);
        expect(started.status, JSON.stringify(headers)).toBe(302);
        expect(started.headers.get("location")).toMatch(/^https?:\/\//);
      }
    }),
  );
});
