/**
 * Where each provider dialect lives on the development identity provider. Paths mirror the
 * real providers' paths under a per-provider prefix, so `api` is a profile API base to which
 * Strata appends the provider's usual paths (`/v1/userinfo`, `/user`, `/me?...`).
 *
 * @since 0.1.0
 */
import * as FacebookDialect from "../oauth/dialects/facebook.js";
import * as GitHubDialect from "../oauth/dialects/github.js";
import * as GoogleDialect from "../oauth/dialects/google.js";
import * as MicrosoftDialect from "../oauth/dialects/microsoft.js";
import * as TwitterDialect from "../oauth/dialects/twitter.js";
import type { SupportedProvider } from "../oauth/SupportedProvider.js";

/**
 * The endpoints of one dialect, in the shape of a provider's `endpoints` override, plus the
 * OpenID Connect issuer (google, microsoft) and microsoft's `loginHost`.
 *
 * @since 0.1.0
 * @category endpoints
 */
export interface DevEndpoints {
  readonly authorization: string;
  readonly token: string;
  readonly revocation?: string;
  /** The profile API base (the provider's usual paths are appended to it). */
  readonly api: string;
  /** The issuer of ID tokens (google, microsoft); its discovery document is served. */
  readonly issuer?: string;
  /** The base that replaces `https://login.microsoftonline.com` (microsoft). */
  readonly loginHost?: string;
}

/**
 * The Entra tenant id the development identity provider puts in microsoft ID tokens (`tid`).
 *
 * @since 0.1.0
 * @category endpoints
 */
export const DEV_TENANT_ID = "00000000-0000-4000-8000-00000000d3e5";

/**
 * The router paths of each dialect (find-my-way syntax; `:tenant` for microsoft).
 *
 * @since 0.1.0
 * @category endpoints
 */
export const paths = {
  google: {
    authorization: `/google${GoogleDialect.authorizationPath}`,
    token: `/google${GoogleDialect.tokenPath}`,
    revocation: `/google${GoogleDialect.revocationPath}`,
    userinfo: `/google/openidconnect${GoogleDialect.userinfoPath}`,
    discovery: "/google/.well-known/openid-configuration",
    jwks: "/google/oauth2/v3/certs",
  },
  microsoft: {
    authorization: `/microsoft/:tenant${MicrosoftDialect.authorizationPath}`,
    token: `/microsoft/:tenant${MicrosoftDialect.tokenPath}`,
    userinfo: `/microsoft/graph${MicrosoftDialect.userinfoPath}`,
    discovery: "/microsoft/:tenant/v2.0/.well-known/openid-configuration",
    jwks: "/microsoft/:tenant/discovery/v2.0/keys",
  },
  github: {
    authorization: `/github${GitHubDialect.authorizationPath}`,
    token: `/github${GitHubDialect.tokenPath}`,
    user: `/github/api${GitHubDialect.userPath}`,
    emails: `/github/api${GitHubDialect.emailsPath}`,
  },
  facebook: {
    authorization: `/facebook${FacebookDialect.authorizationPath}`,
    token: `/facebook${FacebookDialect.tokenPath}`,
    me: `/facebook/graph${FacebookDialect.mePath}`,
  },
  twitter: {
    authorization: `/twitter${TwitterDialect.authorizationPath}`,
    token: `/twitter${TwitterDialect.tokenPath}`,
    revocation: `/twitter${TwitterDialect.revocationPath}`,
    me: `/twitter/api${TwitterDialect.mePath}`,
  },
} as const;

/** The issuer of google ID tokens served from `base`. @since 0.1.0 @category endpoints */
export const googleIssuer = (base: string): string => `${base}/google`;

/** The issuer of microsoft ID tokens served from `base` (the dev tenant). @since 0.1.0 @category endpoints */
export const microsoftIssuer = (base: string): string => `${base}/microsoft/${DEV_TENANT_ID}/v2.0`;

/**
 * The endpoints of `provider`'s dialect on the server at `base` (e.g. `http://127.0.0.1:4000`).
 * `tenant` is microsoft's path tenant (default `common`).
 *
 * @since 0.1.0
 * @category endpoints
 */
export const endpointsFor = (
  base: string,
  provider: SupportedProvider,
  tenant = "common",
): DevEndpoints => {
  switch (provider) {
    case "google":
      return {
        authorization: base + paths.google.authorization,
        token: base + paths.google.token,
        revocation: base + paths.google.revocation,
        api: `${base}/google/openidconnect`,
        issuer: googleIssuer(base),
      };
    case "microsoft":
      return {
        authorization: `${base}/microsoft/${tenant}${MicrosoftDialect.authorizationPath}`,
        token: `${base}/microsoft/${tenant}${MicrosoftDialect.tokenPath}`,
        api: `${base}/microsoft/graph`,
        issuer: microsoftIssuer(base),
        loginHost: `${base}/microsoft`,
      };
    case "github":
      return {
        authorization: base + paths.github.authorization,
        token: base + paths.github.token,
        api: `${base}/github/api`,
      };
    case "facebook":
      return {
        authorization: base + paths.facebook.authorization,
        token: base + paths.facebook.token,
        api: `${base}/facebook/graph`,
      };
    case "twitter":
      return {
        authorization: base + paths.twitter.authorization,
        token: base + paths.twitter.token,
        revocation: base + paths.twitter.revocation,
        api: `${base}/twitter/api`,
      };
  }
};
