/**
 * One OAuth provider behind one interface: authorization URL, code exchange, refresh and
 * revocation where the provider has them, and the profile mapped to {@link OAuthUser}. The
 * live implementations (in `providers/`) wrap arctic's classes; tests swap in mocks with
 * `Layer.succeed(OAuthProvider, OAuthProvider.of({...}))`.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Data from "effect/Data";
import * as Duration from "effect/Duration";
import type * as Effect from "effect/Effect";
import type * as Redacted from "effect/Redacted";
import type { ProfileError, TokenError } from "./OAuthError.js";
import type { OAuthTokens, OAuthUser } from "./OAuthResult.js";
import { defaultScopes, isSupportedProvider, type ProviderName } from "./SupportedProvider.js";

/**
 * What an authorization URL is built from.
 *
 * @since 0.1.0
 * @category providers
 */
export interface AuthorizationRequest {
  readonly state: string;
  /** The PKCE verifier (its S256 challenge goes into the URL); only for PKCE providers. */
  readonly codeVerifier?: string;
  readonly scopes: ReadonlyArray<string>;
  /** The OpenID Connect `nonce` parameter to send (google, microsoft). */
  readonly nonce?: string;
  /**
   * Ask for a refresh token: `access_type=offline` for google, the `offline_access` scope for
   * microsoft, `offline.access` for twitter; nothing for github and facebook.
   */
  readonly offline?: boolean;
}

/**
 * What a code is exchanged with.
 *
 * @since 0.1.0
 * @category providers
 */
export interface CodeExchange {
  readonly code: string;
  /** The PKCE verifier of the transaction (required by PKCE providers). */
  readonly codeVerifier?: string;
  /** The `nonce` claim the ID token must carry, when an ID token comes back. */
  readonly nonce?: string;
}

/**
 * One provider. Every outbound call it makes has a timeout and every response a size cap.
 *
 * @since 0.1.0
 * @category providers
 */
export interface OAuthProviderService {
  readonly name: ProviderName;
  /** `true` when the provider takes PKCE (S256). */
  readonly pkce: boolean;
  /** `true` for OpenID Connect providers, which take a `nonce`. */
  readonly oidc: boolean;
  /** The configured redirect URI, sent in the authorization and token requests as is. */
  readonly redirectUri: string;
  /** The scopes asked for when the caller gives none. */
  readonly defaultScopes: ReadonlyArray<string>;
  /** `true` when `iss` (RFC 9207) names this provider's authorization server. */
  readonly acceptsIssuer: (issuer: string) => boolean;
  /**
   * `true` when the authorization server says it always sends `iss` (RFC 9207,
   * `authorization_response_iss_parameter_supported`): a callback without one is refused.
   */
  readonly requiresIssuer?: boolean;
  /** The provider's authorization URL for this sign-in (state, PKCE challenge, nonce, scopes). */
  readonly authorizationUrl: (request: AuthorizationRequest) => Effect.Effect<URL>;
  /** Exchanges the callback's code (with the PKCE verifier) for the provider's tokens. */
  readonly exchangeCode: (exchange: CodeExchange) => Effect.Effect<OAuthTokens, TokenError>;
  /** Present when the provider issues refresh tokens. */
  readonly refreshToken?: (
    refreshToken: Redacted.Redacted<string>,
    scopes?: ReadonlyArray<string>,
  ) => Effect.Effect<OAuthTokens, TokenError>;
  /** Present when the provider has a revocation endpoint. */
  readonly revokeToken?: (token: Redacted.Redacted<string>) => Effect.Effect<void, TokenError>;
  /**
   * The user's profile. `tokens`, when given, are the token response the access token came
   * with: OpenID Connect providers match the userinfo `sub` with their ID token's.
   */
  readonly fetchProfile: (
    accessToken: Redacted.Redacted<string>,
    tokens?: OAuthTokens,
  ) => Effect.Effect<OAuthUser, ProfileError>;
}

/**
 * The service of one provider. The pipeline sees providers through {@link OAuthProviders}.
 *
 * @since 0.1.0
 * @category providers
 */
export class OAuthProvider extends Context.Tag("effect-strata/oauth/OAuthProvider")<
  OAuthProvider,
  OAuthProviderService
>() {}

/**
 * How a live provider talks to the network.
 *
 * @since 0.1.0
 * @category providers
 */
export interface ProviderSettings {
  /** Default scopes (the spec's table unless configured). */
  readonly scopes?: ReadonlyArray<string>;
  /** Timeout of every outbound call, token exchange included (default 10 seconds). */
  readonly timeout?: Duration.DurationInput;
  /**
   * Largest response read from the provider, in bytes (default 1 MB): profiles, token answers,
   * discovery documents and key sets alike.
   */
  readonly maxProfileBytes?: number;
  /** The `User-Agent` of every request to the provider. */
  readonly userAgent?: string;
}

/** The default timeout of every outbound provider call. @since 0.1.0 @category providers */
export const DEFAULT_TIMEOUT: Duration.Duration = Duration.seconds(10);

/** The default size cap of a provider response (1 MB). @since 0.1.0 @category providers */
export const DEFAULT_MAX_PROFILE_BYTES = 1024 * 1024;

/** The default `User-Agent` of provider requests. @since 0.1.0 @category providers */
export const DEFAULT_USER_AGENT = "strata-oauth/0.1";

/**
 * {@link ProviderSettings} with every default applied.
 *
 * @since 0.1.0
 * @category providers
 */
export interface ResolvedProviderSettings {
  readonly scopes: ReadonlyArray<string>;
  readonly timeout: Duration.Duration;
  readonly maxProfileBytes: number;
  readonly userAgent: string;
}

/**
 * Applies the defaults to a provider's settings (scopes: the built-in provider's, `openid`
 * for any other). @since 0.1.0 @category providers
 */
export const resolveSettings = (
  provider: ProviderName,
  settings: ProviderSettings = {},
): ResolvedProviderSettings => ({
  scopes: settings.scopes ?? (isSupportedProvider(provider) ? defaultScopes[provider] : ["openid"]),
  timeout: settings.timeout === undefined ? DEFAULT_TIMEOUT : Duration.decode(settings.timeout),
  maxProfileBytes: settings.maxProfileBytes ?? DEFAULT_MAX_PROFILE_BYTES,
  userAgent: settings.userAgent ?? DEFAULT_USER_AGENT,
});

/**
 * A provider configuration that cannot work (empty client id, a redirect URI that is not an
 * absolute http(s) URL, an odd tenant): a startup failure, never a request-time one.
 *
 * @since 0.1.0
 * @category errors
 */
export class OAuthConfigError extends Data.TaggedError("OAuthConfigError")<{
  readonly message: string;
}> {}
