// examples/social-login end to end: the classic app, its callback handler issuing app tokens,
// the providers' network intercepted (undici MockAgent, see test/oauth/support/network.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppModule, providersFromEnv } from "../../examples/social-login/app.js";
import { StrataApp } from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { mockNetwork } from "../oauth/support/network.js";
import { mockLogin } from "../oauth/support/providerNetwork.js";

const net = mockNetwork();

const providers = providersFromEnv({
  GITHUB_CLIENT_ID: "github-client-id",
  GITHUB_CLIENT_SECRET: "github-secret",
  GOOGLE_CLIENT_ID: "google-client-id",
  GOOGLE_CLIENT_SECRET: "google-secret",
  TWITTER_CLIENT_ID: "twitter-client-id",
});

describe("examples/social-login", () => {
  const app = new StrataApp(
    createAppModule({
      providers,
      tokenSecret: "app-token-secret",
      sealingKey: "example-sealing-key-0123456789-abcdefghijkl",
    }),
  );
  beforeAll(() => app.listen(0));
  afterAll(() => app.close());

  const login = async (provider: "github" | "google") => {
    const started = await request(app, "GET", `/auth/${provider}`);
    expect(started.status).toBe(302);
    const state = new URL(started.headers.get("location") ?? "").searchParams.get("state");
    const cookie = (started.headers.getSetCookie()[0] ?? "").split(";")[0];
    mockLogin(net, provider);
    return request(app, "GET", `/auth/${provider}/callback?code=abc&state=${state}`, {
      headers: { cookie },
    });
  };

  it("reads the providers from the environment (secret optional for twitter only)", () => {
    expect(Object.keys(providers).sort()).toEqual(["github", "google", "twitter"]);
    expect(providers.github?.redirectUri).toBe("http://localhost:3000/auth/github/callback");
    expect(providersFromEnv({ FACEBOOK_CLIENT_ID: "only-an-id" })).toEqual({});
  });

  it("a login answers the handler's { token, user, isNewUser }; a second one is not new", async () => {
    const first = await login("github");
    expect(first.status).toBe(200);
    const body = first.body as { token: string; user: Record<string, unknown>; isNewUser: boolean };
    expect(body.isNewUser).toBe(true);
    expect(body.user).toMatchObject({
      id: 1,
      provider: "github",
      providerId: "583231",
      email: "octocat@github.com",
      name: "The Octocat",
      role: "user",
    });
    expect(body.token.split(".")).toHaveLength(3);
    const again = await login("github");
    expect((again.body as { isNewUser: boolean }).isNewUser).toBe(false);
    const other = await login("google");
    expect((other.body as { user: { id: number } }).user.id).toBe(2);
  });

  it("the app token opens /me; no token or a forged one is 401", async () => {
    const { token } = (await login("github")).body as { token: string };
    const me = await request(app, "GET", "/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 1, provider: "github" });
    expect((await request(app, "GET", "/me")).status).toBe(401);
    const forged = `${token.slice(0, -2)}xx`;
    expect(
      (await request(app, "GET", "/me", { headers: { authorization: `Bearer ${forged}` } })).status,
    ).toBe(401);
  });

  it("a forged callback is refused with 401 Invalid state", async () => {
    const answer = await request(app, "GET", "/auth/github/callback?code=abc&state=forged");
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      statusCode: 401,
      message: "Invalid state",
      error: "invalid_state",
    });
  });
});
