/**
 * `effect-strata/oauth`: OAuth 2.0 social login for google, microsoft, github, facebook and twitter
 * on arctic, and any OpenID Connect provider (`type: "oidc"`), as a composable Effect
 * pipeline (`OAuth`, `OAuthRoutes`, provider Layers) and as a classic module
 * (`OAuthModule.forRoot`, `OAuthService`, `OAuthCallbackHandler`).
 *
 * @since 0.1.0
 */
import "../di/reflectMetadata.js";

export {
  randomToken,
  randomTokens,
  SecureRandom,
  type SecureRandomService,
} from "../crypto/SecureRandom.js";
export {
  type Authorization,
  type AuthorizeOptions,
  type CallbackError,
  OAuth,
  type OAuthPipeline,
} from "./OAuth.js";
export type { OAuthCallbackHandler } from "./OAuthCallbackHandler.js";
export {
  type ClientCredentials,
  configuredProviders,
  type FacebookConfig,
  type GitHubConfig,
  type GoogleConfig,
  type MicrosoftConfig,
  type OAuthConfig,
  type OAuthProvidersConfig,
  type OidcProviderConfig,
  type ProviderConfig,
  type Secret,
  type TwitterConfig,
} from "./OAuthConfig.js";
export { fromEnv as oauthConfigFromEnv } from "./OAuthConfigFromEnv.js";
export * from "./OAuthError.js";
export {
  clearFlowCookie,
  flowCookie,
  OAUTH_FLOW_COOKIE,
  readFlowCookie,
  type StoredFlow,
} from "./OAuthFlowCookie.js";
export { OAuthModule } from "./OAuthModule.js";
export type { OAuthModuleOptions } from "./OAuthModuleOptions.js";
export {
  type AuthorizationRequest,
  type CodeExchange,
  DEFAULT_MAX_PROFILE_BYTES,
  DEFAULT_TIMEOUT,
  DEFAULT_USER_AGENT,
  OAuthConfigError,
  OAuthProvider,
  type OAuthProviderService,
  type ProviderSettings,
} from "./OAuthProvider.js";
export { OAuthProviderSource } from "./OAuthProviderSource.js";
export {
  OAuthProviders,
  type OAuthProvidersService,
  type ProviderLayers,
} from "./OAuthProviders.js";
export type {
  OAuthCallbackResult,
  OAuthSession,
  OAuthSignIn,
  OAuthTokens,
  OAuthUser,
} from "./OAuthResult.js";
/**
 * The Effect face's social-login routes (`/login/:provider`, the callback, the session routes) as
 * `HttpLayerRouter` routes, and their `HttpApi` description.
 *
 * @since 0.1.0
 */
export * as OAuthRoutes from "./OAuthRoutes.js";
export { type AuthorizationResult, OAuthService, type RefreshedTokens } from "./OAuthService.js";
export { OAuthSessionUser } from "./OAuthSessionUser.js";
export { OAuthStateGuard, requireOAuthState } from "./OAuthStateGuard.js";
export { OAuthTransaction, TRANSACTION_TTL } from "./OAuthTransaction.js";
export type {
  ProviderEndpoints,
  ResolvedEndpoints,
} from "./ProviderEndpoints.js";
/**
 * Sign in with Facebook: the provider's endpoints and its `OAuthProvider` layer.
 *
 * @since 0.1.0
 */
export * as FacebookProvider from "./providers/facebook.js";
/**
 * Sign in with GitHub: the provider's endpoints and its `OAuthProvider` layer.
 *
 * @since 0.1.0
 */
export * as GitHubProvider from "./providers/github.js";
/**
 * Sign in with Google (OpenID Connect): the provider's endpoints and its `OAuthProvider` layer.
 *
 * @since 0.1.0
 */
export * as GoogleProvider from "./providers/google.js";
/**
 * Sign in with Microsoft (Entra ID, OpenID Connect): the provider's endpoints and its
 * `OAuthProvider` layer.
 *
 * @since 0.1.0
 */
export * as MicrosoftProvider from "./providers/microsoft.js";
/**
 * Sign in with any OpenID Connect provider, from its issuer's discovery document.
 *
 * @since 0.1.0
 */
export * as OidcProvider from "./providers/oidc.js";
/**
 * Sign in with X (Twitter): the provider's endpoints and its `OAuthProvider` layer.
 *
 * @since 0.1.0
 */
export * as TwitterProvider from "./providers/twitter.js";
/**
 * A `TransactionStore` in Redis: sign-in transactions shared by every instance of a scaled-out
 * app.
 *
 * @since 0.1.0
 */
export * as RedisTransactionStore from "./RedisTransactionStore.js";
export {
  defaultScopes,
  isCustomProviderName,
  isSupportedProvider,
  type ProviderName,
  type SupportedProvider,
  supportedProviders,
  usesPkce,
} from "./SupportedProvider.js";
export {
  TransactionSealer,
  type TransactionSealerService,
} from "./TransactionSealer.js";
export {
  type LocalTransactionStoreOptions,
  TransactionStore,
  TransactionStoreError,
  type TransactionStoreRefusal,
  type TransactionStoreService,
} from "./TransactionStore.js";
