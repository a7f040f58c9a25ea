/**
 * `effect-strata/effect`: the Effect face, one namespace per module as `@effect/platform` exports
 * them (`import { StrataServer, Validation } from "effect-strata/effect"`, then
 * `StrataServer.serve(routes)`, `Validation.body(schema)`). The values both faces share (the
 * `HttpError` failures, `jsonResponse`, `StrataApp.layer`, `HealthCheckManager`) are on the root
 * entry, `effect-strata`; the feature modules on theirs (`effect-strata/session`, ...).
 *
 * @since 0.1.0
 */
import "../di/reflectMetadata.js";

/**
 * The deepest nesting a JSON request body may have (default 1000): checked right after parsing,
 * before anything recursive walks the value; `withJsonDepthLimit` sets it on the Effect face.
 *
 * @since 0.1.0
 */
export * as JsonDepth from "../http/JsonDepth.js";
/**
 * Liveness and readiness probe routes (`/health` and `/ready` by default) for the Effect face,
 * answered from the app's `HealthCheck`s.
 *
 * @since 0.1.0
 */
export * as Health from "../lifecycle/Health.js";
/**
 * CORS middleware: answers preflight requests and adds the `Access-Control-*` headers that
 * `CorsOptions` allow.
 *
 * @since 0.1.0
 */
export * as Cors from "../middleware/Cors.js";
/**
 * CSRF protection middleware: a signed double-submit token bound to the client; a request other
 * than `GET`, `HEAD` or `OPTIONS` without it in `x-csrf-token` is refused with 403.
 *
 * @since 0.1.0
 */
export * as Csrf from "../middleware/Csrf.js";
/**
 * The in-process `RateLimitStore`: counters in memory, for one instance.
 *
 * @since 0.1.0
 */
export * as MemoryRateLimitStore from "../middleware/MemoryRateLimitStore.js";
/**
 * Helpers to write, compose and scope Effect-face middleware (`HttpMiddleware`) without spelling
 * out their generic signatures.
 *
 * @since 0.1.0
 */
export * as Middleware from "../middleware/Middleware.js";
/**
 * Rate-limiting middleware: a fixed window of requests per client, counted in a `RateLimitStore`;
 * 429 past the limit.
 *
 * @since 0.1.0
 */
export * as RateLimit from "../middleware/RateLimit.js";
/**
 * The contract of a rate limit's counters (`RateLimitStore`, a Context tag) and its failure: the
 * stores (`MemoryRateLimitStore`, `RedisRateLimitStore`) implement it.
 *
 * @since 0.1.0
 */
export * as RateLimitStore from "../middleware/RateLimitStore.js";
/**
 * A `RateLimitStore` in Redis, shared by every instance of a scaled-out app.
 *
 * @since 0.1.0
 */
export * as RedisRateLimitStore from "../middleware/RedisRateLimitStore.js";
/**
 * What middleware read of a request: its canonical path, path-prefix matching, the client's
 * address and scheme behind trusted proxies.
 *
 * @since 0.1.0
 */
export * as RequestInfo from "../middleware/RequestInfo.js";
/**
 * Request logging middleware: one log line per request (method, path without query, status,
 * duration).
 *
 * @since 0.1.0
 */
export * as RequestLogger from "../middleware/RequestLogger.js";
/**
 * The same-origin check of state-changing requests (the one `POST /auth/logout` uses): a guard,
 * middleware, or one step of a route.
 *
 * @since 0.1.0
 */
export * as SameOrigin from "../middleware/SameOrigin.js";
/**
 * Security headers middleware: Content-Security-Policy, HSTS, `X-Content-Type-Options` and related
 * headers on every response.
 *
 * @since 0.1.0
 */
export * as SecurityHeaders from "../middleware/SecurityHeaders.js";
/**
 * Request timeout middleware: a request whose response is not ready in time is interrupted and
 * answered 408.
 *
 * @since 0.1.0
 */
export * as Timeout from "../middleware/Timeout.js";
/**
 * The standard error bodies as Schemas, to declare an `HttpApi` endpoint's failures with.
 *
 * @since 0.1.0
 */
export * as ErrorBodies from "../openapi/ErrorBodies.js";
/**
 * The Effect face's OpenAPI document and docs page: one document built from `HttpApi`s, served
 * with a rendered page.
 *
 * @since 0.1.0
 */
export * as OpenApiDocs from "../openapi/OpenApiDocs.js";
/**
 * The types of an OpenAPI 3.1 document as Strata builds it (operations, parameters, responses,
 * security schemes).
 *
 * @since 0.1.0
 */
export type * as OpenApiDocument from "../openapi/OpenApiDocument.js";
/**
 * The OpenAPI description of a plain `HttpLayerRouter` route: `describeRoute(route, api)` gives
 * it the `HttpApi` it serves.
 *
 * @since 0.1.0
 */
export * as RouteDescription from "../openapi/RouteDescription.js";
/**
 * Drop-in `HttpApiBuilder.group` and `HttpLayerRouter.addHttpApi` that keep `HttpApi` routes on
 * Strata's fast path (no context swap per request, Schemas compiled once).
 *
 * @since 0.1.0
 */
export * as StrataHttpApi from "../openapi/StrataHttpApi.js";
/**
 * Guards on the Effect face: `guard` runs a check before a handler, `authenticate` provides the
 * `CurrentUser`.
 *
 * @since 0.1.0
 */
export * as Guards from "../pipeline/Guards.js";
/**
 * Multipart uploads within limits: `read` and `readUpload` stream a `multipart/form-data` body
 * into fields and files.
 *
 * @since 0.1.0
 */
export * as Uploads from "../pipeline/Uploads.js";
/**
 * Schema validation of a request's body, query and path parameters on the Effect face, answering
 * 400 in the standard error shape.
 *
 * @since 0.1.0
 */
export * as Validation from "../pipeline/Validation.js";
/**
 * API versioning on the Effect face: routes by version from the URI, a header or the media type.
 *
 * @since 0.1.0
 */
export * as Versioning from "../pipeline/Versioning.js";
/**
 * The Effect face's server: `serve` runs `HttpLayerRouter` routes (and a compiled `StrataApp`) on
 * Strata's fast Node server, `layerNode` listens.
 *
 * @since 0.1.0
 */
export * as StrataServer from "../server/StrataServer.js";
