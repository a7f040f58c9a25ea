// examples/social-login's accounts over real HTTP: users kept by Accounts in an embedded SQLite
// file, a second provider linked to the signed-in user (`/auth/:provider?intent=link`), the
// link's failures (no session, another intent, an account of another user: status and body,
// nothing leaked, nothing written), unlinking, and the same user and links in a fresh app on
// the same file. Every provider signs in at the development identity provider.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppModule } from "../../examples/social-login/app.js";
import { type DemoProviders, demoProviders } from "../../examples/social-login/providers.js";
import { StrataApp } from "../../src/index.js";
import type { SupportedProvider } from "../../src/oauth/index.js";
import { DEFAULT_COOKIE_NAME as SESSION_COOKIE } from "../../src/session/index.js";
import { request } from "../../src/testing/index.js";

let demo: DemoProviders;
let dir: string;
let app: StrataApp;

const makeApp = async () => {
  const made = new StrataApp(
    createAppModule({
      providers: demo.providers,
      development: demo.development,
      imageOrigins: demo.idp === undefined ? [] : [demo.idp.url],
      sessionSecret: "example-session-secret-0123456789-abcdefgh",
      sealingKey: "example-sealing-key-0123456789-abcdefghijkl",
      accountStore: { sqlite: { filename: join(dir, "accounts.db") } },
    }),
  );
  await made.listen(0);
  return made;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "strata-social-login-"));
  demo = await demoProviders({});
  app = await makeApp();
});
afterAll(async () => {
  await app?.close();
  await demo?.idp?.close();
  await rm(dir, { recursive: true, force: true });
});

const cookieValue = (setCookies: ReadonlyArray<string>, name: string) =>
  setCookies
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0]
    ?.slice(name.length + 1);

const withSession = (session: string | undefined, extra = "") => ({
  headers: { cookie: `${SESSION_COOKIE}=${session}${extra}` },
});

/** `/auth/<provider><query>` with the session, if any: the response, the provider URL, the transaction cookie. */
const start = async (provider: SupportedProvider, query: string, session?: string) => {
  const started = await request(
    app,
    "GET",
    `/auth/${provider}${query}`,
    session === undefined ? {} : withSession(session),
  );
  const transaction = cookieValue(started.headers.getSetCookie(), "strata_oauth");
  return {
    started,
    location: new URL(started.headers.get("location") ?? "http://invalid/"),
    cookie: `strata_oauth=${transaction}`,
  };
};

/** Answers the development identity provider's sign-in page as `user`; returns the callback URL. */
const atDevIdp = async (authorization: URL, user: string) => {
  const page = await fetch(authorization, { redirect: "manual" });
  const requestId = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  const posted = await fetch(authorization.origin + authorization.pathname, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request: requestId, user }).toString(),
  });
  expect(posted.status).toBe(303);
  return new URL(posted.headers.get("location") ?? "");
};

/** A full flow: start (with the session, if any), the provider as `user`, the callback. */
const flow = async (
  provider: SupportedProvider,
  user: string,
  options: { query?: string; session?: string; callbackSession?: string | null } = {},
) => {
  const { started, location, cookie } = await start(provider, options.query ?? "", options.session);
  expect(started.status).toBe(302);
  const callback = await atDevIdp(location, user);
  const session =
    options.callbackSession === null ? undefined : (options.callbackSession ?? options.session);
  const done = await request(app, "GET", callback.pathname + callback.search, {
    headers: {
      cookie: session === undefined ? cookie : `${cookie}; ${SESSION_COOKIE}=${session}`,
    },
  });
  return { done, session: cookieValue(done.headers.getSetCookie(), SESSION_COOKIE) };
};

const signIn = async (provider: SupportedProvider, user: string) => {
  const { done, session } = await flow(provider, user, { query: "?errorRedirect=%2F" });
  expect(done.status).toBe(302);
  expect(session).toBeDefined();
  return session as string;
};

interface Me {
  readonly id: string;
  readonly name: string;
  readonly provider: string;
}
const me = async (session: string) =>
  (await request(app, "GET", "/me", withSession(session))).body as Me;

/** The providers the home page lists as linked. */
const linkedOn = async (session: string) => {
  const page = await request(app, "GET", "/", withSession(session));
  const list = /<ul class="accounts" id="linked-accounts">([\s\S]*?)<\/ul>/.exec(page.text)?.[1];
  return [...(list ?? "").matchAll(/<li><span>(\w+) /g)].map((match) => match[1]);
};

describe("examples/social-login: accounts and linking", () => {
  let ada: string;
  let adaId: string;

  it("a first sign-in creates the user (a random string id); a returning one finds it", async () => {
    ada = await signIn("google", "ada");
    const user = await me(ada);
    expect(user).toMatchObject({ name: "Ada Lovelace", provider: "google" });
    expect(user.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    adaId = user.id;
    expect((await me(await signIn("google", "ada"))).id).toBe(adaId);
    expect(await linkedOn(ada)).toEqual(["Google"]);
  });

  it("links GitHub to the signed-in user: back home under a new session, both listed, GitHub then signs in as the same user", async () => {
    const { done, session } = await flow("github", "ada", {
      query: "?intent=link&errorRedirect=%2F",
      session: ada,
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    expect(session).toBeDefined();
    expect(session).not.toBe(ada);
    ada = session as string;
    expect(await me(ada)).toMatchObject({ id: adaId, provider: "google" });
    expect(await linkedOn(ada)).toEqual(["Google", "GitHub"]);
    const viaGithub = await signIn("github", "ada");
    expect(await me(viaGithub)).toMatchObject({ id: adaId, provider: "github" });
  });

  it("a link without a session is 401 session_required, with no transaction started", async () => {
    const { started } = await start("facebook", "?intent=link");
    expect(started.status).toBe(401);
    expect(started.body).toEqual({
      statusCode: 401,
      message: "Sign in before linking an account",
      error: "session_required",
    });
    expect(started.headers.getSetCookie()).toEqual([]);
    expect(started.headers.get("cache-control")).toBe("no-store");
  });

  it("any other intent is 400 invalid_intent", async () => {
    for (const intent of ["signin", "LINK", "link&intent=link"]) {
      const { started } = await start("facebook", `?intent=${intent}`, ada);
      expect(started.status).toBe(400);
      expect(started.body).toEqual({
        statusCode: 400,
        message: "Invalid intent",
        error: "invalid_intent",
      });
    }
  });

  it("a link whose session is gone by the callback is 401 session_required, nothing linked", async () => {
    const { done, session } = await flow("facebook", "ada", {
      query: "?intent=link",
      session: ada,
      callbackSession: null,
    });
    expect(done.status).toBe(401);
    expect(done.body).toEqual({
      statusCode: 401,
      message: "Sign in before linking an account",
      error: "session_required",
    });
    expect(session).toBeUndefined();
    expect(await linkedOn(ada)).toEqual(["Google", "GitHub"]);
  });

  it("a link lands only on the user who started it: another user signed in by the callback is 401 session_required, nothing linked to either", async () => {
    const alan = await signIn("microsoft", "alan");
    const { done, session } = await flow("twitter", "ada", {
      query: "?intent=link",
      session: ada,
      callbackSession: alan,
    });
    expect(done.status).toBe(401);
    expect(done.body).toEqual({
      statusCode: 401,
      message: "Sign in before linking an account",
      error: "session_required",
    });
    expect(session).toBeUndefined();
    expect(await linkedOn(ada)).toEqual(["Google", "GitHub"]);
    expect(await linkedOn(alan)).toEqual(["Microsoft"]);
  });

  it("an account linked to another user is a 409 account_conflict: nothing leaked, nothing written, the session kept", async () => {
    const grace = await signIn("facebook", "grace");
    const graceId = (await me(grace)).id;
    expect(graceId).not.toBe(adaId);

    const { done, session } = await flow("facebook", "grace", {
      query: "?intent=link",
      session: ada,
    });
    expect(done.status).toBe(409);
    expect(done.body).toEqual({
      statusCode: 409,
      message: "This account is already linked to another user",
      error: "account_conflict",
    });
    expect(done.text).not.toMatch(/grace|Grace|10\d{15}|token/);
    expect(session).toBeUndefined(); // no new session; the old one still works
    expect(done.headers.getSetCookie().find((c) => c.startsWith("strata_oauth="))).toMatch(
      /Max-Age=0/,
    );
    expect(await linkedOn(ada)).toEqual(["Google", "GitHub"]);
    expect(await linkedOn(grace)).toEqual(["Facebook"]);

    // From the page (errorRedirect): home with the code, which the page explains.
    const fromPage = await flow("facebook", "grace", {
      query: "?intent=link&errorRedirect=%2F",
      session: ada,
    });
    expect(fromPage.done.status).toBe(302);
    expect(fromPage.done.headers.get("location")).toBe("/?error=account_conflict");
    const page = await request(app, "GET", "/?error=account_conflict", withSession(ada));
    expect(page.text).toContain("Linking failed: that account is already linked to another user.");
  });

  it("unlinks an account, never the last one", async () => {
    const unlink = (provider: string, session: string) =>
      request(app, "POST", `/accounts/${provider}/unlink`, withSession(session));
    const out = await unlink("github", ada);
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/");
    expect(await linkedOn(ada)).toEqual(["Google"]);
    const last = await unlink("google", ada);
    expect(last.status).toBe(303);
    expect(last.headers.get("location")).toBe("/?error=last_account");
    expect(await linkedOn(ada)).toEqual(["Google"]);
    expect((await request(app, "POST", "/accounts/google/unlink")).status).toBe(401);
    // Linked again, for the restart below.
    const { done, session } = await flow("github", "ada", { query: "?intent=link", session: ada });
    expect(done.status).toBe(302);
    ada = session as string;
    expect(await linkedOn(ada)).toEqual(["Google", "GitHub"]);
  });

  it("a fresh app on the same SQLite file has the same users and links", async () => {
    await app.close();
    app = await makeApp();
    const again = await signIn("github", "ada");
    expect(await me(again)).toMatchObject({ id: adaId, name: "Ada Lovelace" });
    expect(await linkedOn(again)).toEqual(["Google", "GitHub"]);
    expect(await linkedOn(await signIn("facebook", "grace"))).toEqual(["Facebook"]);
  });
});
