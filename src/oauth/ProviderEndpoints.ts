/**
 * Where a provider's endpoints live. Every provider has today's public endpoints as defaults;
 * a configuration may move any of them (GitHub Enterprise Server, Entra national clouds,
 * proxies, local development).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import { OAuthConfigError } from "./OAuthProvider.js";

/**
 * Where a provider's endpoints live, for GitHub Enterprise Server, Entra national clouds,
 * proxies and local development.
 *
 * @since 0.1.0
 * @category config
 */
export interface ProviderEndpoints {
  /** Full URL of the authorization endpoint. */
  readonly authorization?: string;
  /** Full URL of the token endpoint. */
  readonly token?: string;
  /** Full URL of the revocation endpoint, where the provider has one (google, twitter). */
  readonly revocation?: string;
  /**
   * Base URL of the profile API; the provider's paths are appended: google
   * `https://openidconnect.googleapis.com` + `/v1/userinfo`, microsoft
   * `https://graph.microsoft.com` + `/oidc/userinfo`, github `https://api.github.com` +
   * `/user`, `/user/emails`, facebook `https://graph.facebook.com` + `/me?fields=...`, twitter
   * `https://api.twitter.com` + `/2/users/me?...`.
   */
  readonly api?: string;
}

/**
 * A provider's endpoints with the defaults applied, and whether a token-side one was moved
 * (then arctic's generic `OAuth2Client` makes the requests: arctic's provider classes
 * hard-code their hosts).
 *
 * @since 0.1.0
 * @category config
 */
export interface ResolvedEndpoints {
  readonly authorization: string;
  readonly token: string;
  /** Absent for providers without a revocation endpoint. */
  readonly revocation?: string;
  /** Without a trailing `/`. */
  readonly api: string;
  /** `true` when the authorization, token or revocation endpoint is not the default. */
  readonly overridden: boolean;
}

const loopbackHost = /^(localhost|[a-z0-9-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * `true` for an absolute URL the provider may be reached at: https, or http on a loopback
 * host (local development); no credentials, no fragment, and no query when `allowQuery` is
 * false.
 *
 * @since 0.1.0
 * @category config
 */
export const isEndpointUrl = (value: unknown, allowQuery = true): value is string => {
  if (typeof value !== "string") return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const secure =
    url.protocol === "https:" || (url.protocol === "http:" && loopbackHost.test(url.hostname));
  return (
    secure &&
    url.username === "" &&
    url.password === "" &&
    url.hash === "" &&
    !value.includes("#") &&
    (allowQuery || url.search === "")
  );
};

/**
 * Checks one endpoint URL of the configuration (see {@link isEndpointUrl}).
 *
 * @since 0.1.0
 * @category config
 */
export const validateEndpoint = (
  provider: string,
  field: string,
  value: string,
  allowQuery = true,
): Effect.Effect<string, OAuthConfigError> =>
  isEndpointUrl(value, allowQuery)
    ? Effect.succeed(value)
    : Effect.fail(
        new OAuthConfigError({
          message: `${provider}: ${field} must be an absolute https URL (http only on a loopback host) without credentials or fragment${allowQuery ? "" : " or query"}`,
        }),
      );

/**
 * A provider's endpoints: each override checked, each missing one the default. A
 * `revocation` override is ignored for providers without one.
 *
 * @since 0.1.0
 * @category config
 */
export const resolveEndpoints = (
  provider: string,
  overrides: ProviderEndpoints | undefined,
  defaults: Omit<ResolvedEndpoints, "overridden">,
): Effect.Effect<ResolvedEndpoints, OAuthConfigError> =>
  Effect.gen(function* () {
    const pick = (field: "authorization" | "token" | "revocation") => {
      const value = overrides?.[field];
      return value === undefined
        ? Effect.succeed(undefined)
        : validateEndpoint(provider, `endpoints.${field}`, value);
    };
    const authorization = yield* pick("authorization");
    const token = yield* pick("token");
    const revocation = defaults.revocation === undefined ? undefined : yield* pick("revocation");
    const api =
      overrides?.api === undefined
        ? defaults.api
        : yield* validateEndpoint(provider, "endpoints.api", overrides.api, false);
    const resolved = {
      authorization: authorization ?? defaults.authorization,
      token: token ?? defaults.token,
      api: api.replace(/\/+$/, ""),
    };
    const revocationUrl = revocation ?? defaults.revocation;
    return {
      ...resolved,
      ...(revocationUrl === undefined ? {} : { revocation: revocationUrl }),
      overridden:
        resolved.authorization !== defaults.authorization ||
        resolved.token !== defaults.token ||
        revocationUrl !== defaults.revocation,
    } satisfies ResolvedEndpoints;
  });
