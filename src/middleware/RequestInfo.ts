import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import { targetPath } from "../http/RequestTarget.js";

/** Whom `X-Forwarded-*` headers are believed from, and what they say: see `TrustProxy.ts`. */
export { clientAddress, isHttps, type TrustProxy } from "./TrustProxy.js";

/**
 * The path of a request as the router matches it, without its query string: what middleware
 * match, exclude and log (never the query, which may carry codes or tokens). It is the path of
 * the request target in its canonical form, which Strata's server routes (`//admin/%75sers` is
 * `/admin/users`; see `RequestTarget.canonicalTarget`), so that no spelling of a path reaches
 * a route while skipping middleware scoped to it. An absolute URL (a proxy's request target, or
 * a request made with `HttpServerRequest.fromWeb`) gives its path.
 *
 * @since 0.1.0
 * @category middleware
 */
export const requestPath = (request: HttpServerRequest.HttpServerRequest): string =>
  targetPath(request.originalUrl);

/**
 * A path prefix in the form {@link prefixMatcher} compares: a leading `/`, no trailing `/` (`""`
 * and `"/"` are `/`).
 *
 * @since 0.1.0
 * @category middleware
 */
export const normalizePrefix = (prefix: string): string => {
  const trimmed = prefix.replace(/\/+$/, "");
  if (trimmed === "") return "/";
  return trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
};

/**
 * A test for paths (as {@link requestPath} gives them) under `prefix`, on segment boundaries:
 * `/admin` matches `/admin` and `/admin/users`, not `/administrator`. Letter case is ignored,
 * as the router ignores it by default: `/ADMIN/users` reaches the `/admin/users` route.
 *
 * @since 0.1.0
 * @category middleware
 */
export const prefixMatcher = (prefix: string): ((path: string) => boolean) => {
  const normalized = normalizePrefix(prefix).toLowerCase();
  if (normalized === "/") return () => true;
  const withSlash = `${normalized}/`;
  return (path) => {
    const folded = path.toLowerCase();
    return folded === normalized || folded.startsWith(withSlash);
  };
};
