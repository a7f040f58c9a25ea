/**
 * ID token verification with `jose` (OpenID Connect Core 3.1.3.7): the signature against the
 * issuer's JWKS (fetched on first use, cached, fetched again for an unknown `kid`), `iss`,
 * `aud`, `azp`, `exp` (with the Effect `Clock`), and the `nonce`.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";
import {
  ProviderTimeout,
  ProviderUnreachable,
  type TokenError,
  TokenResponseMalformed,
} from "../OAuthError.js";
import type { ProviderName } from "../SupportedProvider.js";
import { systemCode } from "./tokenRequest.js";

/** What an ID token is checked against. */
export interface IdTokenOptions {
  readonly provider: ProviderName;
  /** The `iss` the token must carry. */
  readonly issuer: string;
  /** The client id: in `aud`, and `azp` when present. */
  readonly clientId: string;
  readonly jwksUri: string;
  /** The signing algorithms accepted (never `none`, never a symmetric one). */
  readonly algorithms: ReadonlyArray<string>;
  readonly timeout: Duration.Duration;
  readonly userAgent: string;
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

/** A jose failure as a tagged error: the JWKS unreachable or slow, else an invalid token. */
const fromJoseError = (provider: ProviderName, error: unknown): TokenError => {
  if (error instanceof errors.JWKSTimeout) {
    return new ProviderTimeout({ provider, operation: "token" });
  }
  // A JWKS answer that is not 200 or not JSON: jose's generic error.
  if (error instanceof errors.JOSEError && error.code === errors.JOSEError.code) {
    return new ProviderUnreachable({ provider });
  }
  if (error instanceof errors.JOSEError) return new TokenResponseMalformed({ provider });
  const detail = systemCode(error);
  return new ProviderUnreachable(detail === undefined ? { provider } : { provider, detail });
};

/** The ID token verifier of one client of one issuer (its JWKS cache lives as long). */
export const makeIdTokenVerifier = (options: IdTokenOptions): IdTokenVerifier => {
  const { provider, issuer, clientId } = options;
  const jwks = createRemoteJWKSet(new URL(options.jwksUri), {
    timeoutDuration: Duration.toMillis(options.timeout),
    headers: { "user-agent": options.userAgent },
  });
  const malformed = new TokenResponseMalformed({ provider });
  return (idToken, nonce) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis;
      const { payload } = yield* Effect.tryPromise({
        try: () =>
          jwtVerify(idToken, jwks, {
            issuer,
            audience: clientId,
            algorithms: [...options.algorithms],
            requiredClaims: ["sub", "iat", "exp"],
            currentDate: new Date(now),
            clockTolerance: 60,
          }),
        catch: (error) => fromJoseError(provider, error),
      });
      if (payload.azp !== undefined && payload.azp !== clientId) return yield* malformed;
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp === undefined) {
        return yield* malformed;
      }
      if (nonce !== undefined && payload.nonce !== nonce) return yield* malformed;
      return payload;
    }).pipe(
      Effect.timeoutFail({
        duration: options.timeout,
        onTimeout: () => new ProviderTimeout({ provider, operation: "token" }),
      }),
      Effect.withSpan("OidcProvider.verifyIdToken"),
    );
};
