// The development identity provider's guarantees, on the Effect face: it refuses production
// and non-loopback hosts; codes are single-use, short-lived (TestClock) and bound to the
// redirect URI, client and PKCE challenge; the sign-in page is strict HTML.
import { describe, expect, it } from "@effect/vitest";
import * as ConfigProvider from "effect/ConfigProvider";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as TestClock from "effect/TestClock";
import {
  DevIdentityProvider,
  DevIdentityProviderError,
  isLoopbackHost,
  layer,
  make,
} from "../../src/devidp/index.js";
import {
  authorizationUrl,
  basic,
  clients,
  codeFor,
  get,
  pkce,
  postForm,
  redirectUri,
  signIn,
  standardParams,
} from "./support.js";

const promise = <A>(run: () => Promise<A>) => Effect.promise(run);

const googleToken = (
  idp: { endpoints: (typeof DevIdentityProvider.Service)["endpoints"] },
  fields: Record<string, string>,
) =>
  promise(() =>
    postForm(
      idp.endpoints("google").token,
      { grant_type: "authorization_code", redirect_uri: redirectUri("google"), ...fields },
      { authorization: basic("google-dev", "google-secret") },
    ),
  );

const json = (response: Response) =>
  promise(() => response.json() as Promise<Record<string, unknown>>);

describe("refusals", () => {
  it.effect("NODE_ENV=production: refuses to start, with a clear error", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Effect.scoped(make({ clients }))).pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["NODE_ENV", "production"]]))),
      );
      expect(error).toBeInstanceOf(DevIdentityProviderError);
      expect(error.reason).toBe("production");
      expect(error.message).toContain("refuses to start with NODE_ENV=production");
    }),
  );

  it.effect("a non-loopback host is refused before anything is bound", () =>
    Effect.gen(function* () {
      for (const host of ["0.0.0.0", "::", "192.168.1.10", "example.com", "10.0.0.1"]) {
        const error = yield* Effect.flip(Effect.scoped(make({ clients, host })));
        expect(error.reason).toBe("non_loopback");
        expect(error.message).toContain(host);
      }
      expect(
        ["127.0.0.1", "127.3.4.5", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"].every(
          isLoopbackHost,
        ),
      ).toBe(true);
    }),
  );

  it.effect("a taken port is a listen error", () =>
    Effect.gen(function* () {
      const first = yield* make({ clients });
      const port = Number(new URL(first.url).port);
      const error = yield* Effect.flip(make({ clients, port }));
      expect(error.reason).toBe("listen");
    }).pipe(Effect.scoped),
  );
});

describe("as a Layer", () => {
  it.scoped("serves on a 127.0.0.1 port, its endpoints under it", () =>
    Effect.gen(function* () {
      const idp = yield* DevIdentityProvider;
      expect(idp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(idp.endpoints("github")).toEqual({
        authorization: `${idp.url}/github/login/oauth/authorize`,
        token: `${idp.url}/github/login/oauth/access_token`,
        api: `${idp.url}/github/api`,
      });
      expect(idp.endpoints("microsoft", "organizations").token).toBe(
        `${idp.url}/microsoft/organizations/oauth2/v2.0/token`,
      );
    }).pipe(Effect.provide(Layer.fresh(layer({ clients })))),
  );
});

describe("authorization endpoint and sign-in page", () => {
  it.scoped("the page: a button per test user, a strict CSP, no external asset, no caching", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const { challenge } = pkce();
      const page = yield* promise(() =>
        get(authorizationUrl(idp, "google", standardParams("google", { challenge }))),
      );
      expect(page.status).toBe(200);
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("form-action 'self' http://localhost:3000");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      const html = yield* promise(() => page.text());
      expect(html).toContain('<html lang="en">');
      expect(html.match(/<button class="user" type="submit" name="user"/g)).toHaveLength(3);
      expect(html).toContain("Continue as Ada Lovelace");
      expect(html).toContain("not the real Google");
      expect(html).not.toMatch(/<script|https?:\/\/(?!localhost:3000)/);
      const avatar = yield* promise(() => get(`${idp.url}/avatars/ada.svg`));
      expect(avatar.headers.get("content-type")).toBe("image/svg+xml");
    }),
  );

  it.scoped("unknown client_id and a wrong redirect_uri get an error page, never a redirect", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const unknown = yield* promise(() =>
        get(
          authorizationUrl(idp, "github", {
            ...standardParams("github"),
            client_id: "someone-else",
          }),
        ),
      );
      expect(unknown.status).toBe(400);
      expect(unknown.headers.get("location")).toBeNull();
      expect(yield* promise(() => unknown.text())).toContain("Unknown client_id");
      const evil = yield* promise(() =>
        get(
          authorizationUrl(idp, "github", {
            ...standardParams("github"),
            redirect_uri: "https://evil.example/cb",
          }),
        ),
      );
      expect(evil.status).toBe(400);
      expect(evil.headers.get("location")).toBeNull();
      const prefix = yield* promise(() =>
        get(
          authorizationUrl(idp, "github", {
            ...standardParams("github"),
            redirect_uri: `${redirectUri("github")}/x`,
          }),
        ),
      );
      expect(prefix.status).toBe(400);
      const twice = yield* promise(() =>
        get(`${authorizationUrl(idp, "github", standardParams("github"))}&client_id=github-dev`),
      );
      expect(twice.status).toBe(400);
    }),
  );

  it.scoped(
    "PKCE: required S256 for google, microsoft and twitter (error redirect), plain refused",
    () =>
      Effect.gen(function* () {
        const idp = yield* make({ clients });
        for (const provider of ["google", "microsoft", "twitter"] as const) {
          const answer = yield* promise(() =>
            get(authorizationUrl(idp, provider, standardParams(provider))),
          );
          expect(answer.status).toBe(302);
          const location = new URL(answer.headers.get("location") ?? "");
          expect(location.searchParams.get("error")).toBe("invalid_request");
          expect(location.searchParams.get("state")).toBe("state-123");
        }
        const plain = yield* promise(() =>
          get(
            authorizationUrl(idp, "google", {
              ...standardParams("google"),
              code_challenge: "a".repeat(43),
              code_challenge_method: "plain",
            }),
          ),
        );
        expect(new URL(plain.headers.get("location") ?? "").searchParams.get("error")).toBe(
          "invalid_request",
        );
        const token = yield* promise(() =>
          get(
            authorizationUrl(idp, "github", {
              ...standardParams("github"),
              response_type: "token",
            }),
          ),
        );
        expect(new URL(token.headers.get("location") ?? "").searchParams.get("error")).toBe(
          "unsupported_response_type",
        );
      }),
  );

  it.scoped("Cancel answers access_denied with the state; a sign-in request is answered once", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const page = yield* promise(() =>
        get(authorizationUrl(idp, "facebook", standardParams("facebook"))),
      );
      const request =
        /name="request" value="([^"]+)"/.exec(yield* promise(() => page.text()))?.[1] ?? "";
      const cancel = yield* promise(() =>
        postForm(idp.endpoints("facebook").authorization, { request, cancel: "1" }),
      );
      expect(cancel.status).toBe(303);
      const location = new URL(cancel.headers.get("location") ?? "");
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(location.searchParams.get("error_reason")).toBe("user_denied");
      expect(location.searchParams.get("state")).toBe("state-123");
      const again = yield* promise(() =>
        postForm(idp.endpoints("facebook").authorization, { request, user: "ada" }),
      );
      expect(again.status).toBe(400);
      expect(again.headers.get("location")).toBeNull();
    }),
  );
});

describe("codes", () => {
  it.scoped("a PKCE verifier that does not match is refused (and the code is spent)", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const { code, verifier } = yield* promise(() => codeFor(idp, "google"));
      const wrong = yield* googleToken(idp, { code, code_verifier: pkce().verifier });
      expect(wrong.status).toBe(400);
      expect(yield* json(wrong)).toMatchObject({ error: "invalid_grant" });
      const right = yield* googleToken(idp, { code, code_verifier: verifier ?? "" });
      expect(right.status).toBe(400);
      const missing = yield* promise(() => codeFor(idp, "google"));
      const none = yield* googleToken(idp, { code: missing.code });
      expect(yield* json(none)).toMatchObject({
        error: "invalid_grant",
        error_description: expect.stringContaining("code_verifier"),
      });
    }),
  );

  it.scoped("a code is single-use: the replay is refused and the first tokens are revoked", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const { code, verifier } = yield* promise(() => codeFor(idp, "google"));
      const first = yield* googleToken(idp, { code, code_verifier: verifier ?? "" });
      expect(first.status).toBe(200);
      const { access_token } = yield* json(first);
      const userinfo = () =>
        promise(() =>
          get(`${idp.endpoints("google").api}/v1/userinfo`, {
            authorization: `Bearer ${access_token}`,
          }),
        );
      expect((yield* userinfo()).status).toBe(200);
      const replay = yield* googleToken(idp, { code, code_verifier: verifier ?? "" });
      expect(replay.status).toBe(400);
      expect(yield* json(replay)).toMatchObject({
        error: "invalid_grant",
        error_description: expect.stringContaining("already used"),
      });
      expect((yield* userinfo()).status).toBe(401);
    }),
  );

  it.scoped("the token request must repeat the authorization request's redirect_uri", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const { code, verifier } = yield* promise(() => codeFor(idp, "google"));
      const other = yield* googleToken(idp, {
        code,
        code_verifier: verifier ?? "",
        redirect_uri: "http://localhost:3000/elsewhere",
      });
      expect(other.status).toBe(400);
      expect(yield* json(other)).toMatchObject({
        error: "invalid_grant",
        error_description: expect.stringContaining("redirect_uri"),
      });
      const twitter = yield* promise(() => codeFor(idp, "twitter"));
      const omitted = yield* promise(() =>
        postForm(idp.endpoints("twitter").token, {
          grant_type: "authorization_code",
          code: twitter.code,
          code_verifier: twitter.verifier ?? "",
          client_id: "twitter-dev",
        }),
      );
      expect(omitted.status).toBe(400);
    }),
  );

  it.scoped("a code of one client is refused to another dialect's client", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const { code } = yield* promise(() => codeFor(idp, "github"));
      const answer = yield* promise(() =>
        postForm(idp.endpoints("facebook").token, {
          code,
          redirect_uri: redirectUri("github"),
          client_id: "facebook-dev",
          client_secret: "facebook-secret",
        }),
      );
      expect(answer.status).toBe(400);
    }),
  );

  it.scoped("codes expire after 60 seconds (TestClock)", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const early = yield* promise(() => codeFor(idp, "google"));
      yield* TestClock.adjust("59 seconds");
      expect(
        (yield* googleToken(idp, { code: early.code, code_verifier: early.verifier ?? "" })).status,
      ).toBe(200);
      const late = yield* promise(() => codeFor(idp, "google"));
      yield* TestClock.adjust("61 seconds");
      const expired = yield* googleToken(idp, {
        code: late.code,
        code_verifier: late.verifier ?? "",
      });
      expect(expired.status).toBe(400);
      expect(yield* json(expired)).toMatchObject({
        error: "invalid_grant",
        error_description: "The code has expired",
      });
    }),
  );

  it.scoped("the code lifetime is configurable", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients, codeLifetime: "5 seconds" });
      const { code, verifier } = yield* promise(() => codeFor(idp, "google"));
      yield* TestClock.adjust("6 seconds");
      expect((yield* googleToken(idp, { code, code_verifier: verifier ?? "" })).status).toBe(400);
    }),
  );

  it.scoped("the state and the redirect go back exactly as registered", () =>
    Effect.gen(function* () {
      const idp = yield* make({ clients });
      const { location } = yield* promise(() =>
        signIn(idp, "github", standardParams("github", { state: "a b&c=d" })),
      );
      expect(location.searchParams.get("state")).toBe("a b&c=d");
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri("github"));
    }),
  );
});
