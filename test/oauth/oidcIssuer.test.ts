// The generic OpenID Connect provider against an issuer on a real loopback socket: the
// discovery document and the key set are read with the provider's size cap (a hostile or
// broken issuer cannot make the server buffer without end), and the key set is cached (read
// once, again after 10 minutes, and for an unknown `kid` at most every 30 seconds).
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as TestClock from "effect/TestClock";
import {
  OidcProvider,
  type OidcProviderConfig,
  type ProviderSettings,
} from "../../src/oauth/index.js";
import { fullTokens, REDIRECT, SECRET } from "./fixtures.js";
import { VERIFIER } from "./support/liveProvider.js";
import {
  endless,
  type LoopbackIdp,
  openIdIssuer,
  startLoopbackIdp,
} from "./support/loopbackIdp.js";

const NOW = Date.UTC(2030, 0, 1);
const CLIENT = "strata-oidc";

let idp: LoopbackIdp;
let issuer: Awaited<ReturnType<typeof openIdIssuer>>;

beforeAll(async () => {
  idp = await startLoopbackIdp();
});
afterAll(() => idp.close());
beforeEach(async () => {
  idp.seen.length = 0;
  idp.routes.clear();
  issuer = await openIdIssuer(idp);
});

const config = (): OidcProviderConfig => ({
  type: "oidc",
  issuer: issuer.issuer,
  clientId: CLIENT,
  clientSecret: SECRET,
  redirectUri: REDIRECT("keycloak"),
});

const live = (settings: ProviderSettings = { timeout: "5 seconds" }) =>
  OidcProvider.make("keycloak", config(), settings).pipe(Effect.provide(FetchHttpClient.layer));

/** A login whose token answer carries an ID token signed with `kid`, issued at `at`. */
const login = (
  provider: Effect.Effect.Success<ReturnType<typeof live>>,
  kid = "k1",
  at: number = NOW,
) =>
  Effect.gen(function* () {
    const idToken = yield* Effect.promise(() => issuer.idToken(CLIENT, { nonce: "n" }, kid, at));
    idp.routes.set("POST /token", { json: { ...fullTokens(), id_token: idToken } });
    return yield* provider.exchangeCode({ code: "c", codeVerifier: VERIFIER, nonce: "n" });
  });

const keySetReads = () => idp.seen.filter((s) => s.path === "/jwks").length;

/** A valid key set padded to `bytes`, streamed in chunks without a declared length. */
const paddedKeySet = (bytes: number) => (res: import("node:http").ServerResponse) => {
  const body = JSON.stringify({ ...issuer.keySet(), padding: "x".repeat(bytes) });
  res.writeHead(200, { "content-type": "application/json" });
  for (let i = 0; i < body.length; i += 64 * 1024) res.write(body.slice(i, i + 64 * 1024));
  res.end();
};

describe("oidc issuer: size caps", () => {
  it.live("a key set declared over the cap (1 MB by default) -> ProviderUnreachable", () =>
    Effect.gen(function* () {
      const big = JSON.stringify({ ...issuer.keySet(), padding: "x".repeat(2 * 1024 * 1024) });
      idp.routes.set("GET /jwks", (res) => {
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(big)),
        });
        res.end(big);
      });
      const provider = yield* live();
      const error = yield* Effect.flip(login(provider, "k1", Date.now()));
      expect(error).toEqual(expect.objectContaining({ _tag: "ProviderUnreachable" }));
    }),
  );

  it.live("a valid key set streamed past the cap is refused, not buffered", () =>
    Effect.gen(function* () {
      idp.routes.set("GET /jwks", paddedKeySet(2 * 1024 * 1024));
      const provider = yield* live();
      const error = yield* Effect.flip(login(provider, "k1", Date.now()));
      expect(error._tag).toBe("ProviderUnreachable");
      // Under the cap, the same key set is fine.
      idp.routes.set("GET /jwks", paddedKeySet(100 * 1024));
      const tokens = yield* login(provider, "k1", Date.now());
      expect(tokens.idToken).toBeDefined();
    }),
  );

  it.live("an endless key set -> ProviderUnreachable at the cap, well before the timeout", () =>
    Effect.gen(function* () {
      idp.routes.set("GET /jwks", endless(`${"x".repeat(16 * 1024)}`));
      const provider = yield* live({ timeout: "10 seconds", maxProfileBytes: 256 * 1024 });
      const started = Date.now();
      const error = yield* Effect.flip(login(provider, "k1", Date.now()));
      expect(error._tag).toBe("ProviderUnreachable");
      expect(Date.now() - started).toBeLessThan(5_000);
    }),
  );

  it.live("a discovery document over the cap is a startup error naming no body", () =>
    Effect.gen(function* () {
      idp.routes.set("GET /.well-known/openid-configuration", endless(`${"x".repeat(16 * 1024)}`));
      const error = yield* Effect.flip(live({ timeout: "10 seconds", maxProfileBytes: 64 * 1024 }));
      expect(error._tag).toBe("OAuthConfigError");
      expect(error.message).toContain("too_large document");
      expect(error.message).not.toContain("xxxx");
    }),
  );
});

describe("oidc issuer: key set cache", () => {
  it.effect("read once for many logins, again after 10 minutes", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW);
      const provider = yield* live();
      yield* login(provider);
      yield* login(provider);
      yield* login(provider);
      expect(keySetReads()).toBe(1);
      yield* TestClock.adjust("10 minutes");
      yield* login(provider, "k1", NOW + 10 * 60 * 1000);
      expect(keySetReads()).toBe(2);
    }),
  );

  it.effect("a new kid: refused within 30 s of the last read, the set read again after", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW);
      const provider = yield* live();
      yield* login(provider);
      yield* Effect.promise(() => issuer.addKey("k2"));
      const error = yield* Effect.flip(login(provider, "k2"));
      expect(error._tag).toBe("TokenResponseMalformed");
      expect(keySetReads()).toBe(1);
      yield* TestClock.adjust("31 seconds");
      const tokens = yield* login(provider, "k2", NOW + 31_000);
      expect(tokens.idToken).toBeDefined();
      expect(keySetReads()).toBe(2);
    }),
  );

  it.effect("a failed read is not kept: the next login reads the set again", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW);
      const working = idp.routes.get("GET /jwks");
      idp.routes.set("GET /jwks", { status: 503, json: {} });
      const provider = yield* live();
      const error = yield* Effect.flip(login(provider));
      expect(error._tag).toBe("ProviderUnreachable");
      if (working !== undefined) idp.routes.set("GET /jwks", working);
      const tokens = yield* login(provider);
      expect(tokens.idToken).toBeDefined();
      expect(keySetReads()).toBe(2);
    }),
  );
});
