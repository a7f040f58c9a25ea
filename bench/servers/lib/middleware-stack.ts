// The full middleware stack of the `middleware` and `stack` rows, outermost first: CORS (an
// allow-list), security headers (defaults), an in-memory rate limit whose max is never reached,
// and the request timeout (default 30 s). No request logger (a log line per request measures the
// log sink), no CSRF (irrelevant to GET). servers/fastify-stack.mjs mirrors it with fastify's plugins.

/** The one origin the CORS allow-list lets in; the runner sends it as `Origin` on the stack rows. */
export const ALLOWED_ORIGIN = "https://app.example.com";

/** Strata's middleware instances, from its loaded entry (typed loosely, see lib/strata.ts). */
// biome-ignore lint/suspicious/noExplicitAny: Strata's types are not available at bench build time.
export const middlewareStack = (strata: any): Array<unknown> => [
  new strata.CorsMiddleware({ origin: [ALLOWED_ORIGIN] }),
  new strata.SecurityHeadersMiddleware(),
  new strata.RateLimitMiddleware({ windowMs: 60_000, max: Number.MAX_SAFE_INTEGER }),
  new strata.TimeoutMiddleware(),
];
