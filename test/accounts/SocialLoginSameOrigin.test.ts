// SECURITY.md 45 and 46 on examples/social-login, over real HTTP with the development identity
// provider: a link is started only from the app's own pages (`GET /auth/:provider?intent=link`
// refused cross-site, a plain sign-in still started from anywhere), and unlinking refuses
// cross-site requests as the logout does. Status, body, no cookie set, nothing written, the
// app still serving.
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

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "strata-same-origin-"));
  demo = await demoProviders({});
  app = new StrataApp(
    createAppModule({
      providers: demo.providers,
      development: demo.development,
      imageOrigins: demo.idp === undefined ? [] : [demo.idp.url],
      sessionSecret: "example-session-secret-0123456789-abcdefgh",
      sealingKey: "example-sealing-key-0123456789-abcdefghijkl",
      accountStore: { sqlite: { filename: join(dir, "accounts.db") } },
    }),
  );
  await app.listen(0);
});
afterAll(async () => {
  await app?.close();
  await demo?.idp?.close();
  await rm(dir, { recursive: true, force: true });
});

const FORBIDDEN = { statusCode: 403, message: "Forbidden" };
const EVIL = "http://evil.example";

const cookieValue = (setCookies: ReadonlyArray<string>, name: string) =>
  setCookies
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0]
    ?.slice(name.length + 1);

const withSession = (session: string | undefined, headers: Record<string, string> = {}) => ({
  headers: {
    ...headers,
    ...(session === undefined ? {} : { cookie: `${SESSION_COOKIE}=${session}` }),
  },
});

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

/** A full flow from the app's own page (`Sec-Fetch-Site: same-origin`), as a browser makes it. */
const flow = async (provider: SupportedProvider, user: string, query: string, session?: string) => {
  const started = await request(
    app,
    "GET",
    `/auth/${provider}${query}`,
    withSession(session, { "sec-fetch-site": "same-origin" }),
  );
  expect(started.status).toBe(302);
  const transaction = cookieValue(started.headers.getSetCookie(), "strata_oauth");
  const callback = await atDevIdp(new URL(started.headers.get("location") ?? ""), user);
  const cookie = `strata_oauth=${transaction}`;
  const done = await request(app, "GET", callback.pathname + callback.search, {
    headers: { cookie: session === undefined ? cookie : `${cookie}; ${SESSION_COOKIE}=${session}` },
  });
  expect(done.status).toBe(302);
  return cookieValue(done.headers.getSetCookie(), SESSION_COOKIE) as string;
};

/** The providers the home page lists as linked. */
const linkedOn = async (session: string) => {
  const page = await request(app, "GET", "/", withSession(session));
  const list = /<ul class="accounts" id="linked-accounts">([\s\S]*?)<\/ul>/.exec(page.text)?.[1];
  return [...(list ?? "").matchAll(/<li><span>(\w+) /g)].map((match) => match[1]);
};

/** Cross-site requests as browsers send them (and as an old browser does: `Origin` only). */
const crossSite: ReadonlyArray<Record<string, string>> = [
  { origin: EVIL },
  { origin: EVIL, "sec-fetch-site": "cross-site" },
  { "sec-fetch-site": "cross-site" },
  { "sec-fetch-site": "same-site" },
  { origin: "null", "sec-fetch-site": "cross-site" },
];

describe("examples/social-login: state-changing requests come from the app's own pages", () => {
  let ada: string;

  beforeAll(async () => {
    ada = await flow("google", "ada", "?errorRedirect=%2F");
    ada = await flow("github", "ada", "?intent=link&errorRedirect=%2F", ada);
    expect(await linkedOn(ada)).toEqual(["Google", "GitHub"]);
  });

  it("check 45: a link started from another site is 403: no transaction, no redirect to the provider", async () => {
    for (const headers of [
      ...crossSite,
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    ]) {
      const started = await request(
        app,
        "GET",
        "/auth/facebook?intent=link&errorRedirect=%2F",
        withSession(ada, headers),
      );
      const label = JSON.stringify(headers);
      expect(started.status, label).toBe(403);
      expect(started.body, label).toEqual(FORBIDDEN);
      expect(started.headers.get("location"), label).toBeNull();
      expect(started.headers.getSetCookie(), label).toEqual([]);
      expect(started.headers.get("cache-control"), label).toBe("no-store");
    }
    expect(await linkedOn(ada)).toEqual(["Google", "GitHub"]);
  });

  it("check 45: a link from the app's own page, typed in, or from a client sending neither header starts", async () => {
    const fromHere: ReadonlyArray<Record<string, string>> = [
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      {},
      { origin: app.getUrl() },
    ];
    for (const headers of fromHere) {
      const started = await request(
        app,
        "GET",
        "/auth/facebook?intent=link",
        withSession(ada, headers),
      );
      expect(started.status, JSON.stringify(headers)).toBe(302);
      expect(cookieValue(started.headers.getSetCookie(), "strata_oauth")).toBeDefined();
    }
  });

  it("check 45: a plain sign-in still starts from another site's link (sign-in starts from links)", async () => {
    for (const headers of crossSite) {
      const started = await request(app, "GET", "/auth/facebook", withSession(undefined, headers));
      expect(started.status, JSON.stringify(headers)).toBe(302);
      expect(new URL(started.headers.get("location") ?? "").origin).not.toBe(app.getUrl());
    }
  });

  it("check 46: unlink refuses cross-site requests (403, nothing unlinked) and takes same-origin ones", async () => {
    for (const headers of crossSite) {
      const refused = await request(
        app,
        "POST",
        "/accounts/github/unlink",
        withSession(ada, headers),
      );
      const label = JSON.stringify(headers);
      expect(refused.status, label).toBe(403);
      expect(refused.body, label).toEqual(FORBIDDEN);
      expect(refused.headers.get("location"), label).toBeNull();
      expect(refused.headers.getSetCookie(), label).toEqual([]);
    }
    expect(await linkedOn(ada)).toEqual(["Google", "GitHub"]);
    const fromPage = await request(
      app,
      "POST",
      "/accounts/github/unlink",
      withSession(ada, { origin: app.getUrl(), "sec-fetch-site": "same-origin" }),
    );
    expect(fromPage.status).toBe(303);
    expect(fromPage.headers.get("location")).toBe("/");
    expect(await linkedOn(ada)).toEqual(["Google"]);
  });

  it("check 46: the logout, the demo's other state-changing route, refuses the same requests", async () => {
    for (const headers of crossSite) {
      const refused = await request(app, "POST", "/auth/logout", withSession(ada, headers));
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);
    }
    expect(await linkedOn(ada)).toEqual(["Google"]);
  });
});
