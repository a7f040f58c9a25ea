import * as Effect from "effect/Effect";
import type { CompiledRoute } from "../compiler/AppRoutes.js";
import type { Injector } from "../di/Injector.js";
import type { ModuleGraph } from "../di/ModuleGraph.js";
import { StartupError } from "../di/StartupError.js";

/**
 * The token under which a module may provide a {@link RouteContributor}: routes that are not
 * controllers (for instance `effect-strata/oauth`'s built-in routes). Every provider registered under
 * it, in any module of the graph, adds its routes to the app.
 *
 * @since 0.1.0
 * @category app
 */
export const ROUTE_CONTRIBUTOR: unique symbol = Symbol.for("effect-strata/RouteContributor");

/**
 * Adds routes to an app, once, at startup, with the app's built {@link Injector} (so it can
 * resolve classes registered anywhere in the graph).
 *
 * @since 0.1.0
 * @category app
 */
export type RouteContributor = (
  injector: Injector,
) => Effect.Effect<ReadonlyArray<CompiledRoute>, StartupError>;

/** The routes every {@link ROUTE_CONTRIBUTOR} of the graph adds, in graph order. */
export const contributedRoutes = (graph: ModuleGraph, injector: Injector) =>
  Effect.map(
    Effect.forEach(
      graph.providers.filter((node) => node.token === ROUTE_CONTRIBUTOR),
      (node) =>
        Effect.flatMap(
          Effect.mapError(
            injector.instance(node, undefined),
            (cause) =>
              new StartupError({
                message: `Cannot create the routes of ${node.module.path}`,
                cause,
              }),
          ),
          (contributor) => (contributor as RouteContributor)(injector),
        ),
    ),
    (lists) => lists.flat(),
  );
