import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import { StartupError } from "../di/StartupError.js";
import { setResponseHeaders } from "../fastpath/FastPath.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import * as Middleware from "./Middleware.js";

/**
 * Options of {@link make} and {@link CorsMiddleware}.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface CorsOptions {
  /**
   * The origins allowed to read responses, matched exactly (`https://app.example.com`, no path,
   * no trailing slash): one, a list, or `"*"` for any (the default). `"*"` cannot be combined
   * with `credentials`.
   */
  readonly origin?: string | ReadonlyArray<string>;
  /** Methods a preflight allows (default `GET, HEAD, PUT, PATCH, POST, DELETE`). */
  readonly methods?: ReadonlyArray<string>;
  /** Request headers a preflight allows (default: those the preflight asks for). */
  readonly allowedHeaders?: ReadonlyArray<string>;
  /** Response headers the browser may expose to scripts (default: none beyond the safelisted). */
  readonly exposedHeaders?: ReadonlyArray<string>;
  /** Allows cookies and HTTP authentication (`Access-Control-Allow-Credentials: true`); default false. */
  readonly credentials?: boolean;
  /** How long, in seconds, a browser may cache a preflight (default: not sent). */
  readonly maxAge?: number;
}

const DEFAULT_METHODS = ["GET", "HEAD", "PUT", "PATCH", "POST", "DELETE"];

/** `undefined` when `origin` is a bare origin (`scheme://host[:port]`), else why it is not. */
const originProblem = (origin: string): string | undefined => {
  if (!URL.canParse(origin)) return `${JSON.stringify(origin)} is not an origin`;
  const parsed = new URL(origin);
  return parsed.origin === origin
    ? undefined
    : `${JSON.stringify(origin)} is not an origin (expected ${JSON.stringify(parsed.origin)})`;
};

/** Adds `value` to the response's `Vary` header, keeping what the route set. */
const addVary = (
  response: HttpServerResponse.HttpServerResponse,
  value: string,
): HttpServerResponse.HttpServerResponse => {
  const existing = response.headers.vary;
  if (existing === undefined || existing === "") {
    return setResponseHeaders(response, { vary: value });
  }
  const present = existing.split(",").map((v) => v.trim().toLowerCase());
  return present.includes("*") || present.includes(value.toLowerCase())
    ? response
    : setResponseHeaders(response, { vary: `${existing}, ${value}` });
};

/**
 * CORS as an Effect `HttpMiddleware`. Origins are matched exactly: with a list, only a listed
 * origin is echoed in `Access-Control-Allow-Origin` (and `Vary: Origin` is always sent, so caches
 * keep the answers apart); with `"*"`, `*` is sent and credentials are refused at startup.
 * A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered 204 here,
 * without reaching the routes; from an origin not allowed it gets no CORS headers, which the
 * browser treats as a refusal.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (
  options: CorsOptions = {},
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError> =>
  Effect.suspend(() => {
    const origins =
      typeof options.origin === "string" ? [options.origin] : (options.origin ?? ["*"]);
    const anyOrigin = origins.includes("*");
    const credentials = options.credentials === true;
    if (anyOrigin && origins.length > 1) {
      return new StartupError({ message: 'CORS: "*" cannot be listed with other origins' });
    }
    if (anyOrigin && credentials) {
      return new StartupError({
        message:
          'CORS: credentials cannot be allowed for origin "*"; list the origins that may send them',
      });
    }
    const problems = anyOrigin ? [] : origins.flatMap((o) => originProblem(o) ?? []);
    if (problems.length > 0) {
      return new StartupError({ message: `CORS: ${problems.join("; ")}` });
    }
    const allowed = new Set(origins);
    const methods = (options.methods ?? DEFAULT_METHODS).join(", ");
    const allowedHeaders = options.allowedHeaders?.join(", ");
    const exposed =
      options.exposedHeaders === undefined || options.exposedHeaders.length === 0
        ? undefined
        : options.exposedHeaders.join(", ");

    /** The headers every response to an allowed origin carries. */
    const allowHeaders = (origin: string): Record<string, string> => {
      const headers: Record<string, string> = { "access-control-allow-origin": origin };
      if (credentials) headers["access-control-allow-credentials"] = "true";
      return headers;
    };
    const anyHeaders = anyOrigin ? allowHeaders("*") : undefined;
    const responseHeaders = (origin: string) => {
      const headers = anyHeaders ?? allowHeaders(origin);
      return exposed === undefined
        ? headers
        : { ...headers, "access-control-expose-headers": exposed };
    };

    const preflight = (origin: string, requested: string | undefined) => {
      const vary = [
        anyOrigin ? undefined : "Origin",
        allowedHeaders ? undefined : "Access-Control-Request-Headers",
      ]
        .filter((v) => v !== undefined)
        .join(", ");
      const headers: Record<string, string> = vary === "" ? {} : { vary };
      if (anyOrigin || allowed.has(origin)) {
        Object.assign(headers, anyHeaders ?? allowHeaders(origin), {
          "access-control-allow-methods": methods,
        });
        const allowHeadersValue = allowedHeaders ?? requested;
        if (allowHeadersValue !== undefined && allowHeadersValue !== "") {
          headers["access-control-allow-headers"] = allowHeadersValue;
        }
        if (options.maxAge !== undefined)
          headers["access-control-max-age"] = String(options.maxAge);
      }
      return HttpServerResponse.empty({ status: 204, headers });
    };

    const withAnyOrigin = (response: HttpServerResponse.HttpServerResponse) =>
      setResponseHeaders(response, responseHeaders("*"));
    const varyOrigin = (response: HttpServerResponse.HttpServerResponse) =>
      addVary(response, "Origin");

    return Effect.succeed(
      Middleware.decorating((request) => {
        const origin = request.headers.origin;
        if (
          request.method === "OPTIONS" &&
          origin !== undefined &&
          request.headers["access-control-request-method"] !== undefined
        ) {
          return { answer: preflight(origin, request.headers["access-control-request-headers"]) };
        }
        if (anyOrigin) return origin === undefined ? undefined : withAnyOrigin;
        if (origin === undefined || !allowed.has(origin)) return varyOrigin;
        return (response) => setResponseHeaders(varyOrigin(response), responseHeaders(origin));
      }),
    );
  });

/**
 * CORS, the classic way: `app.use(new CorsMiddleware({ origin: ["https://a.example"], credentials: true }))`.
 * See {@link make} for the rules.
 *
 * @since 0.1.0
 * @category middleware
 */
export class CorsMiddleware extends EffectMiddleware {
  constructor(readonly options: CorsOptions = {}) {
    super();
  }

  build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> {
    return make(this.options);
  }
}
