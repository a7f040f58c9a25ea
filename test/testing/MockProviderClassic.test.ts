// The classic face of MockProvider (the README's example): examples/social-login compiled by
// Test.createTestingModule with its OAuth providers swapped for mocks, then signed in over
// real HTTP and its protected /me route opened with the session cookie.
import { Schema } from "effect";
import type { StrataApp } from "effect-strata";
import { OAuthProviderSource } from "effect-strata/oauth";
import { MockProvider, request, Test, type TestingModule } from "effect-strata/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppModule } from "../../examples/social-login/app.js";

const AppModule = createAppModule({
  providers: {
    github: {
      clientId: "app-github-id",
      clientSecret: "app-github-secret",
      redirectUri: "http://localhost/auth/github/callback",
    },
    google: {
      clientId: "app-google-id",
      clientSecret: "app-google-secret",
      redirectUri: "http://localhost/auth/google/callback",
    },
  },
  sessionSecret: "test-session-secret-0123456789-abcdefghij",
  sealingKey: "test-sealing-key-0123456789-abcdefghijkl",
});

let module: TestingModule;
let app: StrataApp;

beforeAll(async () => {
  module = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(OAuthProviderSource)
    .useValue(
      MockProvider.source(
        { provider: "github", profile: { id: "583231", name: "Octocat" } },
        { provider: "google", fail: "code_rejected" },
      ),
    )
    .compile();
  app = module.createStrataApp();
  await app.listen(0);
});
afterAll(async () => {
  await app.close();
  await module.close();
});

const Me = Schema.Struct({ id: Schema.String, name: Schema.String, provider: Schema.String });

/** GET /auth/:provider, then its callback with the state and the transaction cookie. */
const login = async (provider: string) => {
  const start = await request(app, "GET", `/auth/${provider}`);
  expect(start.status).toBe(302);
  const location = new URL(start.headers.get("location") ?? "");
  const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0];
  const state = location.searchParams.get("state");
  const done = await request(app, "GET", `/auth/${provider}/callback?state=${state}&code=any`, {
    headers: { cookie },
  });
  return { location, done };
};

describe("MockProvider on the classic face (Test.createTestingModule)", () => {
  it("signs in through the app's own handler, whose user the session cookie opens /me with", async () => {
    const { location, done } = await login("github");
    // The real GitHub URL, with the app's configured client id and redirect URI.
    expect(`${location.origin}${location.pathname}`).toBe(
      "https://github.com/login/oauth/authorize",
    );
    expect(location.searchParams.get("client_id")).toBe("app-github-id");
    // The app's handler found the user; the routes signed it in (a session cookie) and went home.
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    const session = /strata_session=([^;]+)/.exec(done.headers.get("set-cookie") ?? "");
    const value = session?.[1] ?? "";
    expect(value).not.toBe("");

    const me = await request(app, "GET", "/me", { headers: { cookie: `strata_session=${value}` } });
    expect(me.status).toBe(200);
    expect(me.json(Me)).toMatchObject({ name: "Octocat", provider: "github" });
    expect((await request(app, "GET", "/me")).status).toBe(401);
  });

  it("a provider mocked to fail answers the real error: 401 code_rejected, no session", async () => {
    const { done } = await login("google");
    expect(done.status).toBe(401);
    expect(done.body).toEqual({
      statusCode: 401,
      message: "Authorization code rejected",
      error: "code_rejected",
    });
    expect(done.headers.get("set-cookie")).not.toContain("strata_session");
  });
});
