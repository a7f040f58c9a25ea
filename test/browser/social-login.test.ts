// A person signing in to the `npm start` demo with Chromium: "Sign in with GitHub", a test
// user on the development identity provider's page, and back, signed in; a reload, still
// signed in; "Sign out". Checks what the browser kept: the page, its cookies, and every URL it
// navigated to. Linking: signed in with GitHub, "Link Google" runs the flow again and Google
// joins the same user; both stay listed after the demo restarts on the same SQLite file. Then
// the demo on the Redis session store: a cookie copied before signing out is refused after it
// (SECURITY.md 29).
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, launchChromium, type StartedApp, startApp } from "./support.js";

const ARTIFACTS = "test-artifacts/browser";
/** The screenshot of the README and docs/social-login.md: the demo signed in with GitHub. */
const DEMO_SCREENSHOT = "docs/demo.png";

let app: StartedApp;
let browser: Awaited<ReturnType<typeof launchChromium>>;
/** The demo's users and linked accounts (ACCOUNTS_DB), a throwaway SQLite file. */
let data: string;
const accountsDb = () => ({ ACCOUNTS_DB: join(data, "accounts.db") });

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), "strata-demo-data-"));
  app = await startApp(await freePort(), accountsDb());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await rm(data, { recursive: true, force: true });
});

/** Every URL the page's frames committed to, and every navigation request (redirects too). */
const recordNavigation = (page: Page) => {
  const committed: Array<string> = [];
  const requested: Array<string> = [];
  page.on("framenavigated", (frame) => committed.push(frame.url()));
  page.on("request", (request) => {
    if (request.isNavigationRequest()) requested.push(request.url());
  });
  page.on("response", (response) => {
    const location = response.headers().location;
    if (location !== undefined) requested.push(new URL(location, response.url()).toString());
  });
  return { committed, requested };
};

const cookieNames = async (context: BrowserContext) =>
  (await context.cookies()).map((cookie) => cookie.name);

/** The session cookie's name on http. */
const SESSION = "strata_session";

/** From the home page of `url`: GitHub, Ada Lovelace at the development identity provider, back. */
const signIn = async (page: Page, url: string) => {
  await page.goto(url);
  await page.getByRole("link", { name: /Sign in with GitHub/ }).click();
  await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/github\/login\/oauth\/authorize\?/);
  await page.getByRole("button", { name: /Continue as Ada Lovelace/ }).click();
  await page.waitForURL(`${url}/`);
  await expect(page.getByRole("heading", { name: "Signed in" }).isVisible()).resolves.toBe(true);
};

/** The signed-out home page: the sign-in buttons. */
const expectSignedOut = async (page: Page) =>
  expect(page.getByRole("link", { name: /Sign in with Google/ }).isVisible()).resolves.toBe(true);

describe("the npm start demo in Chromium", () => {
  it("prints one start line with the URL, and says which providers are development ones", () => {
    const lines = app.output().trim().split("\n");
    expect(lines[0]).toBe(`social-login: open ${app.url}`);
    expect(lines.slice(1).every((line) => line.includes("development identity provider"))).toBe(
      true,
    );
    expect(lines).toHaveLength(6);
  });

  it("GitHub sign-in through the development identity provider lands back signed in", async () => {
    const { context } = browser;
    const page = await context.newPage();
    const urls = recordNavigation(page);

    await page.goto(app.url);
    await page.getByRole("link", { name: /Sign in with GitHub/ }).click();
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/github\/login\/oauth\/authorize\?/);
    await expect(
      page.getByRole("heading", { name: "Sign in with GitHub" }).isVisible(),
    ).resolves.toBe(true);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}/dev-idp-sign-in.png`, fullPage: true });
    expect(await cookieNames(context)).toContain("strata_oauth");

    await page.getByRole("button", { name: /Continue as Ada Lovelace/ }).click();
    await page.waitForURL(`${app.url}/`);

    // The page shows the user, never the session.
    await expect(page.getByRole("heading", { name: "Signed in" }).isVisible()).resolves.toBe(true);
    expect(await page.locator("#user-name").textContent()).toBe("Ada Lovelace");
    const body = (await page.locator("main").textContent()) ?? "";
    expect(body).toContain("ada@example.com");
    expect(body).toContain("GitHub");
    expect(
      await page.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);

    // The state (transaction) cookie is gone; the session cookie is HttpOnly, Lax, not in the page.
    const cookies = await context.cookies();
    expect(cookies.map((cookie) => cookie.name)).not.toContain("strata_oauth");
    const session = cookies.find((cookie) => cookie.name === SESSION);
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    const sessionValue = session?.value ?? "";
    expect(sessionValue.length).toBeGreaterThan(20);
    expect(await page.content()).not.toContain(sessionValue);

    // No token, code or verifier in any URL the browser kept in its history...
    expect(urls.committed).toEqual([
      `${app.url}/`,
      expect.stringMatching(/\/github\/login\/oauth\/authorize\?/),
      `${app.url}/`,
    ]);
    for (const url of urls.committed) {
      expect(url).not.toMatch(
        /[?&#](code|access_token|refresh_token|id_token|token|code_verifier)=/,
      );
    }
    // The tab's history: its first about:blank, then exactly those three.
    expect(await page.evaluate(() => window.history.length)).toBe(urls.committed.length + 1);
    // ...nor, apart from the authorization code on its one callback hop, in any URL it requested.
    const all = urls.requested.join("\n");
    expect(all).not.toContain(sessionValue);
    expect(all).not.toMatch(/access_token|refresh_token|id_token|code_verifier|verifier=/);
    const withCode = urls.requested.filter((url) => /[?&]code=/.test(url));
    expect(new Set(withCode.map((url) => new URL(url).pathname))).toEqual(
      new Set(["/auth/github/callback"]),
    );

    await page.screenshot({ path: `${ARTIFACTS}/signed-in.png`, fullPage: true });
    // The README's screenshot is this page, written by every run: it shows what the demo shows.
    await copyFile(`${ARTIFACTS}/signed-in.png`, DEMO_SCREENSHOT);

    // Reload: still signed in, the same session.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Signed in" }).isVisible()).resolves.toBe(true);
    expect(await page.locator("#user-name").textContent()).toBe("Ada Lovelace");

    // Sign out (the page's POST form): back to the sign-in buttons, the session cookie gone.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${app.url}/`);
    await expectSignedOut(page);
    expect(await cookieNames(context)).not.toContain(SESSION);
    await page.reload();
    await expectSignedOut(page);
    await page.close();
  });
});

/** The providers the page lists as linked. */
const linkedProviders = async (page: Page) =>
  (await page.locator("#linked-accounts li > span").allTextContents()).map(
    (text) => text.split(" ")[0],
  );

describe("linking a second provider in Chromium", () => {
  it("signed in with GitHub, 'Link Google' adds Google to the same user; after a restart on the same data file, both are still there", async () => {
    const page = await browser.context.newPage();
    await signIn(page, app.url);
    const userId = await page.locator("#user-id").textContent();
    expect(await linkedProviders(page)).toEqual(["GitHub"]);

    await page.getByRole("link", { name: "Link Google" }).click();
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/google\/o\/oauth2\/v2\/auth\?/);
    await page.getByRole("button", { name: /Continue as Ada Lovelace/ }).click();
    await page.waitForURL(`${app.url}/`);
    await expect(page.getByRole("heading", { name: "Signed in" }).isVisible()).resolves.toBe(true);
    expect(await page.locator("#user-id").textContent()).toBe(userId);
    expect(await linkedProviders(page)).toEqual(["GitHub", "Google"]);
    expect(await page.getByRole("link", { name: "Link Google" }).count()).toBe(0);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}/linked.png`, fullPage: true });
    await page.close();

    // A new process on the same file (and a new session secret: sign in again, with Google).
    await app.stop();
    app = await startApp(await freePort(), accountsDb());
    const fresh = await launchChromium();
    try {
      const again = await fresh.context.newPage();
      await again.goto(app.url);
      await again.getByRole("link", { name: /Sign in with Google/ }).click();
      await again.getByRole("button", { name: /Continue as Ada Lovelace/ }).click();
      await again.waitForURL(`${app.url}/`);
      expect(await again.locator("#user-id").textContent()).toBe(userId);
      expect(await linkedProviders(again)).toEqual(["GitHub", "Google"]);
    } finally {
      await fresh.close();
    }
  });
});

describe("the npm start demo on the Redis session store (SESSION_STORE=redis)", () => {
  let redisApp: StartedApp;
  let other: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    const redis = inject("redis");
    if ("error" in redis) throw new Error(`No Redis for the browser test: ${redis.error}`);
    redisApp = await startApp(await freePort(), {
      ...accountsDb(),
      SESSION_STORE: "redis",
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
    });
    other = await launchChromium();
  });
  afterAll(async () => {
    await other?.close();
    await redisApp?.stop();
  });

  it("check 29: a session cookie copied before signing out is refused after it", async () => {
    const page = await other.context.newPage();
    await signIn(page, redisApp.url);
    const copied = (await other.context.cookies()).find((cookie) => cookie.name === SESSION);
    expect(copied?.value).toMatch(/^[A-Za-z0-9_-]{43}$/); // only a random 256-bit id

    // A second browser holding the copy is signed in too...
    const thief = await launchChromium();
    try {
      await thief.context.addCookies([{ ...(copied as NonNullable<typeof copied>) }]);
      const stolen = await thief.context.newPage();
      await stolen.goto(redisApp.url);
      await expect(stolen.getByRole("heading", { name: "Signed in" }).isVisible()).resolves.toBe(
        true,
      );

      // ...until the user signs out: the session is deleted from Redis, the copy is refused.
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${redisApp.url}/`);
      await expectSignedOut(page);
      await stolen.reload();
      await expectSignedOut(stolen);
      const check = await fetch(`${redisApp.url}/auth/session`, {
        headers: { cookie: `${SESSION}=${copied?.value}` },
      });
      expect(check.status).toBe(401);
    } finally {
      await thief.close();
    }
  });
});
