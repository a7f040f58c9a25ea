// test/testing/MockProvider.test.ts: the app of examples/effect-social-login signed in
// through a mocked google, its protected route opened with the session, then signed out.
import * as Cookies from "@effect/platform/Cookies";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import { expect, layer } from "@effect/vitest";
import { Effect, Layer, Redacted } from "effect";
import { MockProvider, serveTest } from "effect-strata/testing";
import { AppRoutes, AppServices } from "../../examples/effect-social-login/app.js";

// The app of examples/effect-social-login: its routes and services, google mocked.
const App = serveTest(AppRoutes).pipe(
  Layer.provide(
    MockProvider.layer({
      provider: "google",
      profile: { id: "g-42", email: "ada@example.com", emailVerified: true, name: "Ada" },
    }),
  ),
  Layer.provide(AppServices(Redacted.make("test-session-secret-0123456789-abcdef"))),
);

layer(App)("login with a mocked google", (it) => {
  it.effect("signs in, opens a protected route with the session, signs out", () =>
    Effect.gen(function* () {
      // GET /auth/google: a 302 to Google carrying the state; the transaction in a cookie.
      const start = yield* HttpClient.get("/auth/google");
      expect(start.status).toBe(302);
      const google = new URL(start.headers.location ?? "");
      expect(google.origin).toBe("https://accounts.google.com");
      const state = google.searchParams.get("state");

      // Google sends the browser back with the state and a code: signed in, sent home.
      const done = yield* HttpClient.get(`/auth/google/callback?state=${state}&code=any`, {
        headers: { cookie: Cookies.toCookieHeader(start.cookies) },
      });
      expect(done.status).toBe(302);
      expect(done.headers.location).toBe("/");
      const session = Cookies.toCookieHeader(done.cookies); // the session cookie (HttpOnly)

      // The protected route: the session opens it, nothing else does.
      const me = yield* HttpClient.get("/me", { headers: { cookie: session } });
      expect(me.status).toBe(200);
      expect(yield* me.json).toMatchObject({ name: "Ada", email: "ada@example.com" });
      expect((yield* HttpClient.get("/me")).status).toBe(401);

      // Sign out (a POST from the app's own origin): the response clears the session cookie.
      const out = yield* HttpClient.execute(
        HttpClientRequest.post("/auth/logout", {
          headers: { cookie: session, origin: "http://localhost" },
        }),
      );
      expect(out.status).toBe(204);
      expect(Cookies.toCookieHeader(out.cookies)).toBe("strata_session=");
    }),
  );
});
