// examples/social-login end to end, as `npm start` runs it: github configured from the
// environment (so it goes to the real GitHub), every other provider signing in at the
// development identity provider over loopback, through Strata's built-in routes. A browser is
// played by hand: redirects followed, the sign-in page's form posted, cookies carried.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppModule } from "../../examples/social-login/app.js";
import {
  DemoConfigError,
  type DemoProviders,
  demoProviders,
  providersFromEnv,
} from "../../examples/social-login/providers.js";
import { StrataApp } from "../../src/index.js";
import type { SupportedProvider } from "../../src/oauth/index.js";
import { DEFAULT_COOKIE_NAME as SESSION_COOKIE } from "../../src/session/index.js";
import { request } from "../../src/testing/index.js";

const env = { GITHUB_CLIENT_ID: "github-client-id", GITHUB_CLIENT_SECRET: "github-secret" };
let demo: DemoProviders;
let app: StrataApp;

beforeAll(async () => {
  demo = await demoProviders(env);
  app = new StrataApp(
    createAppModule({
      providers: demo.providers,
      development: demo.development,
      imageOrigins: demo.idp === undefined ? [] : [demo.idp.url],
      sessionSecret: "example-session-secret-0123456789-abcdefgh",
      sealingKey: "example-sealing-key-0123456789-abcdefghijkl",
    }),
  );
  await app.listen(0);
});
afterAll(async () => {
  await app.close();
  await demo.idp?.close();
});

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * Runs `npm start`'s command with `env` (and no other provider variable); resolves with its
 * exit code and output, or with `listening: true` (the process killed) once it listens.
 */
const runMain = (env: Record<string, string>) =>
  new Promise<{ code: number | null; stderr: string; listening: boolean }>((resolve) => {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/_CLIENT_(ID|SECRET)$/.test(name)),
    );
    const child = spawn(
      process.execPath,
      [
        "--conditions=strata-source",
        "--import",
        "./scripts/register.mjs",
        "examples/social-login/main.ts",
      ],
      { cwd: ROOT, env: { ...inherited, PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    let listening = false;
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("social-login: open")) {
        listening = true;
        child.kill("SIGKILL");
      }
    });
    child.once("exit", (code) => resolve({ code, stderr, listening }));
  });

const cookieValue = (setCookies: ReadonlyArray<string>, name: string) =>
  setCookies
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0]
    ?.slice(name.length + 1);

/** `/auth/<provider>` -> provider; returns the provider URL and the transaction cookie. */
const start = async (provider: SupportedProvider) => {
  const started = await request(app, "GET", `/auth/${provider}?errorRedirect=%2F`);
  expect(started.status).toBe(302);
  const cookie = `strata_oauth=${cookieValue(started.headers.getSetCookie(), "strata_oauth")}`;
  return { location: new URL(started.headers.get("location") ?? ""), cookie };
};

/** Answers the development identity provider's sign-in page; returns the callback URL. */
const signInAtDevIdp = async (authorization: URL, answer: Record<string, string>) => {
  const page = await fetch(authorization, { redirect: "manual" });
  expect(page.status).toBe(200);
  const html = await page.text();
  const requestId = /name="request" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const posted = await fetch(authorization.origin + authorization.pathname, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request: requestId, ...answer }).toString(),
  });
  expect(posted.status).toBe(303);
  return new URL(posted.headers.get("location") ?? "");
};

/** The callback back at the app (its URL names localhost:3000; the test app's port differs). */
const finish = (callback: URL, cookie: string) =>
  request(app, "GET", callback.pathname + callback.search, { headers: { cookie } });

const home = (session: string | undefined) =>
  request(
    app,
    "GET",
    "/",
    session === undefined ? {} : { headers: { cookie: `${SESSION_COOKIE}=${session}` } },
  );

const login = async (provider: SupportedProvider, user = "ada") => {
  const { location, cookie } = await start(provider);
  expect(location.origin).toBe(demo.idp?.url);
  const callback = await signInAtDevIdp(location, { user });
  expect(callback.toString()).toMatch(
    new RegExp(`^http://localhost:3000/auth/${provider}/callback\\?`),
  );
  const done = await finish(callback, cookie);
  return { done, session: cookieValue(done.headers.getSetCookie(), SESSION_COOKIE) };
};

describe("examples/social-login", () => {
  it("github comes from the environment; the other four use the development identity provider", () => {
    expect(demo.development).toEqual(["google", "microsoft", "facebook", "twitter"]);
    expect(demo.providers.github).toMatchObject({
      clientId: "github-client-id",
      redirectUri: "http://localhost:3000/auth/github/callback",
    });
    expect(demo.providers.github?.endpoints).toBeUndefined();
    expect(demo.providers.google?.endpoints?.authorization).toBe(
      `${demo.idp?.url}/google/o/oauth2/v2/auth`,
    );
    expect(demo.providers.microsoft?.loginHost).toBe(`${demo.idp?.url}/microsoft`);
    expect(Object.keys(providersFromEnv({ TWITTER_CLIENT_ID: "public-client" }))).toEqual([
      "twitter",
    ]);
  });

  it("a provider half configured (an id without its secret, or the reverse) is refused, naming the missing variable", async () => {
    const cases = [
      [
        { FACEBOOK_CLIENT_ID: "only-an-id" },
        "FACEBOOK_CLIENT_ID is set but FACEBOOK_CLIENT_SECRET is not",
      ],
      [
        { GITHUB_CLIENT_ID: "id", GITHUB_CLIENT_SECRET: "" },
        "GITHUB_CLIENT_ID is set but GITHUB_CLIENT_SECRET is not",
      ],
      [
        { GOOGLE_CLIENT_SECRET: "only-a-secret" },
        "GOOGLE_CLIENT_SECRET is set but GOOGLE_CLIENT_ID is not",
      ],
      [{ TWITTER_CLIENT_SECRET: "s" }, "TWITTER_CLIENT_SECRET is set but TWITTER_CLIENT_ID is not"],
    ] as const;
    for (const [partial, message] of cases) {
      expect(() => providersFromEnv(partial)).toThrow(new DemoConfigError(message));
      await expect(demoProviders(partial)).rejects.toThrow(message);
    }
  });

  it("npm start exits 1 with that message (no stack trace) instead of using the development identity provider", async () => {
    const run = await runMain({ GITHUB_CLIENT_ID: "github-client-id" });
    expect(run.listening).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "social-login: GITHUB_CLIENT_ID is set but GITHUB_CLIENT_SECRET is not\n",
    );
    const reverse = await runMain({ FACEBOOK_CLIENT_SECRET: "a-secret" });
    expect(reverse).toMatchObject({ code: 1, listening: false });
    expect(reverse.stderr).toContain("FACEBOOK_CLIENT_SECRET is set but FACEBOOK_CLIENT_ID is not");
    expect(reverse.stderr).not.toContain("a-secret");
  }, 60_000);

  it("the home page offers every provider, marking the development ones", async () => {
    const page = await home(undefined);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    for (const label of ["Google", "Microsoft", "GitHub", "Facebook", "Twitter"]) {
      expect(page.text).toContain(`Sign in with ${label}`);
    }
    expect(page.text.match(/development identity provider/g)).toHaveLength(4);
  });

  for (const provider of ["google", "microsoft", "facebook", "twitter"] as const) {
    it(`${provider}: signs in at the development identity provider; / shows the user, never the cookie`, async () => {
      const { done, session } = await login(provider);
      expect(done.status).toBe(302);
      expect(done.headers.get("location")).toBe("/");
      const setCookies = done.headers.getSetCookie();
      expect(setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(
        /; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/,
      );
      expect(setCookies.find((c) => c.startsWith("strata_oauth="))).toMatch(/Max-Age=0/);
      const page = await home(session);
      expect(page.text).toContain("Ada Lovelace");
      // Check 30: the session cookie's value is never in a page.
      expect(page.text).not.toContain(session);
      expect(page.text).toContain('<form method="post" action="/auth/logout">');
      expect(page.text).toContain(`/avatars/ada.svg`);
      expect(page.text).toContain(provider === "twitter" ? "no verified email" : "ada@example.com");
    });
  }

  it("github: /auth/github goes to the real GitHub with the client id from the environment", async () => {
    const { location } = await start("github");
    expect(`${location.origin}${location.pathname}`).toBe(
      "https://github.com/login/oauth/authorize",
    );
    expect(location.searchParams.get("client_id")).toBe("github-client-id");
    expect(location.searchParams.get("redirect_uri")).toBe(
      "http://localhost:3000/auth/github/callback",
    );
  });

  const withSession = (session: string | undefined) => ({
    headers: { cookie: `${SESSION_COOKIE}=${session}` },
  });

  it("the session cookie opens /me and /auth/session; a second sign-in is the same user under a new cookie; a forged one is 401", async () => {
    const first = await login("google", "grace");
    const again = await login("google", "grace");
    expect(again.session).not.toBe(first.session);
    const me = await request(app, "GET", "/me", withSession(again.session));
    expect(me.status).toBe(200);
    const user = me.body as { id: number; name: string; provider: string };
    expect(user).toMatchObject({ name: "Grace Hopper", provider: "google" });
    const firstMe = await request(app, "GET", "/auth/session", withSession(first.session));
    expect((firstMe.body as { id: number }).id).toBe(user.id);
    expect((await request(app, "GET", "/me")).status).toBe(401);
    const forged = `${again.session?.slice(0, -2)}xx`;
    expect((await request(app, "GET", "/me", withSession(forged))).status).toBe(401);
  });

  it("Cancel at the provider lands on / with an error, signed out", async () => {
    const { location, cookie } = await start("facebook");
    const callback = await signInAtDevIdp(location, { cancel: "1" });
    const done = await finish(callback, cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/?error=provider_error");
    const page = await request(app, "GET", "/?error=provider_error");
    expect(page.text).toContain(
      "Sign-in failed: the sign-in was cancelled or refused at the provider.",
    );
    const odd = await request(app, "GET", "/?error=%3Cscript%3E");
    expect(odd.text).not.toContain("<script>");
  });

  it("an error code named like a prototype member is answered as an unknown one (200, no 500)", async () => {
    for (const error of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const page = await request(app, "GET", `/?error=${error}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain("Sign-in failed: something went wrong.");
      expect(page.text).not.toContain("function");
    }
  });

  it("a malformed, tampered or foreign session cookie is answered with the page (200) and cleared", async () => {
    const { session } = await login("google", "grace");
    for (const value of ["%", "%E0%A4%A", "a.b.c", `${session?.slice(0, -2)}xx`, "__proto__"]) {
      const page = await home(value);
      expect(page.status).toBe(200);
      expect(page.text).toContain("Sign in with Google");
      expect(page.text).not.toContain("Grace Hopper");
      expect(page.headers.getSetCookie()).toEqual([
        expect.stringMatching(new RegExp(`^${SESSION_COOKIE}=; Max-Age=0;`)),
      ]);
    }
  });

  it("a forged callback is refused with 401 Invalid state; the sign-out form clears the session", async () => {
    const answer = await request(app, "GET", "/auth/github/callback?code=abc&state=forged");
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      statusCode: 401,
      message: "Invalid state",
      error: "invalid_state",
    });
    const { session } = await login("google");
    // The page's form, posted by a browser from the page's origin (the redirect URIs').
    const out = await request(app, "POST", "/auth/logout", {
      headers: { cookie: `${SESSION_COOKIE}=${session}`, origin: "http://localhost:3000" },
    });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/");
    expect(out.headers.getSetCookie()[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*Max-Age=0`));
    const crossSite = await request(app, "POST", "/auth/logout", {
      headers: { cookie: `${SESSION_COOKIE}=${session}`, origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
  });
});
