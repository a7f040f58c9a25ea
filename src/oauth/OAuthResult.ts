/**
 * What a successful OAuth callback yields: provider tokens and the user's profile, in the
 * Effect shape (tokens `Redacted`) and in the classic shape of the spec (plain strings).
 *
 * @since 0.1.0
 */
import * as Redacted from "effect/Redacted";
import type { ProviderName } from "./SupportedProvider.js";

/**
 * The user's profile as every provider maps it. Key accounts by `id` (with the provider),
 * never by `email`: an email merges accounts only when `emailVerified` is `true`.
 *
 * Which emails are verified: google and generic OpenID Connect providers give the email only
 * when `email_verified` is true (absent counts as false), github only its primary verified
 * address, facebook only confirmed addresses (Graph returns no other): `emailVerified: true`.
 * microsoft gives Entra's `email` claim, which Microsoft does not verify ("nOAuth"):
 * `emailVerified` is `true` only when the ID token carries the optional claim `xms_edov`
 * (email domain owner verified) as true, else `false`. twitter gives no email.
 *
 * @since 0.1.0
 * @category results
 */
export interface OAuthUser {
  /** The provider's stable user id, as a string. */
  readonly id: string;
  /** The user's address, when the provider gave one (see {@link OAuthUser.emailVerified}). */
  readonly email?: string;
  /**
   * `true` only when the provider marked `email` verified; present exactly when `email` is.
   */
  readonly emailVerified?: boolean;
  readonly name?: string;
  /** A URL of the user's picture. */
  readonly picture?: string;
}

/**
 * Provider tokens, kept `Redacted` so that logging them prints `<redacted>`.
 *
 * @since 0.1.0
 * @category results
 */
export interface OAuthTokens {
  readonly accessToken: Redacted.Redacted<string>;
  /** Present when the provider issued one (twitter: with the `offline.access` scope). */
  readonly refreshToken?: Redacted.Redacted<string>;
  /** Present only when the provider sent an expiry (GitHub OAuth Apps do not). */
  readonly expiresAt?: Date;
  /** The OpenID Connect ID token (google, microsoft). */
  readonly idToken?: Redacted.Redacted<string>;
  /** The granted scopes, when the provider lists them. */
  readonly scopes?: ReadonlyArray<string>;
}

/**
 * A sign-in with a provider, what a successful callback yields on the Effect face: the
 * provider, its tokens and the user's profile (not an app session: the routes' `session`
 * option makes one from it).
 *
 * @since 0.1.0
 * @category results
 */
export interface OAuthSignIn {
  readonly provider: ProviderName;
  readonly tokens: OAuthTokens;
  readonly user: OAuthUser;
}

/**
 * The former name of {@link OAuthSignIn}.
 *
 * @deprecated Use `OAuthSignIn`: an OAuth callback's outcome, not a session.
 * @since 0.1.0
 * @category results
 */
export type OAuthSession = OAuthSignIn;

/**
 * The callback result of the spec (`handleCallback`, the built-in route's JSON body and the
 * callback handler's argument): plain token strings, `expiresAt` only when known.
 *
 * @since 0.1.0
 * @category results
 */
export interface OAuthCallbackResult {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly expiresAt?: Date;
  readonly user: OAuthUser;
}

/**
 * The classic callback result of a sign-in: tokens revealed, absent fields left out.
 *
 * @since 0.1.0
 * @category results
 */
export const toCallbackResult = (signIn: OAuthSignIn): OAuthCallbackResult => {
  const { tokens } = signIn;
  return {
    accessToken: Redacted.value(tokens.accessToken),
    ...(tokens.refreshToken === undefined
      ? {}
      : { refreshToken: Redacted.value(tokens.refreshToken) }),
    ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
    user: signIn.user,
  };
};
