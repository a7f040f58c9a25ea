/**
 * The fast path: Strata's node HTTP server and router over `@effect/platform`, and the one entry
 * the rest of Strata imports them through. Everything in `src/server/internal/` that relies on Effect's
 * private shapes (request fibers, request scopes, the router's probes) stays behind it, each
 * shape checked once at startup with a public fallback. docs/performance.md tells how it works
 * and what it promises against `HttpLayerRouter`.
 *
 * @since 0.1.0
 */

export {
  applied,
  appliedLogged,
  type Change,
  type Finish,
  finishers,
  outermostForms,
} from "./DecoratedRun.js";
export { type DirectBody, recordDirectRoute } from "./DirectRoutes.js";
export { isFastRouter } from "./FastRouter.js";
export * as NodeServer from "./NodeServer.js";
export { RequestDeadline } from "./RequestDeadline.js";
export { childRuntime } from "./RequestFibers.js";
export { addDefaultHeaders, setResponseHeaders } from "./ResponseHeaders.js";
export { recordRouteServices } from "./RouteServices.js";
export type { ServeOptions } from "./ServeOptions.js";
export { makeRouter, serveRouter } from "./ServeRouter.js";
