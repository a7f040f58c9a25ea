import type * as HttpApi from "@effect/platform/HttpApi";
import type * as Effect from "effect/Effect";
import { DescriptionId } from "./internal/routeDescription.js";

/**
 * How a route that is not a controller's (a module's built-in routes, say) is described: the
 * `HttpApi` whose endpoint it serves, made when a document is built (so that an app without
 * one loads nothing for it).
 *
 * @since 0.1.0
 * @category openapi
 */
export type RouteDescription = Effect.Effect<HttpApi.HttpApi.Any>;

/**
 * Marks `route` as described by `description`: an app's document (`openapi` option) includes
 * the described endpoints of the routes it serves. Returns `route` itself.
 *
 * @since 0.1.0
 * @category openapi
 */
export const describeRoute = <Route extends object>(
  route: Route,
  description: RouteDescription,
): Route => Object.assign(route, { [DescriptionId]: description });
