// examples/custom-flow: the app's own login routes with OAuthService, validateState and an
// httpOnly SameSite=Lax cookie; the providers' network intercepted (undici MockAgent).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppModule } from "../../examples/custom-flow/app.js";
import { StrataApp } from "../../src/index.js";
import { nonceHash } from "../../src/oauth/OAuthAuthorization.js";
import { request } from "../../src/testing/index.js";
import { fullTokens, idToken } from "../oauth/fixtures.js";
import { form, mockNetwork } from "../oauth/support/network.js";
import { mockLogin, tokenRequests } from "../oauth/support/providerNetwork.js";

const net = mockNetwork();

const redirect = (provider: string) => `http://localhost:3000/login/${provider}/callback`;

describe("examples/custom-flow", () => {
  const app = new StrataApp(
    createAppModule({
      providers: {
        google: { clientId: "g", clientSecret: "gs", redirectUri: redirect("google") },
        github: { clientId: "h", clientSecret: "hs", redirectUri: redirect("github") },
      },
    }),
  );
  beforeAll(() => app.listen(0));
  afterAll(() => app.close());

  const start = async (provider: string) => {
    const started = await request(app, "GET", `/login/${provider}`);
    expect(started.status).toBe(302);
    const setCookie = started.headers.getSetCookie()[0] ?? "";
    const location = new URL(started.headers.get("location") ?? "");
    return {
      setCookie,
      cookie: setCookie.split(";")[0] ?? "",
      location,
      state: location.searchParams.get("state") ?? "",
    };
  };

  it("the built-in routes are off", async () => {
    expect((await request(app, "GET", "/auth/google")).status).toBe(404);
  });

  it("start keeps state, verifier and nonce in an httpOnly SameSite=Lax cookie", async () => {
    const flow = await start("google");
    expect(flow.setCookie).toMatch(
      /^oauth_flow=[A-Za-z0-9_-]{43}~google\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(flow.cookie).toContain(flow.state);
    // The URL carries the nonce's hash, never the nonce kept in the cookie.
    const nonce = flow.cookie.split(".")[2] ?? "";
    expect(flow.location.searchParams.get("nonce")).toBe(nonceHash(nonce));
    expect(flow.location.toString()).not.toContain(nonce);
    expect(flow.location.toString()).not.toContain(flow.cookie.split(".")[1]);
  });

  it("the callback checks the ID token's nonce against the stored one", async () => {
    const flow = await start("google");
    const nonce = flow.cookie.split(".")[2] ?? "";
    const login = (claim: string) =>
      mockLogin(net, "google", { json: fullTokens({ id_token: idToken({ nonce: claim }) }) });
    login(nonceHash(nonce));
    const ok = await request(app, "GET", `/login/google/callback?code=c&state=${flow.state}`, {
      headers: { cookie: flow.cookie },
    });
    expect(ok.status).toBe(200);
    const other = await start("google");
    login(nonceHash(nonce)); // the first login's ID token, replayed into the second
    const replayed = await request(
      app,
      "GET",
      `/login/google/callback?code=c&state=${other.state}`,
      { headers: { cookie: other.cookie } },
    );
    expect(replayed.status).toBe(502);
    expect(replayed.body).toEqual({
      statusCode: 502,
      message: "The provider answered with a malformed token response",
    });
  });

  it("check 6: a flow begun for google is refused at /login/github/callback, without a token request", async () => {
    const flow = await start("google");
    mockLogin(net, "github");
    const answer = await request(app, "GET", `/login/github/callback?code=c&state=${flow.state}`, {
      headers: { cookie: flow.cookie },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ statusCode: 401, message: "Invalid state" });
    expect(answer.headers.getSetCookie()[0]).toContain("oauth_flow=; Max-Age=0");
    expect(tokenRequests(net)).toEqual([]);
  });

  it("prototype names, malformed cookies and repeated parameters are 4xx, never 500", async () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      expect((await request(app, "GET", `/login/${name}`)).status).toBe(404);
      expect((await request(app, "GET", `/login/${name}/callback?code=c&state=s`)).status).toBe(
        401,
      );
    }
    const flow = await start("github");
    for (const [query, cookie] of [
      [`?code=c&state=${flow.state}`, "oauth_flow=%"],
      [`?code=c&state=${flow.state}`, "oauth_flow=%E0%A4%A"],
      [`?code=c&state=${flow.state}`, "oauth_flow=__proto__"],
      [`?code=c&state=${flow.state}&state=${flow.state}`, flow.cookie],
      ["?code=c&state=%", flow.cookie],
    ]) {
      const answer = await request(app, "GET", `/login/github/callback${query}`, {
        headers: { cookie },
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ statusCode: 401, message: "Invalid state" });
      expect(answer.headers.getSetCookie()).toEqual([
        expect.stringMatching(/^oauth_flow=; Max-Age=0;/),
      ]);
    }
    expect(tokenRequests(net)).toEqual([]);
  });

  it("the callback validates the state, then exchanges the code with the stored verifier", async () => {
    const flow = await start("google");
    mockLogin(net, "google");
    const answer = await request(app, "GET", `/login/google/callback?code=c&state=${flow.state}`, {
      headers: { cookie: flow.cookie },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      provider: "google",
      user: { id: "110169484474386276334", email: "ada@example.com" },
      hasRefreshToken: true,
    });
    expect(form(tokenRequests(net)[0]).code_verifier).toBe(flow.cookie.split(".")[1]);
    expect(form(tokenRequests(net)[0]).redirect_uri).toBe(redirect("google"));
    expect(answer.headers.getSetCookie()[0]).toContain("oauth_flow=; Max-Age=0");
  });

  it("a mismatching or missing state is 401 Invalid state, without a token request", async () => {
    const flow = await start("github");
    mockLogin(net, "github");
    const wrong = await request(app, "GET", "/login/github/callback?code=c&state=other", {
      headers: { cookie: flow.cookie },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ statusCode: 401, message: "Invalid state" });
    const noCookie = await request(app, "GET", `/login/github/callback?code=c&state=${flow.state}`);
    expect(noCookie.status).toBe(401);
    expect(tokenRequests(net)).toEqual([]);
  });

  it("a rejected code is the service's 401", async () => {
    const flow = await start("github");
    net.on("POST", "https://github.com/login/oauth/access_token", {
      json: { error: "bad_verification_code" },
    });
    const answer = await request(app, "GET", `/login/github/callback?code=c&state=${flow.state}`, {
      headers: { cookie: flow.cookie },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ statusCode: 401, message: "Authorization code rejected" });
    expect(answer.headers.getSetCookie()[0]).toContain("oauth_flow=; Max-Age=0");
  });
});
