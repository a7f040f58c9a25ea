/**
 * The CORS engine behind `Cors.make`: options checked, and turned into the decision of each
 * request (a preflight answered, headers added to a response).
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import { StartupError } from "../../di/StartupError.js";
import { setResponseHeaders } from "../../server/internal/FastPath.js";
import type { CorsOptions, CorsOptionsDelegate, CorsRequest } from "../CorsOptions.js";
import type * as Middleware from "../Middleware.js";

const DEFAULT_METHODS = "GET,HEAD,PUT,PATCH,POST,DELETE";

/**
 * `undefined` when `origin` may be sent as `Access-Control-Allow-Origin` verbatim (the `cors`
 * package's way with one string origin, `"example.com"` included: the browser compares it), else
 * why not: `"null"` (sandboxed and `file:` pages), text that is no header token, or a URL that is
 * not a bare origin (a path or a trailing slash the browser would never match).
 */
const singleOriginProblem = (origin: string): string | undefined => {
  if (
    origin === "" ||
    origin.toLowerCase() === "null" ||
    !/^[\x21-\x7e]+$/.test(origin) ||
    origin.includes(",")
  ) {
    return `${JSON.stringify(origin)} is not an origin`;
  }
  return origin.includes("://") ? originProblem(origin) : undefined;
};

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

const optionNames = new Set([
  "origin",
  "methods",
  "allowedHeaders",
  "exposedHeaders",
  "credentials",
  "maxAge",
  "optionsSuccessStatus",
]);

const isStringList = (value: unknown): value is string | ReadonlyArray<string> =>
  typeof value === "string" ||
  (Array.isArray(value) && value.every((item) => typeof item === "string"));

/** What is wrong with `options` (the `cors` package's forms Strata does not take included), if anything. */
export const optionsProblem = (options: unknown): string | undefined => {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    return "the options must be an object (or a function (req, callback) => callback(null, options))";
  }
  const o = options as Record<string, unknown>;
  const unknown = Object.keys(o).filter((key) => !optionNames.has(key));
  if (unknown.length > 0) {
    return `unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")} (known: ${[...optionNames].join(", ")})`;
  }
  if (o.origin !== undefined && !isStringList(o.origin)) {
    return 'origin must be an origin, a list of origins or "*": a function, a RegExp or true (reflecting any origin) is not supported; list the origins, or decide per request with enableCors((req, callback) => callback(null, options))';
  }
  for (const key of ["methods", "allowedHeaders", "exposedHeaders"]) {
    if (o[key] !== undefined && !isStringList(o[key])) {
      return `${key} must be a string or a list of strings`;
    }
  }
  if (o.credentials !== undefined && typeof o.credentials !== "boolean") {
    return "credentials must be true or false";
  }
  if (o.maxAge !== undefined && !(Number.isInteger(o.maxAge) && (o.maxAge as number) >= 0)) {
    return "maxAge must be a whole number of seconds, 0 or more";
  }
  const status = o.optionsSuccessStatus;
  if (
    status !== undefined &&
    !(Number.isInteger(status) && (status as number) >= 200 && (status as number) < 300)
  ) {
    return "optionsSuccessStatus must be a 2xx status";
  }
  return undefined;
};

/** A list option as one header value: a list joined, a string as it is (the `cors` package's way). */
const headerValue = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  value === undefined ? undefined : typeof value === "string" ? value : value.join(",");

/**
 * Checks CORS options as `Cors.make` does, at once: a `StartupError` saying what is wrong, or
 * `undefined`. A delegate is checked when it gives its options.
 */
export const checkOptions = (
  options: CorsOptions | CorsOptionsDelegate | undefined,
): StartupError | undefined => {
  if (options === undefined || typeof options === "function") return undefined;
  const problem = optionsProblem(options) ?? decisionOf(options as CorsOptions);
  return typeof problem === "string"
    ? new StartupError({ message: `CORS: ${problem}` })
    : undefined;
};

/** The decision of valid `options`, or what is wrong with them. */
export const decisionOf = (options: CorsOptions): Middleware.Decide | string => {
  const origins = typeof options.origin === "string" ? [options.origin] : (options.origin ?? ["*"]);
  const anyOrigin = origins.includes("*");
  const credentials = options.credentials === true;
  if (anyOrigin && origins.length > 1) return '"*" cannot be listed with other origins';
  if (anyOrigin && credentials) {
    return 'credentials cannot be allowed for origin "*"; list the origins that may send them';
  }
  const single = typeof options.origin === "string" && !anyOrigin ? options.origin : undefined;
  const problems = anyOrigin
    ? []
    : single !== undefined
      ? [singleOriginProblem(single) ?? []].flat()
      : origins.flatMap((o) => originProblem(o) ?? []);
  if (problems.length > 0) return problems.join("; ");
  const allowed = new Set(origins);
  /** The `Access-Control-Allow-Origin` for a request from `origin` (none: not allowed). */
  const allowedOrigin = (origin: string | undefined): string | undefined =>
    anyOrigin
      ? "*"
      : single !== undefined
        ? origin === undefined || origin === single
          ? single
          : undefined
        : origin !== undefined && allowed.has(origin)
          ? origin
          : undefined;
  const methods = headerValue(options.methods) ?? DEFAULT_METHODS;
  const allowedHeaders = headerValue(options.allowedHeaders);
  const exposedValue = headerValue(options.exposedHeaders);
  const exposed = exposedValue === "" ? undefined : exposedValue;
  const preflightStatus = options.optionsSuccessStatus ?? 204;

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

  const preflight = (origin: string | undefined, requested: string | undefined) => {
    const vary = [
      anyOrigin ? undefined : "Origin",
      allowedHeaders ? undefined : "Access-Control-Request-Headers",
    ]
      .filter((v) => v !== undefined)
      .join(", ");
    const headers: Record<string, string> = vary === "" ? {} : { vary };
    const allow = allowedOrigin(origin);
    if (allow !== undefined) {
      Object.assign(headers, responseHeaders(allow), {
        "access-control-allow-methods": methods,
      });
      const allowHeadersValue = allowedHeaders ?? requested;
      if (allowHeadersValue !== undefined && allowHeadersValue !== "") {
        headers["access-control-allow-headers"] = allowHeadersValue;
      }
      if (options.maxAge !== undefined) headers["access-control-max-age"] = String(options.maxAge);
    }
    headers["content-length"] = "0";
    return HttpServerResponse.empty({ status: preflightStatus, headers });
  };

  const withAnyOrigin = (response: HttpServerResponse.HttpServerResponse) =>
    setResponseHeaders(response, responseHeaders("*"));
  const varyOrigin = (response: HttpServerResponse.HttpServerResponse) =>
    addVary(response, "Origin");

  return (request) => {
    const origin = request.headers.origin;
    if (request.method === "OPTIONS") {
      return { answer: preflight(origin, request.headers["access-control-request-headers"]) };
    }
    if (anyOrigin) return origin === undefined ? undefined : withAnyOrigin;
    const allow = allowedOrigin(origin);
    if (allow === undefined) return varyOrigin;
    return (response) => setResponseHeaders(varyOrigin(response), responseHeaders(allow));
  };
};

/** The decision of the options a delegate gives for `request`: each options object checked once. */
export const delegated = (delegate: CorsOptionsDelegate): Middleware.Decide => {
  const decisions = new WeakMap<object, Middleware.Decide>();
  const decide = (options: CorsOptions | undefined): Middleware.Decide => {
    const given = options ?? {};
    const known = decisions.get(given);
    if (known !== undefined) return known;
    const problem = optionsProblem(given);
    const decision = problem === undefined ? decisionOf(given) : problem;
    if (typeof decision === "string") {
      throw new Error(`CORS: the options the enableCors delegate gave are not valid: ${decision}`);
    }
    decisions.set(given, decision);
    return decision;
  };
  return (request) =>
    Effect.flatMap(
      Effect.async<CorsOptions | undefined>((resume) => {
        const req: CorsRequest = {
          method: request.method,
          url: request.originalUrl,
          headers: request.headers,
        };
        let called = false;
        try {
          delegate(req, (error, options) => {
            if (called) return;
            called = true;
            resume(error ? Effect.die(error) : Effect.succeed(options));
          });
        } catch (error) {
          if (!called) {
            called = true;
            resume(Effect.die(error));
          }
        }
      }),
      (options) => {
        const decision = decide(options)(request);
        return Effect.isEffect(decision) ? decision : Effect.succeed(decision);
      },
    );
};
