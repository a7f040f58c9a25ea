/**
 * The options of `StrataServer.serve`, declared where the fast path reads them.
 *
 * @since 0.1.0
 */
import type * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";

/**
 * How `StrataServer.serve` runs routes (`StrataApp`'s options include them).
 *
 * @since 0.1.0
 * @category server
 */
export interface ServeOptions {
  /** Trace every request with a span (off by default: a span per request costs ~35%). */
  readonly tracing?: boolean;
  /**
   * Let request fibers feed Effect's built-in fiber metrics (`effect_fiber_started`,
   * `effect_fiber_lifetimes`, ...). Off by default on the fast path: they cost ~0.4 us a fiber.
   */
  readonly fiberMetrics?: boolean;
  /**
   * find-my-way options; trailing slashes and letter case are ignored unless set otherwise.
   * Repeated slashes are always collapsed, in the path only (the query is never touched), when
   * the request target is brought to its canonical form: see `RequestTarget.canonicalTarget`.
   */
  readonly routerConfig?: Partial<
    Omit<HttpLayerRouter.FindMyWay.RouterConfig, "ignoreDuplicateSlashes">
  >;
  /**
   * Middleware around every request, unmatched ones included. It sees responses, error responses
   * too (failures are mapped to the standard shape first), and may fail with an `HttpError`
   * itself. Unlike platform global middleware, it keeps the fast path.
   */
  readonly middleware?: HttpMiddleware.HttpMiddleware;
}
