/**
 * What the built-in routes resolve once, at startup: the pipeline and store, the providers by
 * name, the redirect and app origins, the client key, the app's session service, and the
 * responses that never change. A request only looks things up in it.
 *
 * @since 0.1.0
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import { codedFailureResponse } from "../../http/CodedFailure.js";
import { causeToResponse } from "../../http/ErrorResponse.js";
import { ForbiddenError } from "../../http/HttpError.js";
import { type ClientKeyOptions, clientKeyOf } from "../../middleware/internal/clientKey.js";
import { secured } from "../../session/internal/securityHeaders.js";
import { Session, type SessionApi } from "../../session/Session.js";
import { OAuth, type OAuthPipeline } from "../OAuth.js";
import { reservedProviderNames } from "../OAuthConfig.js";
import { UnknownProvider } from "../OAuthError.js";
import { OAuthConfigError, type OAuthProviderService } from "../OAuthProvider.js";
import type { OAuthRoutesOptions } from "../OAuthRoutesOptions.js";
import { normaliseOrigins } from "../RedirectPolicy.js";
import type { ProviderName } from "../SupportedProvider.js";
import { TransactionStore, type TransactionStoreService } from "../TransactionStore.js";

/** Options with every type parameter widened: what the routes read of them. */
export type AnyRoutesOptions = OAuthRoutesOptions<unknown, unknown, unknown, unknown, unknown>;

/** What the handlers need from context at startup: the request is there when they run. */
export type StartupContext<R> = Exclude<R, HttpServerRequest.HttpServerRequest>;

/** Everything the built-in routes resolve at startup. */
export interface RouteSetup {
  readonly options: AnyRoutesOptions;
  readonly oauth: OAuthPipeline;
  readonly store: TransactionStoreService;
  /** The context the app's handlers (`onSuccess`, `session.from`, `session.link`) run in. */
  readonly context: Context.Context<unknown>;
  /** The configured providers by name. */
  readonly providers: ReadonlyMap<string, OAuthProviderService>;
  /** The origins an absolute redirect may point to. */
  readonly redirectOrigins: ReadonlySet<string>;
  /** The app's own: those of the providers' redirect URIs, and `session.origins`. */
  readonly appOrigins: ReadonlySet<string>;
  /** The key a client's transactions are counted under: its address, as the rate limiter's. */
  readonly clientKey: (request: HttpServerRequest.HttpServerRequest) => string;
  /** With `session`: the app's session service. */
  readonly sessions: SessionApi<unknown> | undefined;
  /** `Secure` and `__Host-` on the transaction cookie of `provider`. */
  readonly isSecure: (provider: OAuthProviderService) => boolean;
  /** Whether refresh tokens are asked of `provider`. */
  readonly wantsOffline: (provider: ProviderName) => boolean;
  /** The answer for a name that is not a provider (404 `unknown_provider`). */
  readonly unknownProvider: HttpServerResponse.HttpServerResponse;
  /** The answer for a request from another site (403). */
  readonly crossSite: HttpServerResponse.HttpServerResponse;
}

/** `origins` normalised, or the configuration error naming the bad one. */
const originsOf = (origins: ReadonlyArray<string> | undefined) =>
  Effect.try({
    try: () => normaliseOrigins(origins),
    catch: (error) =>
      new OAuthConfigError({
        message: error instanceof Error ? error.message : "Invalid redirect origin",
      }),
  });

/** The key a client's transactions are counted under, or what is wrong with `options`. */
const clientKeys = (options: ClientKeyOptions) =>
  Effect.mapError(clientKeyOf(options), (message) => new OAuthConfigError({ message }));

/** Refuses a provider named as one of the routes' own paths (`session`, `logout`). */
const refuseReservedNames = (providers: ReadonlyArray<ProviderName>) => {
  const reserved = providers.filter((name) => reservedProviderNames.has(name));
  return reserved.length === 0
    ? Effect.void
    : new OAuthConfigError({
        message: `The provider name "${reserved[0]}" is reserved: /auth/session and /auth/logout are the built-in routes' own paths. Rename the provider.`,
      });
};

/** The configured providers by name (a request looks its provider up in a map). */
const providersByName = (oauth: OAuthPipeline) =>
  Effect.gen(function* () {
    const providers = new Map<string, OAuthProviderService>();
    for (const name of oauth.providers)
      providers.set(name, yield* Effect.orDie(oauth.provider(name)));
    return providers;
  });

/** With `session`: the app's `Session` service, which must be provided. */
const sessionService = (options: AnyRoutesOptions) =>
  Effect.gen(function* () {
    if (options.session === undefined) return undefined;
    const found = yield* Effect.serviceOption(Session);
    if (Option.isNone(found)) {
      return yield* new OAuthConfigError({
        message:
          "The routes' `session` option needs the app's Session service: provide UserSession.layer(...) (classic face: import SessionModule.forRoot(...))",
      });
    }
    return found.value as SessionApi<unknown>;
  });

/** Resolves what the routes of `options` use, failing on a configuration they refuse. */
export const routeSetup = <Startup>(
  options: AnyRoutesOptions,
): Effect.Effect<RouteSetup, OAuthConfigError, OAuth | TransactionStore | Startup> =>
  Effect.gen(function* () {
    const oauth = yield* OAuth;
    const store = yield* TransactionStore;
    const context = (yield* Effect.context<Startup>()) as Context.Context<unknown>;
    yield* refuseReservedNames(oauth.providers);
    const redirectOrigins = yield* originsOf(options.allowedRedirectOrigins);
    const clientKey = yield* clientKeys(options);
    const providers = yield* providersByName(oauth);
    const sessions = yield* sessionService(options);
    const appOrigins: ReadonlySet<string> = new Set([
      ...[...providers.values()].map((provider) => new URL(provider.redirectUri).origin),
      ...(yield* originsOf(options.session?.origins)),
    ]);
    const { secureCookie, offline } = options;
    return {
      options,
      oauth,
      store,
      context,
      providers,
      redirectOrigins,
      appOrigins,
      clientKey,
      sessions,
      isSecure: (provider) =>
        secureCookie === undefined || secureCookie === "auto"
          ? provider.redirectUri.startsWith("https:")
          : secureCookie,
      wantsOffline: (provider) =>
        offline === true || (Array.isArray(offline) && offline.includes(provider)),
      unknownProvider: secured(codedFailureResponse(new UnknownProvider())),
      crossSite: secured(yield* causeToResponse(Cause.fail(new ForbiddenError()))),
    };
  });
