/**
 * Token answers read into {@link OAuthTokens} with arctic's throwing getters (each one
 * wrapped), and the token operations of a provider's flow as Effects.
 *
 * @since 0.1.0
 */
import { decodeIdToken, type OAuth2Tokens } from "arctic";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import { type TokenError, TokenResponseMalformed } from "../OAuthError.js";
import type { OAuthProviderService } from "../OAuthProvider.js";
import type { OAuthTokens } from "../OAuthResult.js";
import type { ProviderName } from "../SupportedProvider.js";
import type { ProviderFlow } from "./providerFlow.js";

const data = (tokens: OAuth2Tokens): Record<string, unknown> =>
  tokens.data as Record<string, unknown>;

/** Runs one of arctic's throwing getters; a throw means the token response is unusable. */
const getter = <A>(provider: ProviderName, read: () => A) =>
  Effect.try({ try: read, catch: () => new TokenResponseMalformed({ provider }) });

const expiresInSeconds = (tokens: OAuth2Tokens): number | undefined => {
  try {
    return tokens.accessTokenExpiresInSeconds();
  } catch {
    // Some providers send `expires_in` as a numeric string; anything else means no expiry.
    const raw = data(tokens).expires_in;
    return typeof raw === "string" && /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
  }
};

/**
 * Reads arctic's tokens into {@link OAuthTokens}: `access_token` is required; a refresh token,
 * an expiry (computed with the Effect `Clock`), an ID token and scopes are kept when present.
 * With `expectedNonce`, an ID token must carry that `nonce` claim.
 */
const parseTokens = (
  provider: ProviderName,
  tokens: OAuth2Tokens,
  expectedNonce?: string,
): Effect.Effect<OAuthTokens, TokenResponseMalformed> =>
  Effect.gen(function* () {
    const accessToken = yield* getter(provider, () => tokens.accessToken());
    if (accessToken === "") return yield* new TokenResponseMalformed({ provider });
    const refreshToken = tokens.hasRefreshToken()
      ? yield* getter(provider, () => tokens.refreshToken())
      : undefined;
    const seconds = expiresInSeconds(tokens);
    const now = yield* Clock.currentTimeMillis;
    const idToken =
      typeof data(tokens).id_token === "string"
        ? yield* getter(provider, () => tokens.idToken())
        : undefined;
    if (idToken !== undefined && expectedNonce !== undefined) {
      const claims = yield* getter(provider, () => decodeIdToken(idToken) as { nonce?: unknown });
      if (claims.nonce !== expectedNonce) return yield* new TokenResponseMalformed({ provider });
    }
    const scopes = tokens.hasScopes()
      ? (yield* getter(provider, () => tokens.scopes())).flatMap((s) =>
          s.split(",").filter((part) => part !== ""),
        )
      : undefined;
    return {
      accessToken: Redacted.make(accessToken),
      ...(refreshToken === undefined || refreshToken === ""
        ? {}
        : { refreshToken: Redacted.make(refreshToken) }),
      ...(seconds === undefined ? {} : { expiresAt: new Date(now + seconds * 1000) }),
      ...(idToken === undefined ? {} : { idToken: Redacted.make(idToken) }),
      ...(scopes === undefined ? {} : { scopes }),
    } satisfies OAuthTokens;
  });

/** A token request (exchange or refresh) parsed into {@link OAuthTokens}. */
export const tokenRequest = (
  provider: ProviderName,
  request: Effect.Effect<OAuth2Tokens, TokenError>,
  expectedNonce?: string,
): Effect.Effect<OAuthTokens, TokenError> =>
  Effect.flatMap(request, (tokens) => parseTokens(provider, tokens, expectedNonce));

/** The `revokeToken` of a provider whose flow has a revocation endpoint (nothing otherwise). */
export const revocation = (
  flow: ProviderFlow,
  span: string,
): Pick<OAuthProviderService, "revokeToken"> => {
  const revoke = flow.revokeToken;
  return revoke === undefined
    ? {}
    : { revokeToken: (token) => revoke(Redacted.value(token)).pipe(Effect.withSpan(span)) };
};
