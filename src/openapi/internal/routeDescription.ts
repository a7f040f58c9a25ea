/** Where `RouteDescription.describeRoute` keeps a route's description, and how a document finds it. */
import type * as HttpApi from "@effect/platform/HttpApi";
import type * as Effect from "effect/Effect";

/** The key of a route's description on the route itself. */
export const DescriptionId: unique symbol = Symbol.for("effect-strata/openapi/RouteDescription");

/** The description of `route` (`RouteDescription.describeRoute`), if it has one. */
export const routeDescription = (route: object): Effect.Effect<HttpApi.HttpApi.Any> | undefined =>
  (route as { readonly [DescriptionId]?: Effect.Effect<HttpApi.HttpApi.Any> })[DescriptionId];
