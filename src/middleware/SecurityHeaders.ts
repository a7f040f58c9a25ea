import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import { StartupError } from "../di/StartupError.js";
import { addDefaultHeaders } from "../server/internal/FastPath.js";
import * as Middleware from "./Middleware.js";
import { isHttps, type TrustProxy } from "./RequestInfo.js";
import { make as parseTrustProxy } from "./TrustProxy.js";

/**
 * `Strict-Transport-Security` settings.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface HstsOptions {
  /** Seconds browsers remember to use https only (default 31 536 000: a year). */
  readonly maxAge?: number;
  /** Covers subdomains too (default true). */
  readonly includeSubDomains?: boolean;
  /** Asks for inclusion in browsers' preload lists (default false). */
  readonly preload?: boolean;
}

/**
 * Options of {@link make} and {@link SecurityHeadersMiddleware}: each header can be replaced by
 * another value or turned off with `false`.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface SecurityHeadersOptions {
  /** `Content-Security-Policy` of non-JSON responses (default {@link DEFAULT_CONTENT_SECURITY_POLICY}). */
  readonly contentSecurityPolicy?: string | false;
  /** `X-Frame-Options` (default `DENY`). */
  readonly frameOptions?: "DENY" | "SAMEORIGIN" | false;
  /** `X-Content-Type-Options: nosniff` (default true). */
  readonly noSniff?: boolean;
  /** `Referrer-Policy` (default `no-referrer`). */
  readonly referrerPolicy?: string | false;
  /** `Strict-Transport-Security`, sent on https requests only (default: a year, subdomains included). */
  readonly hsts?: HstsOptions | false;
  /** Believe `X-Forwarded-Proto` to tell https requests (default false). */
  readonly trustProxy?: TrustProxy;
}

/**
 * The default `Content-Security-Policy`: same-origin resources only, no plugins, no framing,
 * no `<base>` hijacking, forms posting to the same origin.
 *
 * @since 0.1.0
 * @category middleware
 */
export const DEFAULT_CONTENT_SECURITY_POLICY =
  "default-src 'self'; base-uri 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; img-src 'self' data:";

const isJson = (response: HttpServerResponse.HttpServerResponse) => {
  const type = response.headers["content-type"];
  if (type === undefined) return false;
  if (type === "application/json") return true;
  const essence = type.split(";")[0].trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
};

/**
 * Helmet-like security headers as an Effect `HttpMiddleware`, added to every response (error
 * responses included) unless the route set that header itself: `X-Content-Type-Options:
 * nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`, a strict
 * `Content-Security-Policy` on non-JSON responses, and `Strict-Transport-Security` on https.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (
  options: SecurityHeadersOptions = {},
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError> =>
  Effect.suspend(() => {
    const common: Record<string, string> = {};
    if (options.noSniff !== false) common["x-content-type-options"] = "nosniff";
    const frame = options.frameOptions ?? "DENY";
    if (frame !== false) common["x-frame-options"] = frame;
    const referrer = options.referrerPolicy ?? "no-referrer";
    if (referrer !== false) common["referrer-policy"] = referrer;
    const csp = options.contentSecurityPolicy ?? DEFAULT_CONTENT_SECURITY_POLICY;
    const document = csp === false ? common : { ...common, "content-security-policy": csp };
    const hsts =
      options.hsts === false
        ? undefined
        : [
            `max-age=${options.hsts?.maxAge ?? 31_536_000}`,
            options.hsts?.includeSubDomains === false ? undefined : "includeSubDomains",
            options.hsts?.preload === true ? "preload" : undefined,
          ]
            .filter((part) => part !== undefined)
            .join("; ");
    const all = [...Object.entries(document), ["strict-transport-security", hsts ?? ""]];
    const unsafe = all.find(([, value]) => /[\r\n]/.test(value));
    if (unsafe !== undefined) {
      return new StartupError({ message: `Security headers: ${unsafe[0]} contains CR or LF` });
    }
    const withHsts = (headers: Record<string, string>) =>
      hsts === undefined ? headers : { ...headers, "strict-transport-security": hsts };
    const variants = {
      json: common,
      document,
      jsonHttps: withHsts(common),
      documentHttps: withHsts(document),
    };
    const add = (response: HttpServerResponse.HttpServerResponse, https: boolean) => {
      const headers = isJson(response)
        ? https
          ? variants.jsonHttps
          : variants.json
        : https
          ? variants.documentHttps
          : variants.document;
      return addDefaultHeaders(response, headers);
    };

    const plain = (response: HttpServerResponse.HttpServerResponse) => add(response, false);
    const secure = (response: HttpServerResponse.HttpServerResponse) => add(response, true);

    return Effect.map(parseTrustProxy(options.trustProxy), (trustProxy) =>
      Middleware.decorating(
        hsts === undefined
          ? () => plain
          : (request) => (isHttps(request, trustProxy) ? secure : plain),
      ),
    );
  });
