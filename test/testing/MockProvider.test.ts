// test/testing/MockProvider.test.ts: the app of examples/effect-social-login signed in
// through a mocked google, then its protected route opened with the app's token.
import * as Cookies from "@effect/platform/Cookies";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientResponse from "@effect/platform/HttpClientResponse";
import { expect, layer } from "@effect/vitest";
import { Effect, Layer, Redacted, Schema } from "effect";
import { MockProvider, serveTest } from "strata/testing";
import { AppRoutes, AppServices } from "../../examples/effect-social-login/app.js";

// The app of examples/effect-social-login: its routes and services, google mocked.
const App = serveTest(AppRoutes).pipe(
  Layer.provide(
    MockProvider.layer({
      provider: "google",
      profile: { id: "g-42", email: "ada@example.com", emailVerified: true, name: "Ada" },
    }),
  ),
  Layer.provide(AppServices(Redacted.make("test-token-secret"))),
);

// What the app's login answers (its success handler's value).
const Login = Schema.Struct({
  token: Schema.String,
  isNewUser: Schema.Boolean,
  user: Schema.Struct({ id: Schema.Number, name: Schema.String }),
});

layer(App)("login with a mocked google", (it) => {
  it.effect("signs in, then opens a protected route with the app token", () =>
    Effect.gen(function* () {
      // GET /auth/google: a 302 to Google carrying the state; the transaction in a cookie.
      const start = yield* HttpClient.get("/auth/google");
      expect(start.status).toBe(302);
      const google = new URL(start.headers.location ?? "");
      expect(google.origin).toBe("https://accounts.google.com");
      const state = google.searchParams.get("state");
      const cookie = Cookies.toCookieHeader(start.cookies);

      // Google sends the browser back with the state and a code.
      const done = yield* HttpClient.get(`/auth/google/callback?state=${state}&code=any`, {
        headers: { cookie },
      });
      expect(done.status).toBe(200);
      const login = yield* HttpClientResponse.schemaBodyJson(Login)(done);
      expect(login).toMatchObject({ isNewUser: true, user: { name: "Ada" } });

      // The protected route: the app token opens it, nothing else does.
      const me = yield* HttpClient.get("/me", {
        headers: { authorization: `Bearer ${login.token}` },
      });
      expect(me.status).toBe(200);
      expect((yield* HttpClient.get("/me")).status).toBe(401);
    }),
  );
});
