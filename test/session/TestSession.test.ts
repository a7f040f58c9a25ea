// The test session on the Effect face: routes run signed in as a given user, with no sign-in and
// no cookie; create and destroy change who is signed in for the later requests.
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { serveTest, TestSession } from "../../src/testing/index.js";
import { baseUrlOf } from "../support/baseUrl.js";
import { CookieJar } from "../support/cookieJar.js";
import { UNAUTHORIZED } from "./support/sessionContract.js";
import { Routes, UserSession, userOf } from "./support/sessionServer.js";

const http = (jar: CookieJar, method: string, path: string) =>
  Effect.promise(() => jar.fetch(method, path));

describe("TestSession (Effect face)", () => {
  it.scoped(
    "UserSession.layerTest(user): signed in without signing in; sign-out and sign-in work",
    () =>
      Effect.gen(function* () {
        const url = yield* baseUrlOf(
          serveTest(Routes).pipe(Layer.provide(UserSession.layerTest(userOf("alice")))),
        );
        const jar = new CookieJar(url);
        const me = yield* http(jar, "GET", "/me");
        expect(me.status).toBe(200);
        expect(me.body).toEqual(userOf("alice"));
        expect(me.setCookies).toEqual([]);
        expect((yield* http(jar, "POST", "/rotate")).status).toBe(204);
        expect((yield* http(jar, "POST", "/logout")).status).toBe(204);
        const out = yield* http(jar, "GET", "/me");
        expect(out.status).toBe(401);
        expect(out.body).toEqual(UNAUTHORIZED);
        expect((yield* http(jar, "POST", "/rotate")).status).toBe(401);
        yield* http(jar, "POST", "/login/bob");
        expect((yield* http(jar, "GET", "/me")).body).toEqual(userOf("bob"));
        yield* http(jar, "POST", "/everywhere/alice");
        expect((yield* http(jar, "GET", "/me")).status).toBe(200);
        yield* http(jar, "POST", "/everywhere/bob");
        expect((yield* http(jar, "GET", "/me")).status).toBe(401);
      }),
  );

  it.scoped("TestSession.layer() starts signed out", () =>
    Effect.gen(function* () {
      const url = yield* baseUrlOf(serveTest(Routes).pipe(Layer.provide(TestSession.layer())));
      const jar = new CookieJar(url);
      expect((yield* http(jar, "GET", "/maybe")).body).toEqual({ user: null });
      yield* http(jar, "POST", "/login/carol");
      expect((yield* http(jar, "GET", "/maybe")).body).toEqual({ user: userOf("carol") });
    }),
  );
});
