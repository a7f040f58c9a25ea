// End to end against an OAuth server nobody here wrote: oidc-provider (certified OpenID
// Connect) on loopback. The generic `oidc` provider and an endpoint-overridden `google`
// provider complete the whole flow through Strata's real routes: GET /auth/:provider, the
// issuer's authorization endpoint and interaction (login and consent answered by the test),
// the callback, the JSON result. Then oidc-provider's own checks, seen through Strata's
// statuses: single-use codes, PKCE, and the `iss` of the authorization response.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Redacted from "effect/Redacted";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAuth, OAuthRoutes, TransactionSealer, TransactionStore } from "../../src/oauth/index.js";
import { layerNode, serve } from "../../src/server/StrataServer.js";
import {
  ACCOUNT,
  Browser,
  freePort,
  type RunningIssuer,
  startIssuer,
} from "./oidc-provider.support.js";

const SECRET = "e2e-client-secret-0123456789abcdef";
const KEY = "e2e-sealing-key-0123456789-abcdefghijklmnop";

let issuer: RunningIssuer;
let app: string;
let runtime: ManagedRuntime.ManagedRuntime<never, unknown>;

const callbackOf = (provider: string) => `${app}/auth/${provider}/callback`;

beforeAll(async () => {
  const port = await freePort();
  app = `http://127.0.0.1:${port}`;
  issuer = await startIssuer([
    {
      client_id: "strata-oidc",
      client_secret: SECRET,
      redirect_uris: [callbackOf("keycloak")],
      token_endpoint_auth_method: "client_secret_basic",
    },
    {
      client_id: "strata-google",
      client_secret: SECRET,
      redirect_uris: [callbackOf("google")],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ]);
  const config = {
    providers: {
      keycloak: {
        type: "oidc" as const,
        issuer: issuer.issuer,
        clientId: "strata-oidc",
        clientSecret: SECRET,
        redirectUri: callbackOf("keycloak"),
      },
      google: {
        clientId: "strata-google",
        clientSecret: SECRET,
        redirectUri: callbackOf("google"),
        endpoints: {
          authorization: `${issuer.issuer}/auth`,
          token: `${issuer.issuer}/token`,
          revocation: `${issuer.issuer}/token/revocation`,
          api: issuer.issuer,
        },
      },
    },
  };
  const store = Layer.provide(
    TransactionStore.layerCookie,
    TransactionSealer.layer(Redacted.make(KEY)),
  );
  const server = serve(
    OAuthRoutes.layer().pipe(
      Layer.provide(Layer.mergeAll(OAuth.layer(config), store)),
      Layer.provide(FetchHttpClient.layer),
    ),
  ).pipe(Layer.provide(layerNode({ port, host: "127.0.0.1" })));
  runtime = ManagedRuntime.make(server as Layer.Layer<never, unknown>);
  await runtime.runtime();
});

afterAll(async () => {
  await runtime?.dispose();
  await issuer?.close();
});

/** Starts a login in `browser` and follows it to the callback URL the issuer redirects to. */
const toCallback = async (browser: Browser, provider: string) => {
  const start = await browser.get(`${app}/auth/${provider}`);
  expect(start.status).toBe(302);
  expect(start.location?.startsWith(`${issuer.issuer}/auth?`)).toBe(true);
  const callback = await browser.followUntil(start.location ?? "", callbackOf(provider));
  return { start, callback, cookie: browser.cookies.get("strata_oauth") ?? "" };
};

/** GETs a callback URL with the transaction cookie `cookie`. */
const complete = async (url: URL | string, cookie: string) => {
  const response = await fetch(url, {
    redirect: "manual",
    headers: { cookie: `strata_oauth=${cookie}` },
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
};

describe.each(["keycloak", "google"])("oidc-provider, %s", (provider) => {
  it("the whole flow: authorize, login and consent at the issuer, callback, JSON with the user", async () => {
    const browser = new Browser();
    const { start, callback, cookie } = await toCallback(browser, provider);
    const authorize = new URL(start.location ?? "");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("nonce")).toMatch(/^[\w-]{43}$/);
    expect(callback.searchParams.get("iss")).toBe(issuer.issuer);
    expect(callback.searchParams.get("code")).toBeTruthy();
    const result = await complete(callback, cookie);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      accessToken: expect.any(String),
      user: { id: ACCOUNT.sub, email: ACCOUNT.email, name: ACCOUNT.name, picture: ACCOUNT.picture },
    });
  });

  it("a code is single-use: redeemed again under a fresh transaction -> 401 code_rejected", async () => {
    const browser = new Browser();
    const first = await toCallback(browser, provider);
    expect((await complete(first.callback, first.cookie)).status).toBe(200);
    // A new, valid transaction (state, verifier, nonce) that presents the spent code.
    const second = await browser.get(`${app}/auth/${provider}`);
    const state = new URL(second.location ?? "").searchParams.get("state") ?? "";
    const replay = new URL(first.callback);
    replay.searchParams.set("state", state);
    const result = await complete(replay, browser.cookies.get("strata_oauth") ?? "");
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ error: "code_rejected" });
  });

  it("PKCE: the code under another transaction's verifier -> 401; its own verifier still works", async () => {
    const browser = new Browser();
    const first = await toCallback(browser, provider);
    const second = await browser.get(`${app}/auth/${provider}`);
    const state = new URL(second.location ?? "").searchParams.get("state") ?? "";
    const stolen = new URL(first.callback);
    stolen.searchParams.set("state", state);
    const refused = await complete(stolen, browser.cookies.get("strata_oauth") ?? "");
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: "code_rejected" });
    // The same code with the verifier it was issued for: oidc-provider refused the verifier, not the code.
    expect((await complete(first.callback, first.cookie)).status).toBe(200);
  });

  it("a tampered or missing iss -> 401 invalid_state, the code never redeemed", async () => {
    const browser = new Browser();
    const { callback, cookie } = await toCallback(browser, provider);
    const tampered = new URL(callback);
    tampered.searchParams.set("iss", "http://127.0.0.1:1");
    const result = await complete(tampered, cookie);
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ error: "invalid_state", message: "Invalid state" });
    // The transaction is spent (single use), so the genuine callback is refused too.
    expect((await complete(callback, cookie)).status).toBe(401);
    if (provider === "keycloak") {
      // oidc-provider announces RFC 9207 support: the generic provider requires `iss`.
      const again = await toCallback(new Browser(), provider);
      const missing = new URL(again.callback);
      missing.searchParams.delete("iss");
      expect((await complete(missing, again.cookie)).status).toBe(401);
    }
  });
});
