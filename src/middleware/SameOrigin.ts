/**
 * The same-origin check of state-changing requests, as Go's `CrossOriginProtection` makes it:
 * the check `POST /auth/logout` and `GET /auth/:provider?intent=link` use, for an app's own
 * routes as a guard (`SameOriginGuard`), as middleware (`make`, `SameOriginMiddleware`) or as
 * one Effect step in a route (`check`). A refused request is a 403 in the standard shape.
 *
 * @since 0.1.0
 */
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import { StartupError } from "../di/StartupError.js";
import { errorResponse } from "../http/ErrorResponse.js";
import { ForbiddenError } from "../http/HttpError.js";
import { parseOrigins, SAFE_METHODS } from "./internal/sameOriginRules.js";
import * as Middleware from "./Middleware.js";

/**
 * Options of the same-origin check.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface SameOriginOptions {
  /**
   * Origins trusted besides the app's own (`https://www.example.com` for a form on a sibling
   * site): a request whose `Origin` is one of them is accepted whatever `Sec-Fetch-Site` says.
   */
  readonly origins?: ReadonlyArray<string>;
}

/**
 * Origins a request may come from besides its own host, parsed once by {@link trustedOrigins}.
 *
 * @since 0.1.0
 * @category middleware
 */
export type TrustedOrigins = ReadonlySet<string>;

/**
 * Parses trusted origins, at startup: each is normalised to its `scheme://host[:port]`; one that
 * is not an http(s) origin (a path, a query, a credential) is a `StartupError` naming it.
 *
 * @since 0.1.0
 * @category middleware
 */
export const trustedOrigins = (
  origins: ReadonlyArray<string> = [],
): Effect.Effect<TrustedOrigins, StartupError> =>
  Effect.suspend(() => {
    const parsed = parseOrigins(origins);
    return typeof parsed === "string"
      ? new StartupError({ message: parsed })
      : Effect.succeed(parsed);
  });

/** Whether `origin` names the host the request was sent to (`Host`), for browsers without `Sec-Fetch-Site`. */
const isOwnHost = (origin: string, host: string | undefined) => {
  if (host === undefined) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
};

/**
 * `true` when a request comes from another site, judged as Go's `CrossOriginProtection` does:
 * an `Origin` among `trusted` is accepted; otherwise `Sec-Fetch-Site` (which a page cannot
 * forge) decides, `same-origin` or `none` (typed in, a bookmark) only; without it (a browser
 * older than 2023), an `Origin` for another host than `Host` is refused. A request with neither
 * header is accepted: browsers send one or both on every unsafe request and on every navigation,
 * so it comes from a client that holds its cookies itself. (A form on a
 * `Referrer-Policy: no-referrer` page posts `Origin: null` with `Sec-Fetch-Site: same-origin`.)
 * It looks at headers only: whether the method matters is the caller's.
 *
 * @since 0.1.0
 * @category middleware
 */
export const isCrossSite = (
  headers: Readonly<Record<string, string | undefined>>,
  trusted: TrustedOrigins,
): boolean => {
  const origin = headers.origin;
  if (origin !== undefined && trusted.has(origin)) return false;
  const site = headers["sec-fetch-site"];
  if (site !== undefined) return site !== "same-origin" && site !== "none";
  return origin !== undefined && !isOwnHost(origin, headers.host);
};

const forbidden = new ForbiddenError();

/**
 * One Effect step of a route: fails with a 403 `ForbiddenError` when the request is cross-site
 * (see {@link isCrossSite}), whatever its method. For a `GET` that starts something (a link, a
 * payment) as much as for a `POST`.
 *
 * @example
 * const unlink = HttpLayerRouter.add(
 *   "POST",
 *   "/accounts/:provider/unlink",
 *   Effect.zipRight(SameOrigin.check(), HttpServerResponse.empty({ status: 204 })),
 * );
 *
 * @since 0.1.0
 * @category middleware
 */
export const check = (
  trusted: TrustedOrigins = new Set(),
): Effect.Effect<void, ForbiddenError, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    isCrossSite(request.headers, trusted) ? Effect.fail(forbidden) : Effect.void,
  );

/**
 * The check as an Effect `HttpMiddleware`: a cross-site request with an unsafe method (anything
 * but `GET`, `HEAD`, `OPTIONS`) is answered 403 in the standard shape and never reaches the
 * routes; others pass untouched. Give it to `StrataServer.serve(routes, { middleware })`, or
 * wrap one router's routes with it.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (
  options: SameOriginOptions = {},
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError> =>
  Effect.map(trustedOrigins(options.origins), (trusted) => {
    const refused = { answer: errorResponse(forbidden) };
    return Middleware.decorating((request) =>
      !SAFE_METHODS.has(request.method) && isCrossSite(request.headers, trusted)
        ? refused
        : undefined,
    );
  });
