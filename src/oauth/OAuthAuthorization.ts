/**
 * Starting an authorization: its options, the started authorization (URL and transaction),
 * the nonce's hash, and the step that makes them (state, PKCE verifier and nonce from one draw
 * of the CSPRNG, the URL from its template).
 *
 * @since 0.1.0
 */
import { hash } from "node:crypto";
import * as Clock from "effect/Clock";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import type * as Types from "effect/Types";
import { SecureRandom, tokensOf } from "../crypto/SecureRandom.js";
import { type AuthorizationUrls, authorizationUrls } from "./AuthorizationUrlTemplate.js";
import { UnknownProvider } from "./OAuthError.js";
import type { AuthorizationRequest, OAuthProviderService } from "./OAuthProvider.js";
import type { OAuthProvidersService } from "./OAuthProviders.js";
import {
  type OAuthTransaction,
  TRANSACTION_TTL,
  type TransactionIntent,
  type TransactionRedirects,
} from "./OAuthTransaction.js";
import type { ProviderName } from "./SupportedProvider.js";

/** Random bytes in each state, PKCE verifier and nonce drawn (256 bits). */
const TOKEN_BYTES = 32;

/**
 * Options of {@link OAuthPipeline.authorize}.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface AuthorizeOptions {
  /** A caller-chosen state; by default 32 bytes from the CSPRNG (256 bits). */
  readonly state?: string;
  /** The full scope list, replacing the provider's defaults. */
  readonly scopes?: ReadonlyArray<string>;
  /** Ask for a refresh token (see `AuthorizationRequest.offline`). */
  readonly offline?: boolean;
  /** Validated redirects to keep in the transaction. */
  readonly redirects?: TransactionRedirects;
  /** What the authorization is for, kept in the transaction (absent: a sign-in). */
  readonly intent?: TransactionIntent;
  /** With the `link` intent: who started it (see `OAuthTransaction.linkOwner`), kept in the transaction. */
  readonly linkOwner?: string;
}

/**
 * A started authorization: where to send the browser, and the transaction to keep.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface Authorization {
  readonly provider: ProviderName;
  /** The provider's authorization URL (it carries the state, never the verifier or nonce). */
  readonly url: string;
  readonly state: string;
  /** The PKCE verifier, for PKCE providers only. */
  readonly codeVerifier?: string;
  /** Everything the callback needs, to keep server-side or in the sealed cookie. */
  readonly transaction: OAuthTransaction;
}

/**
 * The hash sent as the OpenID `nonce` parameter: the transaction keeps the raw nonce, the URL
 * and the ID token carry only its SHA-256 (base64url), so the raw value never travels in a URL.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const nonceHash = (nonce: string): string => hash("sha256", nonce, "base64url");

/**
 * The `authorize` step of the pipeline over `registry`: an authorization of the provider
 * called `name`, or {@link UnknownProvider}.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const makeAuthorize = (
  registry: OAuthProvidersService,
): ((
  name: string,
  options?: AuthorizeOptions,
) => Effect.Effect<Authorization, UnknownProvider>) => {
  const ttl = Duration.toMillis(TRANSACTION_TTL);
  const urls = new Map<OAuthProviderService, AuthorizationUrls>();
  const urlsOf = (p: OAuthProviderService) => {
    let of = urls.get(p);
    if (of === undefined) {
      of = authorizationUrls(p);
      urls.set(p, of);
    }
    return of;
  };

  /** The started authorization, its transaction expiring at `expiry`. */
  const started = (
    p: OAuthProviderService,
    url: string,
    state: string,
    codeVerifier: string | undefined,
    nonce: string | undefined,
    redirects: TransactionRedirects,
    expiry: number,
    intent: TransactionIntent | undefined,
    linkOwner: string | undefined,
  ): Authorization => {
    const transaction: Types.Mutable<OAuthTransaction> = {
      provider: p.name,
      state,
      redirects,
      expiry,
    };
    const authorization: Types.Mutable<Authorization> = {
      provider: p.name,
      url,
      state,
      transaction,
    };
    if (codeVerifier !== undefined) {
      transaction.codeVerifier = codeVerifier;
      authorization.codeVerifier = codeVerifier;
    }
    if (nonce !== undefined) transaction.nonce = nonce;
    if (intent !== undefined) transaction.intent = intent;
    if (linkOwner !== undefined) transaction.linkOwner = linkOwner;
    return authorization;
  };

  // Untraced, and in as few steps as it takes: it only computes, and a span (with the call-site
  // capture of `Effect.fn`) would cost as much as the whole authorization. The tokens it needs
  // (state, PKCE verifier, nonce) come from one draw; with the URL's template known, the rest
  // is one step (the clock's).
  const authorize = (
    name: string,
    options: AuthorizeOptions = {},
  ): Effect.Effect<Authorization, UnknownProvider> => {
    const found = registry.get(name);
    if (Option.isNone(found)) return Effect.fail(new UnknownProvider());
    const p = found.value;
    const given = options.state !== undefined && options.state !== "" ? options.state : undefined;
    const count = (given === undefined ? 1 : 0) + (p.pkce ? 1 : 0) + (p.oidc ? 1 : 0);
    return Effect.flatMap(SecureRandom, (random) =>
      Effect.flatMap(random.bytes(count * TOKEN_BYTES), (bytes) => {
        const tokens = tokensOf(bytes, count, TOKEN_BYTES);
        let drawn = 0;
        const state = given ?? tokens[drawn++];
        const codeVerifier = p.pkce ? tokens[drawn++] : undefined;
        const nonce = p.oidc ? tokens[drawn++] : undefined;
        const request: Types.Mutable<AuthorizationRequest> = {
          state,
          scopes: options.scopes ?? p.defaultScopes,
        };
        if (codeVerifier !== undefined) request.codeVerifier = codeVerifier;
        if (nonce !== undefined) request.nonce = nonceHash(nonce);
        if (options.offline !== undefined) request.offline = options.offline;
        const redirects = options.redirects ?? {};
        const finish = (url: string) =>
          Clock.clockWith((clock) =>
            Effect.succeed(
              started(
                p,
                url,
                state,
                codeVerifier,
                nonce,
                redirects,
                clock.unsafeCurrentTimeMillis() + ttl,
                options.intent,
                options.linkOwner,
              ),
            ),
          );
        const of = urlsOf(p);
        const known = of.known(request);
        return known === undefined ? Effect.flatMap(of.url(request), finish) : finish(known);
      }),
    );
  };

  return authorize;
};
