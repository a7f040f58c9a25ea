// examples/effect-social-login as `npm run example:effect-social-login` runs it, without
// credentials: a child process on a free port whose providers all sign in at the development
// identity provider (Providers.ts). A browser is played by hand over real HTTP: a cookie jar
// on http://localhost:<port>, redirects followed one by one, the sign-in page's form posted.
import { afterEach, describe, expect, it } from "vitest";
import { CookieJar } from "../support/cookieJar.js";
import { freePort } from "../support/freePort.js";
import { pickUser, type RunningScript, runScript } from "./runScript.js";

const SESSION = "strata_session";

const runs: Array<RunningScript> = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.stop()));
});

/** The example's main.ts on a free port, with no provider variable but those of `env`. */
const runExample = async (env: Record<string, string> = {}) => {
  const run = await runScript("examples/effect-social-login/main.ts", await freePort(), env);
  runs.push(run);
  return run;
};

const providers = ["google", "microsoft", "github", "facebook", "twitter"] as const;

describe("examples/effect-social-login without credentials", () => {
  it("every provider signs in at the development identity provider: / and /me answer the user, signing out ends the session", async () => {
    const run = await runExample();
    const lines = run.output().trim().split("\n");
    const idp = /development identity provider at (http:\/\/127\.0\.0\.1:\d+)/.exec(
      run.output(),
    )?.[1];
    expect(idp).toBeDefined();
    for (const name of providers) {
      expect(lines.some((line) => line.includes(`${name}: development identity provider at`))).toBe(
        true,
      );
    }

    const jar = new CookieJar(run.url);
    const home = await jar.fetch("GET", "/");
    expect(home).toMatchObject({
      status: 200,
      body: { signedIn: false, signIn: providers.map((name) => `/auth/${name}`) },
    });

    for (const name of providers) {
      // /auth/<provider> -> the development identity provider, with the transaction cookie.
      const started = await jar.fetch("GET", `/auth/${name}`);
      expect(started.status).toBe(302);
      const authorization = new URL(started.headers.get("location") ?? "");
      expect(authorization.origin).toBe(idp);
      expect(authorization.searchParams.get("redirect_uri")).toBe(
        `${run.url}/auth/${name}/callback`,
      );
      expect(jar.get("strata_oauth")).toBeDefined();

      // Ada Lovelace on its page -> back to the app's callback, on the app's own origin.
      const callback = await pickUser(authorization, "ada");
      expect(callback.origin).toBe(run.url);
      expect(callback.pathname).toBe(`/auth/${name}/callback`);
      const done = await jar.fetch("GET", callback.pathname + callback.search);
      // Signed in with an HttpOnly session cookie and sent home: no body, no token anywhere.
      expect(done).toMatchObject({ status: 302, text: "" });
      expect(done.headers.get("location")).toBe("/");
      expect(done.setCookies.find((c) => c.startsWith(`${SESSION}=`))).toMatch(
        /; Path=\/; HttpOnly; SameSite=Lax$/,
      );
      expect(jar.get("strata_oauth")).toBeUndefined();
      const session = jar.get(SESSION) ?? "";
      expect(session.length).toBeGreaterThan(20);

      // Home answers (the loop ends somewhere), and so does /me; neither shows the cookie.
      const landed = await jar.fetch("GET", "/");
      expect(landed.status).toBe(200);
      expect(landed.body).toMatchObject({
        signedIn: true,
        user: { account: expect.stringMatching(new RegExp(`^${name}:`)), name: "Ada Lovelace" },
        signOut: "POST /auth/logout",
      });
      const me = await jar.fetch("GET", "/me");
      expect(me.status).toBe(200);
      expect(me.body).toEqual((landed.body as { user: unknown }).user);
      for (const answer of [landed, me]) {
        expect(answer.text).not.toContain(session);
        expect(answer.text).not.toMatch(/access_token|refresh_token|id_token|code_verifier/);
      }

      const out = await jar.fetch("POST", "/auth/logout", { headers: { origin: run.url } });
      expect(out.status).toBe(204);
      expect(jar.get(SESSION)).toBeUndefined();
      expect((await jar.fetch("GET", "/me")).status).toBe(401);
      expect((await jar.fetch("GET", "/")).body).toMatchObject({ signedIn: false });
    }
    expect(run.output()).not.toMatch(/error|fail/i);
  }, 60_000);

  it("a provider configured in the environment goes to the real one; the other four to the development identity provider", async () => {
    const run = await runExample({
      GITHUB_CLIENT_ID: "github-client-id",
      GITHUB_CLIENT_SECRET: "github-secret",
      OAUTH_REDIRECT_URI: "http://localhost:3000/auth/{provider}/callback",
    });
    const development = run
      .output()
      .split("\n")
      .filter((line) => line.includes("development identity provider at"));
    expect(development).toHaveLength(4);
    expect(run.output()).not.toContain("github: development identity provider");
    const started = await new CookieJar(run.url).fetch("GET", "/auth/github");
    const location = new URL(started.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(
      "https://github.com/login/oauth/authorize",
    );
    expect(location.searchParams.get("client_id")).toBe("github-client-id");
    expect(run.output()).not.toContain("github-secret");
  }, 60_000);

  it("a provider half configured refuses to start (exit 1), naming the missing variable, never the secret", async () => {
    const run = await runExample({ GITHUB_CLIENT_SECRET: "a-github-secret" });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("GITHUB_CLIENT_ID is required when GITHUB_CLIENT_SECRET is set");
    expect(run.output()).not.toContain("a-github-secret");
    expect(run.output()).not.toContain("development identity provider at");
  }, 60_000);

  it("NODE_ENV=production with a provider unconfigured refuses to start (exit 1), saying why", async () => {
    const run = await runExample({ NODE_ENV: "production" });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(
      "The development identity provider refuses to start with NODE_ENV=production",
    );
    expect(run.output()).not.toContain("listening on");
  }, 60_000);
});
