/**
 * Token requests through arctic, as Effects: every arctic call and every throwing token getter
 * is wrapped, arctic's error classes become the pipeline's tagged errors (keeping no upstream
 * body, description or stack), and every call has a timeout.
 *
 * @since 0.1.0
 */
import {
  ArcticFetchError,
  decodeIdToken,
  OAuth2RequestError,
  type OAuth2Tokens,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from "arctic";
import * as Clock from "effect/Clock";
import type * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import {
  CodeRejected,
  ProviderTimeout,
  ProviderUnreachable,
  type TokenError,
  TokenResponseMalformed,
  toOAuthErrorCode,
} from "../OAuthError.js";
import type { OAuthProviderService } from "../OAuthProvider.js";
import type { OAuthTokens } from "../OAuthResult.js";
import type { ProviderName } from "../SupportedProvider.js";
import type { ArcticFlow } from "./arcticFlow.js";

/** A system error code (`ECONNREFUSED`, `ENOTFOUND`, ...) somewhere in a cause chain, if any. */
export const systemCode = (error: unknown): string | undefined => {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
};

/** Maps whatever arctic threw to a tagged error that carries nothing secret. */
export const fromArcticError = (provider: ProviderName, error: unknown): TokenError => {
  if (error instanceof OAuth2RequestError) {
    return new CodeRejected({ provider, oauthError: toOAuthErrorCode(error.code) });
  }
  if (error instanceof ArcticFetchError) {
    const detail = systemCode(error.cause);
    return new ProviderUnreachable(detail === undefined ? { provider } : { provider, detail });
  }
  if (error instanceof UnexpectedResponseError) {
    const status = error.status;
    // 2xx that is not JSON, or a 400/401 whose body is not an OAuth error: a broken answer.
    if ((status >= 200 && status < 300) || status === 400 || status === 401) {
      return new TokenResponseMalformed({ provider, status });
    }
    return new ProviderUnreachable({ provider, status });
  }
  if (error instanceof UnexpectedErrorResponseBodyError) {
    return new TokenResponseMalformed({ provider, status: error.status });
  }
  return new TokenResponseMalformed({ provider });
};

/**
 * Runs one arctic token request: failures mapped by {@link fromArcticError}, and a
 * {@link ProviderTimeout} when it takes longer than `timeout` (arctic takes no abort signal,
 * so the request itself is abandoned, not cancelled).
 */
export const arcticCall = <A>(
  provider: ProviderName,
  operation: "token" | "refresh" | "revoke",
  timeout: Duration.Duration,
  call: () => Promise<A>,
): Effect.Effect<A, TokenError> =>
  Effect.tryPromise({ try: call, catch: (error) => fromArcticError(provider, error) }).pipe(
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () => new ProviderTimeout({ provider, operation }),
    }),
  );

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
export const parseTokens = (
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

/** An arctic token request parsed into {@link OAuthTokens}. */
export const tokenRequest = (
  provider: ProviderName,
  operation: "token" | "refresh",
  timeout: Duration.Duration,
  call: () => Promise<OAuth2Tokens>,
  expectedNonce?: string,
): Effect.Effect<OAuthTokens, TokenError> =>
  Effect.flatMap(arcticCall(provider, operation, timeout, call), (tokens) =>
    parseTokens(provider, tokens, expectedNonce),
  );

/** The `revokeToken` of a provider whose flow has a revocation endpoint (nothing otherwise). */
export const revocation = (
  provider: ProviderName,
  timeout: Duration.Duration,
  flow: ArcticFlow,
  span: string,
): Pick<OAuthProviderService, "revokeToken"> => {
  const revoke = flow.revokeToken;
  return revoke === undefined
    ? {}
    : {
        revokeToken: (token) =>
          arcticCall(provider, "revoke", timeout, () => revoke(Redacted.value(token))).pipe(
            Effect.withSpan(span),
          ),
      };
};
