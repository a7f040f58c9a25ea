/**
 * The development identity provider: a loopback-only OAuth 2.0 server that speaks the
 * google, microsoft, github, facebook and twitter dialects, for local development and tests
 * (never in production).
 *
 * @since 0.1.0
 */
export type { ClientAuthMethod, DevClient, DevClients } from "./DevClient.js";
export { DEV_TENANT_ID, type DevEndpoints, endpointsFor } from "./DevEndpoints.js";
export {
  DevIdentityProvider,
  type DevIdentityProviderOptions,
  type DevIdentityProviderService,
  layer,
  make,
} from "./DevIdentityProvider.js";
export { DevIdentityProviderError } from "./DevIdentityProviderError.js";
export { type DevUser, defaultUsers, subjectOf } from "./DevUser.js";
export { isLoopbackHost } from "./Loopback.js";
export {
  type RunningDevIdentityProvider,
  startDevIdentityProvider,
} from "./startDevIdentityProvider.js";
