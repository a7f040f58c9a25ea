// The classic face: OAuthModule.forRoot, OAuthService, a callback handler resolved through
// DI, the built-in routes contributed to a StrataApp. The live providers' network is
// intercepted at the boundary (undici MockAgent).
import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  Scope,
  StartupError,
  StrataApp,
  StrataResponse,
} from "../../src/index.js";
import {
  type OAuthCallbackHandler,
  type OAuthCallbackResult,
  OAuthHttpError,
  OAuthModule,
  type OAuthModuleOptions,
  OAuthService,
  type SupportedProvider,
} from "../../src/oauth/index.js";
import { nonceHash } from "../../src/oauth/OAuthAuthorization.js";
import { request, Test } from "../../src/testing/index.js";
import { ACCESS_TOKEN, credentials, fullTokens, githubUser, idToken, s256 } from "./fixtures.js";
import { form, mockNetwork } from "./support/network.js";
import { mockLogin, tokenEndpoint, tokenRequests } from "./support/providerNetwork.js";

const net = mockNetwork();

@Injectable()
class UsersService {
  readonly users = new Map<string, { id: number; provider: string; email?: string }>();
  upsert(provider: string, profile: { id: string; email?: string }) {
    const key = `${provider}:${profile.id}`;
    const existing = this.users.get(key);
    if (existing !== undefined) return { user: existing, isNew: false };
    const user = { id: this.users.size + 1, provider, email: profile.email };
    this.users.set(key, user);
    return { user, isNew: true };
  }
}

@Injectable()
class IssueAppToken implements OAuthCallbackHandler {
  constructor(@Inject(UsersService) private readonly users: UsersService) {}
  async handle(result: OAuthCallbackResult, provider: SupportedProvider) {
    const { user, isNew } = this.users.upsert(provider, result.user);
    if (provider === "facebook") {
      const response = new StrataResponse();
      response.setHeader("set-cookie", `session=app-${user.id}; HttpOnly; SameSite=Lax; Path=/`);
      response.redirect("/app");
      return response;
    }
    return { token: `app-token-${user.id}`, user, isNewUser: isNew };
  }
}

const options = (extra: Partial<OAuthModuleOptions> = {}): OAuthModuleOptions => ({
  providers: {
    github: credentials("github"),
    google: credentials("google"),
    facebook: credentials("facebook"),
  },
  callbackHandler: IssueAppToken,
  sealingKey: "classic-sealing-key-0123456789-abcdefghijkl",
  timeout: "400 millis",
  ...extra,
});

const apps: Array<StrataApp> = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
const listen = async (module: Function) => {
  const app = new StrataApp(module as never);
  apps.push(app);
  await app.listen(0);
  return app;
};

const cookieOf = (headers: Headers) => (headers.getSetCookie()[0] ?? "").split(";")[0];

describe("OAuthModule.forRoot (classic face)", () => {
  @Module({
    imports: [OAuthModule.forRoot(options())],
    providers: [UsersService, IssueAppToken],
  })
  class AppModule {}

  it("serves /auth/:provider and its callback; the handler's value is the body", async () => {
    const app = await listen(AppModule);
    expect(app.routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(["GET /auth/:provider", "GET /auth/:provider/callback"]),
    );
    const started = await request(app, "GET", "/auth/github");
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get("location") ?? "");
    expect(location.origin).toBe("https://github.com");
    const cookie = cookieOf(started.headers);
    expect(cookie).toMatch(/^strata_oauth=v1\./);
    mockLogin(net, "github");
    const state = location.searchParams.get("state");
    const done = await request(app, "GET", `/auth/github/callback?code=c&state=${state}`, {
      headers: { cookie },
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      token: "app-token-1",
      user: { id: 1, provider: "github", email: "octocat@github.com" },
      isNewUser: true,
    });
    expect(done.headers.get("cache-control")).toBe("no-store");
    expect(done.headers.getSetCookie()[0]).toContain("strata_oauth=; Max-Age=0");
  });

  it("a handler may send a full response (StrataResponse: cookie + redirect)", async () => {
    const app = await listen(AppModule);
    const started = await request(app, "GET", "/auth/facebook");
    const state = new URL(started.headers.get("location") ?? "").searchParams.get("state");
    mockLogin(net, "facebook");
    const done = await request(app, "GET", `/auth/facebook/callback?code=c&state=${state}`, {
      headers: { cookie: cookieOf(started.headers) },
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/app");
    expect(done.headers.getSetCookie().join("\n")).toContain("session=app-1");
    expect(done.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses a bad state with 401 Invalid state and the stable code", async () => {
    const app = await listen(AppModule);
    const answer = await request(app, "GET", "/auth/github/callback?code=c&state=forged");
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      statusCode: 401,
      message: "Invalid state",
      error: "invalid_state",
    });
    expect(tokenRequests(net)).toEqual([]);
  });

  it("OAuthService: getAuthorizationUrl, handleCallback, validateState, executeCallback", async () => {
    const app = await listen(AppModule);
    const oauth = app.get(OAuthService);
    expect(oauth.providers).toEqual(["google", "github", "facebook"]);

    const google = oauth.getAuthorizationUrl("google");
    const url = new URL(google.url);
    expect(url.searchParams.get("state")).toBe(google.state);
    expect(google.state).toMatch(/^[A-Za-z0-9_-]{43}~google$/);
    expect(google.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("code_challenge")).toBe(s256(google.codeVerifier ?? ""));

    const github = oauth.getAuthorizationUrl("github", "caller-state", ["read:user", "user:email"]);
    expect(github.state).toBe("caller-state~github");
    expect(new URL(github.url).searchParams.get("state")).toBe(github.state);
    expect(github.codeVerifier).toBeUndefined();
    expect(github.nonce).toBeUndefined();
    expect(new URL(github.url).searchParams.get("scope")).toBe("read:user user:email");

    expect(oauth.validateState(github.state, "caller-state~github")).toBe(true);
    expect(oauth.validateState("other", "caller-state~github")).toBe(false);
    expect(oauth.validateState(undefined, "caller-state~github")).toBe(false);

    mockLogin(net, "google");
    const result = await oauth.handleCallback(
      "google",
      "code-g",
      google.state,
      google.codeVerifier,
    );
    expect(result.accessToken).toBe(ACCESS_TOKEN);
    expect(result.expiresAt).toBeInstanceOf(Date);
    expect(result.user.email).toBe("ada@example.com");
    expect(form(tokenRequests(net)[0]).code_verifier).toBe(google.codeVerifier);

    const value = await oauth.executeCallback(result, "google");
    expect(value).toMatchObject({ token: "app-token-1", isNewUser: true });
  });

  it("OAuthService throws OAuthHttpErrors: 404 unknown provider, 401 missing verifier or bad code", async () => {
    const app = await listen(AppModule);
    const oauth = app.get(OAuthService);
    expect(() => oauth.getAuthorizationUrl("twitter")).toThrow(OAuthHttpError);
    try {
      oauth.getAuthorizationUrl("__proto__" as SupportedProvider);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ statusCode: 404, error: "unknown_provider" });
    }
    await expect(oauth.handleCallback("google", "c", "s~google")).rejects.toMatchObject({
      statusCode: 401,
      message: "Invalid state",
      error: "invalid_state",
    });
    net.on("POST", tokenEndpoint.github, { json: { error: "bad_verification_code" } });
    await expect(oauth.handleCallback("github", "c", "s~github")).rejects.toMatchObject({
      statusCode: 401,
      error: "code_rejected",
    });
    net.on("POST", tokenEndpoint.github, { json: fullTokens(), delayMs: 3_000 });
    await expect(oauth.handleCallback("github", "c", "s~github")).rejects.toMatchObject({
      statusCode: 504,
      error: "provider_timeout",
    });
    await expect(oauth.refreshToken("facebook", "r")).rejects.toMatchObject({
      _tag: "UnsupportedOperation",
    });
  });

  it("OAuthService returns the nonce whose hash is in the URL; given it, the ID token must carry it", async () => {
    const app = await listen(AppModule);
    const oauth = app.get(OAuthService);
    const google = oauth.getAuthorizationUrl("google");
    expect(google.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sent = new URL(google.url).searchParams.get("nonce");
    expect(sent).toBe(nonceHash(google.nonce ?? ""));
    expect(google.url).not.toContain(google.nonce);

    const login = (nonce: unknown) =>
      mockLogin(net, "google", { json: fullTokens({ id_token: idToken({ nonce }) }) });
    login(sent);
    const result = await oauth.handleCallback(
      "google",
      "c",
      google.state,
      google.codeVerifier,
      google.nonce,
    );
    expect(result.user.email).toBe("ada@example.com");
    // An ID token minted for another login (another nonce) is refused.
    login(nonceHash("another-login"));
    await expect(
      oauth.handleCallback("google", "c", google.state, google.codeVerifier, google.nonce),
    ).rejects.toMatchObject({ statusCode: 502, error: "token_response_malformed" });
    // Each authorization has its own nonce.
    expect(oauth.getAuthorizationUrl("google").nonce).not.toBe(google.nonce);
  });

  it("check 6: OAuthService binds the state to its provider: begun for google, refused for github with no token request", async () => {
    const app = await listen(AppModule);
    const oauth = app.get(OAuthService);
    for (const started of [
      oauth.getAuthorizationUrl("google"),
      oauth.getAuthorizationUrl("google", "caller-state"),
    ]) {
      mockLogin(net, "github");
      await expect(
        oauth.handleCallback("github", "c", started.state, started.codeVerifier),
      ).rejects.toMatchObject({
        statusCode: 401,
        message: "Invalid state",
        error: "invalid_state",
      });
    }
    // A state of the caller's own, never bound, is refused too.
    await expect(oauth.handleCallback("github", "c", "caller-state")).rejects.toMatchObject({
      statusCode: 401,
      error: "invalid_state",
    });
    expect(tokenRequests(net)).toEqual([]);
    const github = oauth.getAuthorizationUrl("github");
    mockLogin(net, "github");
    const result = await oauth.handleCallback("github", "c", github.state);
    expect(result.user.email).toBe("octocat@github.com");
  });

  it("routes: false serves no routes; executeCallback without a handler returns the result", async () => {
    @Module({
      imports: [OAuthModule.forRoot(options({ routes: false, callbackHandler: undefined }))],
    })
    class NoRoutes {}
    const app = await listen(NoRoutes);
    expect((await request(app, "GET", "/auth/github")).status).toBe(404);
    const result = { accessToken: "a", user: { id: "1" } };
    expect(await app.get(OAuthService).executeCallback(result, "github")).toBe(result);
  });

  it("a callbackHandler no module provides is a startup error", async () => {
    @Module({ imports: [OAuthModule.forRoot(options())] })
    class Missing {}
    const app = new StrataApp(Missing);
    apps.push(app);
    await expect(app.init()).rejects.toBeInstanceOf(StartupError);
    await expect(new StrataApp(Missing).init()).rejects.toThrow(/IssueAppToken is not a provider/);
  });

  it("a request-scoped handler is created per callback", async () => {
    let created = 0;
    @Injectable({ scope: Scope.REQUEST })
    class PerRequestHandler implements OAuthCallbackHandler {
      readonly n = ++created;
      handle(result: OAuthCallbackResult) {
        return { n: this.n, id: result.user.id };
      }
    }
    @Module({
      imports: [OAuthModule.forRoot(options({ callbackHandler: PerRequestHandler }))],
      providers: [PerRequestHandler],
    })
    class Scoped {}
    const app = await listen(Scoped);
    const oauth = app.get(OAuthService);
    const result = { accessToken: "a", user: { id: "u" } };
    expect(await oauth.executeCallback(result, "github")).toEqual({ n: 1, id: "u" });
    expect(await oauth.executeCallback(result, "github")).toEqual({ n: 2, id: "u" });
  });

  it("global: true makes OAuthService visible to every module; custom flows inject it", async () => {
    @Controller("custom")
    class CustomController {
      constructor(@Inject(OAuthService) private readonly oauth: OAuthService) {}
      @Get("start")
      start() {
        return { url: this.oauth.getAuthorizationUrl("github").url };
      }
    }
    @Module({ controllers: [CustomController] })
    class Feature {}
    @Module({
      imports: [
        OAuthModule.forRoot(options({ global: true, callbackHandler: undefined })),
        Feature,
      ],
    })
    class GlobalApp {}
    const app = await listen(GlobalApp);
    const answer = await request(app, "GET", "/custom/start");
    expect(answer.status).toBe(200);
    expect((answer.body as { url: string }).url).toContain(
      "https://github.com/login/oauth/authorize",
    );
  });

  it("works in a testing module, with a user lookup replaced", async () => {
    const module = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(UsersService)
      .useValue({ upsert: () => ({ user: { id: 99, provider: "github" }, isNew: false }) })
      .compile();
    try {
      // The callback handler is bound with the routes: init() builds them (compile() does not).
      await module.init();
      const oauth = module.get(OAuthService);
      const value = await oauth.executeCallback(
        { accessToken: "a", user: { id: String(githubUser.id) } },
        "github",
      );
      expect(value).toEqual({
        token: "app-token-99",
        user: { id: 99, provider: "github" },
        isNewUser: false,
      });
    } finally {
      await module.close();
    }
  });
});
