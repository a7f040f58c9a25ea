// The full middleware stack of the `middleware` and `stack` rows, outermost first: CORS (an
// allow-list), security headers (defaults), an in-memory rate limit whose max is never reached,
// and the request timeout (default 30 s). No request logger (a log line per request measures the
// log sink), no CSRF (irrelevant to GET). servers/fastify-stack.mjs mirrors it with fastify's plugins.
import {
  CorsMiddleware,
  RateLimitMiddleware,
  SecurityHeadersMiddleware,
  type StrataAppOptions,
  TimeoutMiddleware,
} from "effect-strata";

/** The one origin the CORS allow-list lets in; the runner sends it as `Origin` on the stack rows. */
export const ALLOWED_ORIGIN = "https://app.example.com";

/** The stack, as `StrataApp`'s `globalMiddleware` takes it. */
export const middlewareStack = (): NonNullable<StrataAppOptions["globalMiddleware"]> => [
  new CorsMiddleware({ origin: [ALLOWED_ORIGIN] }),
  new SecurityHeadersMiddleware(),
  new RateLimitMiddleware({ windowMs: 60_000, max: Number.MAX_SAFE_INTEGER }),
  new TimeoutMiddleware(),
];
