import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import { targetPath } from "../http/RequestTarget.js";

/**
 * Whether to believe the `X-Forwarded-*` headers a reverse proxy adds: `false` (the default)
 * ignores them, since any client can send them; `true` trusts every hop (the leftmost
 * `X-Forwarded-For` address is the client); a number `n` trusts the `n` proxies nearest to the
 * server (the address `n` hops from the right is the client).
 *
 * @since 0.1.0
 * @category middleware
 */
export type TrustProxy = boolean | number;

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

/** The first value of a header node may have joined or repeated. */
const headerValue = (request: HttpServerRequest.HttpServerRequest, name: string) => {
  const value: unknown = request.headers[name];
  return typeof value === "string" ? value : undefined;
};

/**
 * The client's address: the socket's peer, unless `trustProxy` says which `X-Forwarded-For`
 * entry to believe. `"unknown"` when there is no address at all (a Unix socket).
 *
 * @since 0.1.0
 * @category middleware
 */
export const clientAddress = (
  request: HttpServerRequest.HttpServerRequest,
  trustProxy: TrustProxy = false,
): string => {
  const peer = request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown";
  if (trustProxy === false || trustProxy === 0) return peer;
  const forwarded = headerValue(request, "x-forwarded-for");
  if (forwarded === undefined) return peer;
  const chain = forwarded
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  if (chain.length === 0) return peer;
  if (trustProxy === true) return chain[0];
  // `peer` is the nearest proxy; each further trusted hop is one more entry from the right.
  const hops = [...chain, peer];
  return hops[Math.max(0, hops.length - 1 - trustProxy)];
};

/**
 * Whether the client reached the app over https: a TLS socket, or (behind a trusted proxy)
 * `X-Forwarded-Proto: https`.
 *
 * @since 0.1.0
 * @category middleware
 */
export const isHttps = (
  request: HttpServerRequest.HttpServerRequest,
  trustProxy: TrustProxy = false,
): boolean => {
  const source = request.source as { readonly socket?: { readonly encrypted?: boolean } };
  if (source?.socket?.encrypted === true) return true;
  if (trustProxy === false || trustProxy === 0) return false;
  const proto = headerValue(request, "x-forwarded-proto");
  return proto !== undefined && proto.split(",")[0].trim().toLowerCase() === "https";
};
