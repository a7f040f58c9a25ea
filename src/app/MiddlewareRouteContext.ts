import * as Context from "effect/Context";
import type { VersioningOptions } from "../pipeline/Versioning.js";

/**
 * The app's global prefix (`setGlobalPrefix`) as the middleware of `configure(consumer)` see it:
 * their paths are matched under it, as in NestJS, but those its `exclude` names (with the same
 * method, or any) and wildcards of every path (`*`, `(.*)`), matched as given.
 * The app provides it when it builds its middleware, which is after `setGlobalPrefix`.
 */
export class MiddlewareRoutePrefix extends Context.Reference<MiddlewareRoutePrefix>()(
  "effect-strata/app/MiddlewareRoutePrefix",
  { defaultValue: (): RoutePrefix => ({ prefix: "", excluded: () => false }) },
) {}

/** The global prefix, and whether its `exclude` names a route of a method (any: `undefined`) and path. */
export interface RoutePrefix {
  readonly prefix: string;
  readonly excluded: (method: string | undefined, path: string) => boolean;
}

/** A route the app serves, as `forRoutes(SomeController)` matches it. */
export interface ServedRoute {
  /** The name of the controller class. */
  readonly controller: string;
  /** `GET`, ..., or `*` for any method. */
  readonly method: string;
  /** The path served (global prefix, `RouterModule` path and URI version included). */
  readonly path: string;
}

/**
 * The routes the app serves, as the middleware of `configure(consumer)` see them:
 * `forRoutes(SomeController)` runs for exactly the routes of that controller, wherever the
 * global prefix, `RouterModule` and URI versioning put them (as in NestJS). The app provides
 * them when it builds its middleware, after compiling its routes.
 */
export class MiddlewareServedRoutes extends Context.Reference<MiddlewareServedRoutes>()(
  "effect-strata/app/MiddlewareServedRoutes",
  { defaultValue: (): ReadonlyArray<ServedRoute> => [] },
) {}

/**
 * The app's versioning as the middleware of `configure(consumer)` see it: a `forRoutes` route
 * with a `version` is matched under its URI version segment. The app provides it when it builds
 * its middleware.
 */
export class MiddlewareVersioning extends Context.Reference<MiddlewareVersioning>()(
  "effect-strata/app/MiddlewareVersioning",
  { defaultValue: (): VersioningOptions | undefined => undefined },
) {}
