// issue 26.2: a login that starts on one instance and ends on another, for every provider of
// the development identity provider; the state is single-use across instances; a session is
// valid on every instance and a logout on one ends it on all.
import { describe, expect, it } from "vitest";
import type { SupportedProvider } from "../../src/oauth/index.js";
import { cookiesOf, via } from "./support.js";

const providers: ReadonlyArray<SupportedProvider> = [
  "google",
  "microsoft",
  "github",
  "facebook",
  "twitter",
];

/** Starts a login at `instance`, signs in at the identity provider; the callback URL and cookie. */
const startLogin = async (provider: SupportedProvider, instance: number) => {
  const started = await via(`/auth/${provider}`, { instance });
  expect(started.status).toBe(302);
  const authorization = new URL(started.headers.get("location") ?? "");
  const page = await fetch(authorization, { redirect: "manual" });
  expect(page.status).toBe(200);
  const requestId = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  const posted = await fetch(authorization.origin + authorization.pathname, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request: requestId, user: "ada" }).toString(),
  });
  expect(posted.status).toBe(303);
  const callback = new URL(posted.headers.get("location") ?? "");
  return { callback: callback.pathname + callback.search, cookie: cookiesOf(started) };
};

describe("cluster: login across instances", () => {
  it.each(providers)(
    "%s: starts on instance 1, ends on instance 2; the replay on 3 is refused",
    async (provider) => {
      const { callback, cookie } = await startLogin(provider, 1);
      const done = await via(callback, { instance: 2, cookie });
      expect(done.status).toBe(302);
      expect(done.headers.get("location")).toBe("/");
      const session = cookiesOf(done);
      expect(session).not.toBe("");
      const replay = await via(callback, { instance: 3, cookie });
      expect(replay.status).not.toBe(302);
      expect(replay.status).toBeGreaterThanOrEqual(400);
      expect(cookiesOf(replay)).not.toContain(session);
    },
  );

  it("a session made on one instance is valid on the others; a logout on one ends it on all", async () => {
    const { callback, cookie } = await startLogin("github", 3);
    const session = cookiesOf(await via(callback, { instance: 1, cookie }));
    for (const instance of [1, 2, 3]) {
      const seen = await via("/auth/session", { instance, cookie: session });
      expect(seen.status).toBe(200);
    }
    const out = await via("/auth/logout", {
      instance: 2,
      cookie: session,
      init: { method: "POST", headers: { origin: "http://127.0.0.1:18080" } },
    });
    expect(out.status).toBeLessThan(400);
    for (const instance of [1, 2, 3]) {
      const seen = await via("/auth/session", { instance, cookie: session });
      expect(seen.status).toBe(401);
    }
  });
});
