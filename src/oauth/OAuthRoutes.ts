/**
 * The built-in routes, as `HttpLayerRouter` routes both faces mount:
 *
 * - `GET /auth/:provider` starts an authorization: a 302 to the provider, the transaction in
 *   the transaction cookie.
 * - `GET /auth/:provider/callback` completes it: the callback result as JSON, the handler's
 *   value or response, or a redirect to the validated `successRedirect` / `errorRedirect`.
 *   With `session`, it signs the user in first (a new session) and redirects.
 * - With `session`: `GET /auth/session` answers the signed-in user as JSON (401 without one)
 *   and `POST /auth/logout` ends the session (403 cross-site). These static paths win over
 *   `/auth/:provider`; `session` and `logout` are reserved provider names.
 * - With `session.link`: `GET /auth/:provider?intent=link` starts linking the provider account
 *   to the signed-in user (401 `session_required` without a session, 400 `invalid_intent` for
 *   any other intent or without `link`, 403 from another site, judged as a logout is); the
 *   intent is kept in the transaction, so the state binds it, and its callback links instead of
 *   signing in (the session must still be there).
 *
 * Statuses: unknown provider 404; missing, invalid, expired or replayed state 401
 * `Invalid state`; provider `error=` 401; code rejected 401; provider unreachable, 5xx or
 * malformed 502; provider too slow 504; a bad redirect parameter 400; an in-process
 * transaction store full of live entries 503; a client holding the store's `maxPerClient`
 * entries 429 `too_many_transactions` with `Retry-After`. Bodies have the standard
 * shape plus a stable `error` code. Every response carries `Cache-Control: no-store` and
 * `Referrer-Policy: no-referrer`; every callback outcome clears the transaction cookie.
 *
 * @since 0.1.0
 */
import type * as HttpApi from "@effect/platform/HttpApi";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import type * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import { setResponseHeaders } from "../fastpath/FastPath.js";
import { type CodedFailure, codedFailureResponse, isCodedFailure } from "../http/CodedFailure.js";
import { causeToResponse } from "../http/ErrorResponse.js";
import { ForbiddenError, UnauthorizedError } from "../http/HttpError.js";
import { StrataResponse } from "../http/StrataResponse.js";
import { jsonResponse } from "../http/TextResponse.js";
import { type ClientKeyOptions, clientKeyOf } from "../middleware/internal/clientKey.js";
import { isCrossSite } from "../middleware/SameOrigin.js";
import * as TrustProxy from "../middleware/TrustProxy.js";
import { describeRoute } from "../openapi/RouteDescription.js";
import { Session, type SessionApi } from "../session/Session.js";
import { linkOwner } from "./LinkOwner.js";
import { OAuth } from "./OAuth.js";
import { reservedProviderNames } from "./OAuthConfig.js";
import {
  InvalidRedirect,
  type OAuthError,
  TooManyTransactions,
  tooManyTransactionsResponse,
  UnknownProvider,
} from "./OAuthError.js";
import { OAuthConfigError, type OAuthProviderService } from "./OAuthProvider.js";
import { type OAuthSession, toCallbackResult } from "./OAuthResult.js";
import { sessionUserOf } from "./OAuthSessionUser.js";
import type { TransactionRedirects } from "./OAuthTransaction.js";
import {
  HANDLER_FAILED,
  normaliseOrigins,
  validateRedirect,
  withErrorCode,
} from "./RedirectPolicy.js";
import type { ProviderName } from "./SupportedProvider.js";
import {
  clearTransactionCookie,
  readTransactionCookie,
  transactionCookie,
} from "./TransactionCookie.js";
import { TransactionStore } from "./TransactionStore.js";

/**
 * What runs after a successful callback. Its value is sent as JSON (or the browser goes to
 * `successRedirect` when one was given); a platform `HttpServerResponse` or a sent
 * `StrataResponse` is sent as is (for instance a session cookie and a redirect), except that
 * its `Location` must pass the redirect policy (a path or a configured origin) and is sent
 * normalised; a refused one is a failed handler.
 *
 * `R` is what it needs from context, `A` what it succeeds with, `E` how it fails (an
 * `HttpError` answers its own status, any other failure a 500). Leave them to inference
 * (`satisfies OAuthSuccessHandler<Users>`) and `A` and `E` stay the handler's own.
 *
 * @since 0.1.0
 * @category routes
 */
export type OAuthSuccessHandler<R = never, A = unknown, E = unknown> = (
  session: OAuthSession,
  provider: ProviderName,
) => Effect.Effect<A, E, R>;

/**
 * Sign-in with a session (`OAuthRoutesOptions.session`): the callback creates a session (the
 * app's `Session` service, which must be provided) and redirects; `GET /auth/session` and
 * `POST /auth/logout` are added.
 *
 * @since 0.1.0
 * @category routes
 */
export interface OAuthRoutesSession<R = never, E = unknown> {
  /**
   * The session data of a sign-in, matching the app's session Schema (data that does not is a
   * failed handler). Default: the profile as an `OAuthSessionUser` (`Session.make(OAuthSessionUser)`).
   */
  readonly from?: (session: OAuthSession, provider: ProviderName) => Effect.Effect<unknown, E, R>;
  /**
   * Enables linking: a callback started with `?intent=link` links the provider account of
   * `session` to the signed-in user whose session data is `current` (for instance with
   * `Accounts.link`), and its value is the session data from then on (a new session cookie).
   * A failure that names its answer (`httpStatus`, `code`, `publicMessage`: `AccountConflict`
   * is a 409 `account_conflict`) is answered with it, or redirected to `errorRedirect` with
   * `error=<code>`. Without it, `?intent=link` is refused (400 `invalid_intent`).
   */
  readonly link?: (session: OAuthSession, current: unknown) => Effect.Effect<unknown, E, R>;
  /**
   * Origins a `POST /auth/logout` and a link start (`?intent=link`) may come from besides the
   * origins of the providers' redirect URIs (the app's own). Other requests are refused (403)
   * when `Sec-Fetch-Site` says another site, or, without it, when they carry another `Origin`
   * (see `SameOrigin.isCrossSite`).
   */
  readonly origins?: ReadonlyArray<string>;
  /**
   * Where a browser lands after `POST /auth/logout` (a 303; a path or an allowed redirect
   * origin). Default: none, a 204 (for `fetch`); give one for an HTML form.
   */
  readonly logoutRedirect?: string;
}

/**
 * Options of the built-in routes.
 *
 * @since 0.1.0
 * @category routes
 */
export interface OAuthRoutesOptions<R = never, A = unknown, E = unknown, RS = never, ES = never> {
  /** Where the routes live (default `/auth`: `/auth/:provider`, `/auth/:provider/callback`). */
  readonly path?: `/${string}`;
  /** Origins an absolute `successRedirect`/`errorRedirect` may point to (relative paths always may). */
  readonly allowedRedirectOrigins?: ReadonlyArray<string>;
  /**
   * `Secure` and the `__Host-` prefix on the transaction cookie. `"auto"` (default): when the
   * provider's configured redirect URI is https.
   */
  readonly secureCookie?: boolean | "auto";
  /** Ask for refresh tokens (all providers, or those listed). */
  readonly offline?: boolean | ReadonlyArray<ProviderName>;
  /**
   * Runs after a successful callback (and after the session is created), before responding.
   */
  readonly onSuccess?: OAuthSuccessHandler<R, A, E>;
  /**
   * Signs the user in with a session at every successful callback, then (without an
   * `onSuccess` response) redirects to `successRedirect`, `/` by default; adds
   * `GET /auth/session` and `POST /auth/logout`. `session: {}` keeps the profile.
   */
  readonly session?: OAuthRoutesSession<RS, ES>;
  /**
   * Which `X-Forwarded-For` entry is the client whose transactions are counted against the
   * store's `maxPerClient` (SECURITY.md 42), as for the rate limiter: default false (the
   * socket's peer), or the number of proxies in front of the app, or their addresses and CIDR
   * ranges (see `TrustProxy`). `true` is refused at startup: any client could then pick its own key.
   */
  readonly trustProxy?: TrustProxy.TrustProxy;
  /**
   * IPv6 clients are counted per network of this prefix length (default 64, as the rate
   * limiter); `false` counts each address.
   */
  readonly ipv6Subnet?: number | false;
}

const securityHeaders = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
} as const;

const secured = (response: HttpServerResponse.HttpServerResponse) =>
  setResponseHeaders(response, securityHeaders);

/**
 * A failure's response: a {@link CodedFailure} (a full store) with its own status and code, a
 * client over its transactions with `Retry-After` too.
 */
const failureResponse = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause);
  if (Option.isNone(failure)) return causeToResponse(cause);
  if (failure.value instanceof TooManyTransactions) {
    return Effect.succeed(tooManyTransactionsResponse(failure.value));
  }
  return isCodedFailure(failure.value)
    ? Effect.succeed(codedFailureResponse(failure.value))
    : causeToResponse(cause);
};

/** The key a client's transactions are counted under: its address, as the rate limiter's. */
const clientKeys = (options: ClientKeyOptions) =>
  Effect.mapError(clientKeyOf(options), (message) => new OAuthConfigError({ message }));

/** The `error` code a failed handler is redirected with: its own, else {@link HANDLER_FAILED}. */
const handlerFailureCode = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause);
  return Option.isSome(failure) && isCodedFailure(failure.value)
    ? failure.value.code
    : HANDLER_FAILED;
};

/**
 * The log line of a failed success handler that is answered with a redirect (an answered one is
 * logged by the error mapper): a warning with its code for a failure the handler meant (an
 * account linked to another user), an error with its cause for anything else.
 */
const logHandlerFailure = (cause: Cause.Cause<unknown>, redirected: boolean) => {
  if (!redirected) return Effect.void;
  const code = handlerFailureCode(cause);
  return code === HANDLER_FAILED
    ? Effect.logError("OAuth callback handler failed", cause)
    : Effect.logWarning("OAuth callback handler refused the sign-in").pipe(
        Effect.annotateLogs("error", code),
      );
};

/** A link started with another intent than `link`, or where linking is not enabled. */
const invalidIntent: CodedFailure = {
  httpStatus: 400,
  code: "invalid_intent",
  publicMessage: "Invalid intent",
};

/** A link started, or completed, without a session. */
const sessionRequired: CodedFailure = {
  httpStatus: 401,
  code: "session_required",
  publicMessage: "Sign in before linking an account",
};

/** The safe fields of an error for the log: tags, names, statuses, standard codes. */
const logFields = (error: OAuthError): Record<string, unknown> => {
  const fields: Record<string, unknown> = { error: error.code };
  for (const key of ["provider", "reason", "status", "oauthError", "detail", "operation"]) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields;
};

const logFailure = (error: OAuthError, provider: ProviderName) =>
  Effect.logWarning("OAuth callback failed").pipe(
    Effect.annotateLogs({ provider, ...logFields(error) }),
  );

/** Own properties only: `__proto__` and friends of a parsed query are never read. */
const queryParam = (
  query: Readonly<Record<string, string | ReadonlyArray<string>>>,
  name: string,
): unknown => (Object.hasOwn(query, name) ? query[name] : undefined);

/** Reads and validates the redirect parameters of a query. */
const queryRedirects = (
  query: Readonly<Record<string, string | ReadonlyArray<string>>>,
  origins: ReadonlySet<string>,
): Either.Either<TransactionRedirects, InvalidRedirect> => {
  const success = validateRedirect(queryParam(query, "successRedirect"), origins);
  if (Either.isLeft(success)) {
    return Either.left(new InvalidRedirect({ parameter: "successRedirect" }));
  }
  const error = validateRedirect(queryParam(query, "errorRedirect"), origins);
  if (Either.isLeft(error)) return Either.left(new InvalidRedirect({ parameter: "errorRedirect" }));
  return Either.right({
    ...(Option.isSome(success.right) ? { success: success.right.value } : {}),
    ...(Option.isSome(error.right) ? { error: error.right.value } : {}),
  });
};

/** What the handlers need from context at startup: the request is there when they run. */
type StartupContext<R> = Exclude<R, HttpServerRequest.HttpServerRequest>;

/** `origins` normalised, or the configuration error naming the bad one. */
const originsOf = (origins: ReadonlyArray<string> | undefined) =>
  Effect.try({
    try: () => normaliseOrigins(origins),
    catch: (error) =>
      new OAuthConfigError({
        message: error instanceof Error ? error.message : "Invalid redirect origin",
      }),
  });

/**
 * The routes, with the services they use captured (so they can be added to any router):
 * `GET :provider`, `GET :provider/callback`, and with `session` `GET session` and `POST logout`.
 *
 * @since 0.1.0
 * @category routes
 */
export const routes = <R = never, A = unknown, E = unknown, RS = never, ES = never>(
  options: OAuthRoutesOptions<R, A, E, RS, ES> = {},
): Effect.Effect<
  ReadonlyArray<HttpLayerRouter.Route<never, never>>,
  OAuthConfigError,
  OAuth | TransactionStore | StartupContext<R | RS>
> =>
  Effect.gen(function* () {
    const oauth = yield* OAuth;
    const store = yield* TransactionStore;
    const context = (yield* Effect.context<StartupContext<R | RS>>()) as Context.Context<R | RS>;
    const reserved = oauth.providers.filter((name) => reservedProviderNames.has(name));
    if (reserved.length > 0) {
      return yield* new OAuthConfigError({
        message: `The provider name "${reserved[0]}" is reserved: /auth/session and /auth/logout are the built-in routes' own paths. Rename the provider.`,
      });
    }
    const origins = yield* originsOf(options.allowedRedirectOrigins);
    const clientKey = yield* clientKeys(options);
    const base = options.path ?? "/auth";
    const isSecure = (provider: OAuthProviderService) =>
      options.secureCookie === undefined || options.secureCookie === "auto"
        ? provider.redirectUri.startsWith("https:")
        : options.secureCookie;
    const wantsOffline = (provider: ProviderName) =>
      options.offline === true ||
      (Array.isArray(options.offline) && options.offline.includes(provider));

    // Resolved once: a request looks its provider up in a map.
    const providers = new Map<string, OAuthProviderService>();
    for (const name of oauth.providers)
      providers.set(name, yield* Effect.orDie(oauth.provider(name)));

    /** The configured provider named by the path; `None` for any other name. */
    const providerFromPath = Effect.map(HttpLayerRouter.params, (params) =>
      Option.fromNullable(providers.get(params.provider ?? "")),
    );
    const unknownProvider = secured(codedFailureResponse(new UnknownProvider()));

    // With `session`: the app's session service, its origins and where a logout lands.
    const sessionOptions = options.session;
    let sessions: SessionApi<unknown> | undefined;
    if (sessionOptions !== undefined) {
      const found = yield* Effect.serviceOption(Session);
      if (Option.isNone(found)) {
        return yield* new OAuthConfigError({
          message:
            "The routes' `session` option needs the app's Session service: provide UserSession.layer(...) (classic face: import SessionModule.forRoot(...))",
        });
      }
      sessions = found.value;
    }
    const linkData = sessionOptions?.link;
    // The app's own origins: those of the providers' redirect URIs, and `session.origins`.
    const appOrigins: ReadonlySet<string> = new Set([
      ...[...providers.values()].map((provider) => new URL(provider.redirectUri).origin),
      ...(yield* originsOf(sessionOptions?.origins)),
    ]);
    const crossSite = secured(yield* causeToResponse(Cause.fail(new ForbiddenError())));

    /** What every started authorization answers, before its location and cookie are added. */
    const found = HttpServerResponse.empty({ status: 302, headers: securityHeaders });

    // The hot route: as few steps as it takes, no span (it only computes; the server's span
    // covers it). Route params and query come from the request's context in one read.
    const authorize = Effect.contextWithEffect(
      (
        context: Context.Context<
          | HttpLayerRouter.RouteContext
          | HttpServerRequest.ParsedSearchParams
          | HttpServerRequest.HttpServerRequest
        >,
      ) => {
        const params = Context.get(context, HttpLayerRouter.RouteContext).params;
        const p = providers.get(params.provider ?? "");
        if (p === undefined) return Effect.succeed(unknownProvider);
        const query = Context.get(context, HttpServerRequest.ParsedSearchParams);
        const redirects = queryRedirects(query, origins);
        if (Either.isLeft(redirects)) {
          return Effect.succeed(secured(codedFailureResponse(redirects.left)));
        }
        const start = (link: { readonly owner: string } | undefined) =>
          Effect.flatMap(
            oauth.authorize(p.name, {
              redirects: redirects.right,
              offline: wantsOffline(p.name),
              ...(link === undefined ? {} : { intent: "link", linkOwner: link.owner }),
            }),
            (authorization) =>
              Effect.map(
                store.save(
                  authorization.transaction,
                  clientKey(Context.get(context, HttpServerRequest.HttpServerRequest)),
                ),
                (cookie) =>
                  setResponseHeaders(found, {
                    location: authorization.url,
                    "set-cookie": transactionCookie(cookie, isSecure(p)),
                  }),
              ),
          );
        const intent = queryParam(query, "intent");
        if (intent === undefined) return start(undefined);
        // A link starts only for a signed-in user, where the app links.
        if (intent !== "link" || linkData === undefined || sessions === undefined) {
          return Effect.succeed(secured(codedFailureResponse(invalidIntent)));
        }
        // ... from the app's own pages, as a logout (SECURITY.md 45): another site's link would
        // otherwise join the attacker's provider account to the signed-in victim.
        const request = Context.get(context, HttpServerRequest.HttpServerRequest);
        if (isCrossSite(request.headers, appOrigins)) return Effect.succeed(crossSite);
        return Effect.flatMap(sessions.current, (current) =>
          Option.isNone(current)
            ? Effect.succeed(secured(codedFailureResponse(sessionRequired)))
            : start({ owner: linkOwner(current.value) }),
        );
      },
    ).pipe(Effect.catchAllCause((cause) => Effect.map(failureResponse(cause), secured)));

    /**
     * A handler's own response with its `Location` checked like `successRedirect` and replaced
     * by the validated value, the one sent (SECURITY.md 36); a refused one fails the handler.
     */
    const checkedLocation = (response: HttpServerResponse.HttpServerResponse) => {
      const location = response.headers.location;
      if (location === undefined) return Effect.succeed(response);
      const checked = validateRedirect(location, origins);
      return Either.isRight(checked) && Option.isSome(checked.right)
        ? Effect.succeed(HttpServerResponse.setHeader(response, "location", checked.right.value))
        : Effect.dieMessage(
            "The OAuth callback handler redirected where the redirect policy refuses",
          );
    };

    const from = sessionOptions?.from;
    /**
     * Signs the user in: a new session holding the data `from` makes (the profile by default);
     * linking (`current`: the signed-in user's data), the data `link` makes.
     */
    const signIn = (session: OAuthSession, current: Option.Option<unknown>) =>
      sessions === undefined
        ? Effect.void
        : Effect.flatMap(
            Option.isSome(current) && linkData !== undefined
              ? Effect.provide(linkData(session, current.value), context)
              : from === undefined
                ? Effect.succeed(sessionUserOf(session))
                : Effect.provide(from(session, session.provider), context),
            (data) => (sessions as SessionApi<unknown>).create(data),
          );

    const respondSuccess = (
      session: OAuthSession,
      redirects: TransactionRedirects,
      current: Option.Option<unknown>,
    ) =>
      Effect.gen(function* () {
        yield* signIn(session, current);
        // Signed in with a session, the browser goes on (never the callback result, which
        // carries provider tokens): to `successRedirect`, or home.
        const next = redirects.success ?? (sessions === undefined ? undefined : "/");
        if (options.onSuccess === undefined) {
          return next === undefined
            ? HttpServerResponse.unsafeJson(toCallbackResult(session))
            : HttpServerResponse.redirect(next, { status: 302 });
        }
        const value = yield* Effect.provide(options.onSuccess(session, session.provider), context);
        if (HttpServerResponse.isServerResponse(value)) return yield* checkedLocation(value);
        if (value instanceof StrataResponse) {
          if (!value.sent) {
            return yield* Effect.dieMessage(
              "The OAuth callback handler returned a StrataResponse it did not send",
            );
          }
          return yield* Effect.flatMap(value.response, checkedLocation);
        }
        if (next !== undefined) return HttpServerResponse.redirect(next, { status: 302 });
        return value === undefined
          ? HttpServerResponse.empty({ status: 204 })
          : HttpServerResponse.unsafeJson(value);
      });

    const callback = Effect.gen(function* () {
      const provider = yield* providerFromPath;
      // No cookie is touched for a name that is not a provider (SECURITY.md 16).
      if (Option.isNone(provider)) return unknownProvider;
      const p = provider.value;
      const secure = isSecure(p);
      const request = yield* HttpServerRequest.HttpServerRequest;
      const query = yield* HttpServerRequest.ParsedSearchParams;
      const fromQuery = queryRedirects(query, origins);
      // The transaction is consumed first, whatever happens next (SECURITY.md 3).
      const cookie = readTransactionCookie(request, secure);
      const finish = (response: HttpServerResponse.HttpServerResponse) =>
        clearTransactionCookie(secured(response), secure);
      const taken = Option.isNone(cookie)
        ? Either.right(Option.none())
        : yield* Effect.either(store.take(cookie.value, clientKey(request)));
      // A store that cannot answer or is full: 503, the cookie cleared as on every outcome.
      if (Either.isLeft(taken)) return finish(yield* failureResponse(Cause.fail(taken.left)));
      const transaction = taken.right;

      if (Either.isLeft(fromQuery)) {
        yield* logFailure(fromQuery.left, p.name);
        return finish(codedFailureResponse(fromQuery.left));
      }
      // Redirects stored at the start win; those of the callback's query are the fallback.
      const stored: TransactionRedirects = Option.match(transaction, {
        onNone: () => ({}),
        onSome: (tx) => tx.redirects,
      });
      const redirects: TransactionRedirects = {
        ...(fromQuery.right.success === undefined ? {} : { success: fromQuery.right.success }),
        ...(fromQuery.right.error === undefined ? {} : { error: fromQuery.right.error }),
        ...(stored.success === undefined ? {} : { success: stored.success }),
        ...(stored.error === undefined ? {} : { error: stored.error }),
      };
      const failWith = (code: string, response: HttpServerResponse.HttpServerResponse) =>
        finish(
          redirects.error === undefined
            ? response
            : HttpServerResponse.redirect(withErrorCode(redirects.error, code), { status: 302 }),
        );

      const outcome = yield* Effect.either(
        oauth.callback(
          p.name,
          {
            state: queryParam(query, "state"),
            code: queryParam(query, "code"),
            iss: queryParam(query, "iss"),
            error: queryParam(query, "error"),
          },
          transaction,
        ),
      );
      if (Either.isLeft(outcome)) {
        yield* logFailure(outcome.left, p.name);
        return failWith(outcome.left.code, codedFailureResponse(outcome.left));
      }
      // A link (its intent bound by the state) needs the user still signed in.
      let current: Option.Option<unknown> = Option.none();
      if (Option.isSome(transaction) && transaction.value.intent === "link") {
        if (linkData === undefined || sessions === undefined) {
          return failWith(invalidIntent.code, codedFailureResponse(invalidIntent));
        }
        const signedIn = yield* Effect.either(sessions.current);
        if (Either.isLeft(signedIn)) {
          return finish(yield* failureResponse(Cause.fail(signedIn.left)));
        }
        // Linked only to the user who started the link (not whoever signed in since).
        if (
          Option.isNone(signedIn.right) ||
          linkOwner(signedIn.right.value) !== transaction.value.linkOwner
        ) {
          return failWith(sessionRequired.code, codedFailureResponse(sessionRequired));
        }
        current = signedIn.right;
      }
      return yield* respondSuccess(outcome.right, redirects, current).pipe(
        Effect.map(finish),
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.interrupt
            : Effect.zipRight(
                logHandlerFailure(cause, redirects.error !== undefined),
                Effect.map(failureResponse(cause), (response) =>
                  failWith(handlerFailureCode(cause), response),
                ),
              ),
        ),
      );
    }).pipe(
      Effect.catchAllCause((cause) => Effect.map(causeToResponse(cause), secured)),
      Effect.withSpan("OAuthRoutes.callback"),
    );

    // Their OpenAPI description, made only when an app's document is built.
    const description = describe(base, oauth.providers, described(options));
    const list: Array<HttpLayerRouter.Route<never, never>> = [
      describeRoute(HttpLayerRouter.route("GET", `${base}/:provider`, authorize), description),
      describeRoute(
        HttpLayerRouter.route("GET", `${base}/:provider/callback`, callback),
        description,
      ),
    ] as Array<HttpLayerRouter.Route<never, never>>;
    if (sessions !== undefined && sessionOptions !== undefined) {
      const served = yield* sessionRoutes(base, sessions, sessionOptions, appOrigins, origins);
      list.push(...served.map((route) => describeRoute(route, description)));
    }
    return list;
  });

/**
 * `GET <base>/session` and `POST <base>/logout` over `sessions`. A logout is accepted from the
 * origins of the providers' redirect URIs and `options.origins` only (SECURITY.md 29).
 */
const sessionRoutes = (
  base: `/${string}`,
  sessions: SessionApi<unknown>,
  options: OAuthRoutesSession<unknown, unknown>,
  appOrigins: ReadonlySet<string>,
  redirectOrigins: ReadonlySet<string>,
) =>
  Effect.gen(function* () {
    const logoutRedirect = validateRedirect(options.logoutRedirect, redirectOrigins);
    if (Either.isLeft(logoutRedirect)) {
      return yield* new OAuthConfigError({
        message: "The routes' session.logoutRedirect is refused by the redirect policy",
      });
    }
    const loggedOut = Option.match(logoutRedirect.right, {
      onNone: () => HttpServerResponse.empty({ status: 204, headers: securityHeaders }),
      onSome: (location) =>
        HttpServerResponse.redirect(location, { status: 303, headers: securityHeaders }),
    });
    const unauthorized = secured(yield* causeToResponse(Cause.fail(new UnauthorizedError())));
    const forbidden = secured(yield* causeToResponse(Cause.fail(new ForbiddenError())));
    const failed = (cause: Cause.Cause<unknown>) => Effect.map(causeToResponse(cause), secured);

    const current = Effect.map(
      sessions.current,
      Option.match({
        onNone: () => unauthorized,
        onSome: (data) => secured(jsonResponse(data)),
      }),
    ).pipe(Effect.catchAllCause(failed));

    const logout = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      isCrossSite(request.headers, appOrigins)
        ? Effect.succeed(forbidden)
        : Effect.as(sessions.destroy, loggedOut),
    ).pipe(Effect.catchAllCause(failed));

    return [
      HttpLayerRouter.route("GET", `${base}/session`, current),
      HttpLayerRouter.route("POST", `${base}/logout`, logout),
    ] as ReadonlyArray<HttpLayerRouter.Route<never, never>>;
  });

/** What the routes' description depends on in their options. */
const described = <R, A, E, RS, ES>(options: OAuthRoutesOptions<R, A, E, RS, ES>) => ({
  handler: options.onSuccess !== undefined,
  ...(options.session === undefined
    ? {}
    : {
        session: {
          profile: options.session.from === undefined,
          logoutRedirect: options.session.logoutRedirect !== undefined,
          link: options.session.link !== undefined,
        },
      }),
});

const describe = (
  path: `/${string}`,
  providers: ReadonlyArray<ProviderName>,
  options: ReturnType<typeof described>,
) =>
  Effect.map(
    Effect.promise(() => import("./OAuthApi.js")),
    (api) => api.make({ path, providers, ...options }),
  );

/**
 * The OpenAPI description of the routes `layer(options)` adds, as an `HttpApi` (imported on
 * demand): give it to `OpenApiDocs.layer({ apis: [OAuthRoutes.api(options)] })`. A classic app
 * (`OAuthModule`) describes them in its document by itself.
 *
 * @since 0.1.0
 * @category routes
 */
export const api = <R = never, A = unknown, E = unknown, RS = never, ES = never>(
  options: OAuthRoutesOptions<R, A, E, RS, ES> = {},
): Effect.Effect<HttpApi.HttpApi.Any, never, OAuth> =>
  Effect.flatMap(OAuth, (oauth) =>
    describe(options.path ?? "/auth", oauth.providers, described(options)),
  );

/**
 * The built-in routes as a Layer for `HttpLayerRouter` (the Effect face).
 *
 * @example
 * declare const OAuthLive: Layer.Layer<OAuth>; // OAuth.layer({ providers: { github: { ... } } })
 *
 * const UserSession = Session.make(OAuthSessionUser);
 * const Me = HttpLayerRouter.add("GET", "/me", Effect.map(UserSession.require, jsonResponse));
 * // session: {} signs the profile in; or session: { from: (oauth) => toAppUser(oauth) }
 * const Routes = Layer.mergeAll(OAuthRoutes.layer({ session: {} }), Me);
 *
 * const App = StrataServer.serve(Routes).pipe(
 *   Layer.provide(OAuthLive),
 *   Layer.provide(TransactionStore.layerCookie.pipe(Layer.provide(TransactionSealer.layer()))),
 *   Layer.provide(UserSession.layer().pipe(Layer.provide(CookieSessionStore.layer()))),
 *   Layer.provide(StrataServer.layerNode({ port: 3000 })),
 * );
 *
 * @since 0.1.0
 * @category routes
 */
export const layer = <R = never, A = unknown, E = unknown, RS = never, ES = never>(
  options: OAuthRoutesOptions<R, A, E, RS, ES> = {},
): Layer.Layer<
  never,
  OAuthConfigError,
  HttpLayerRouter.HttpRouter | OAuth | TransactionStore | StartupContext<R | RS>
> =>
  HttpLayerRouter.addAll(routes(options)) as Layer.Layer<
    never,
    OAuthConfigError,
    HttpLayerRouter.HttpRouter | OAuth | TransactionStore | StartupContext<R | RS>
  >;
