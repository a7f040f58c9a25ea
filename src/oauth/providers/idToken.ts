/**
 * ID token verification with `jose` (OpenID Connect Core 3.1.3.7): the signature against the
 * issuer's JWKS, `iss`, `aud`, `azp`, `exp` (with the Effect `Clock`), and the `nonce`. The
 * key set is read through the provider's `HttpClient` with its timeout and size cap (jose's
 * remote key set would read any size, with the global `fetch`), on first use, kept 10 minutes,
 * and read again for an unknown `kid` at most every 30 seconds (jose's defaults).
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import * as SynchronizedRef from "effect/SynchronizedRef";
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import {
  ProviderTimeout,
  ProviderUnreachable,
  type TokenError,
  TokenResponseMalformed,
} from "../OAuthError.js";
import { getJson, type ProviderHttp } from "./providerHttp.js";

/** What an ID token is checked against. */
export interface IdTokenOptions {
  /** The `iss` the token must carry. */
  readonly issuer: string;
  /** The client id: in `aud`, and `azp` when present. */
  readonly clientId: string;
  readonly jwksUri: string;
  /** The signing algorithms accepted (never `none`, never a symmetric one). */
  readonly algorithms: ReadonlyArray<string>;
}

/** Verifies an ID token; with `nonce`, its `nonce` claim must be that value. */
export type IdTokenVerifier = (
  idToken: string,
  nonce: string | undefined,
) => Effect.Effect<JWTPayload, TokenError>;

const asymmetric = /^(RS|PS|ES)(256|384|512)$|^ES256K$|^EdDSA$|^Ed25519$/;

/**
 * The algorithms to accept from an issuer's `id_token_signing_alg_values_supported`: its
 * asymmetric ones, else RS256 (the OpenID Connect default).
 */
export const signingAlgorithms = (
  supported: ReadonlyArray<string> | undefined,
): ReadonlyArray<string> => {
  const usable = (supported ?? []).filter((alg) => asymmetric.test(alg));
  return usable.length > 0 ? usable : ["RS256"];
};

/** How long a key set is kept, and how often an unknown `kid` may read it again (jose's). */
const KEYS_MAX_AGE_MS = 10 * 60 * 1000;
const KEYS_COOLDOWN_MS = 30 * 1000;

type KeySet = ReturnType<typeof createLocalJWKSet>;

interface FetchedKeys {
  readonly keys: KeySet;
  readonly at: number;
}

/**
 * The issuer's key set as jose reads it. An answer other than 200, an oversized or non-JSON
 * one, is an unavailable provider (as jose's own reading reports it); a document that is not
 * a key set, a malformed token response; a slow one, a token timeout.
 */
const fetchKeys = (http: ProviderHttp, jwksUri: string): Effect.Effect<FetchedKeys, TokenError> => {
  const { provider } = http;
  return getJson(http, jwksUri, undefined, {}, "token").pipe(
    Effect.catchTag("ProfileFetchFailed", () => Effect.fail(new ProviderUnreachable({ provider }))),
    Effect.filterOrFail(
      (answer) => answer.status === 200,
      (answer) => new ProviderUnreachable({ provider, status: answer.status }),
    ),
    Effect.flatMap((answer) =>
      Effect.try({
        try: () => createLocalJWKSet(answer.body as JSONWebKeySet),
        catch: () => new TokenResponseMalformed({ provider }),
      }),
    ),
    Effect.flatMap((keys) => Effect.map(Clock.currentTimeMillis, (at) => ({ keys, at }))),
  );
};

/** The token names a key the key set does not have (the issuer may have rotated its keys). */
class UnknownKey extends Data.TaggedError("UnknownKey") {}

/**
 * The ID token verifier of one client of one issuer; its key set is cached as long as it
 * lives (one read at a time: concurrent logins wait for the same read).
 */
export const makeIdTokenVerifier = (
  http: ProviderHttp,
  options: IdTokenOptions,
): Effect.Effect<IdTokenVerifier> =>
  Effect.map(SynchronizedRef.make<FetchedKeys | undefined>(undefined), (cache) => {
    const { provider } = http;
    const { issuer, clientId } = options;
    /** The cached keys when read less than `maxAge` ago, else freshly read ones. */
    const keysNewerThan = (maxAge: number) =>
      SynchronizedRef.modifyEffect(cache, (cached) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          cached !== undefined && now - cached.at < maxAge
            ? Effect.succeed([cached, cached] as const)
            : Effect.map(fetchKeys(http, options.jwksUri), (fresh) => [fresh, fresh] as const),
        ),
      );
    const malformed = new TokenResponseMalformed({ provider });
    const verifyWith = (idToken: string, { keys }: FetchedKeys, now: number) =>
      Effect.tryPromise({
        try: () =>
          jwtVerify(idToken, keys, {
            issuer,
            audience: clientId,
            algorithms: [...options.algorithms],
            requiredClaims: ["sub", "iat", "exp"],
            currentDate: new Date(now),
            clockTolerance: 60,
          }),
        catch: (error) =>
          error instanceof errors.JWKSNoMatchingKey ? new UnknownKey() : malformed,
      });
    return (idToken, nonce) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis;
        const used = yield* keysNewerThan(KEYS_MAX_AGE_MS);
        const { payload } = yield* verifyWith(idToken, used, now).pipe(
          Effect.catchTag("UnknownKey", () =>
            Effect.flatMap(keysNewerThan(KEYS_COOLDOWN_MS), (fresh) =>
              fresh === used ? Effect.fail(malformed) : verifyWith(idToken, fresh, now),
            ),
          ),
          Effect.catchTag("UnknownKey", () => Effect.fail(malformed)),
        );
        if (payload.azp !== undefined && payload.azp !== clientId) return yield* malformed;
        if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp === undefined) {
          return yield* malformed;
        }
        if (nonce !== undefined && payload.nonce !== nonce) return yield* malformed;
        return payload;
      }).pipe(
        Effect.timeoutFail({
          duration: http.timeout,
          onTimeout: () => new ProviderTimeout({ provider, operation: "token" }),
        }),
        Effect.withSpan("OidcProvider.verifyIdToken"),
      );
  });
