// A session created by the built-in OAuth routes' success handler (the login wiring of issue 23
// will build this in): a mocked github signs the user in, the callback's response sets the
// session cookie beside clearing the transaction cookie, and the session routes see the user.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { OAuthRoutes } from "../../src/oauth/index.js";
import { MemorySessionStore } from "../../src/session/index.js";
import { MockProvider, serveTest } from "../../src/testing/index.js";
import { baseUrlOf } from "../support/baseUrl.js";
import { CookieJar } from "../support/cookieJar.js";
import { attributesOf, COOKIE, clears } from "./support/sessionContract.js";
import { Routes, UserSession } from "./support/sessionServer.js";

const http = (jar: CookieJar, path: string) => Effect.promise(() => jar.fetch("GET", path));

describe("a session created at OAuth sign-in", () => {
  it.scoped("the callback sets the session cookie; the session routes see the user", () =>
    Effect.gen(function* () {
      const SignIn = OAuthRoutes.layer({
        onSuccess: (oauth) =>
          UserSession.create({ id: oauth.user.id, name: oauth.user.name ?? "" }),
      });
      // The request is there when the handler runs, on the callback's own request: only the
      // routes' Layer type asks for it.
      const routes = SignIn as Layer.Layer<
        never,
        Layer.Layer.Error<typeof SignIn>,
        Exclude<Layer.Layer.Context<typeof SignIn>, HttpServerRequest.HttpServerRequest>
      >;
      const url = yield* baseUrlOf(
        serveTest(Layer.merge(routes, Routes)).pipe(
          Layer.provide(
            MockProvider.layer({ provider: "github", profile: { id: "7", name: "Ada" } }),
          ),
          Layer.provide(UserSession.layer()),
          Layer.provide(MemorySessionStore.layer()),
        ),
      );
      const jar = new CookieJar(url);
      const start = yield* http(jar, "/auth/github");
      expect(start.status).toBe(302);
      const state = new URL(start.headers.get("location") ?? "").searchParams.get("state");
      const done = yield* http(jar, `/auth/github/callback?state=${state}&code=any`);
      expect(done.status).toBe(204);
      // Both cookies on one response: the transaction's cleared, the session's set.
      expect(done.setCookies).toHaveLength(2);
      expect(done.setCookies.some((header) => clears(header, "strata_oauth"))).toBe(true);
      const session = done.setCookies.find((header) => header.startsWith(`${COOKIE}=`));
      expect(session).toBeDefined();
      expect(attributesOf(session as string).has("httponly")).toBe(true);
      expect((yield* http(jar, "/me")).body).toEqual({ id: "7", name: "Ada" });
    }),
  );
});
