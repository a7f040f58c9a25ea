import * as Effect from "effect/Effect";
import type { CompiledRoute, PipelineOptions } from "../core/AppRoutes.js";
import type { StartupError } from "../di/StartupError.js";
import { buildDocument } from "./BuildDocument.js";
import { docsRoutes } from "./DocsRoutes.js";
import type { OpenApiOptions } from "./OpenApiOptions.js";
import { type RouteDescription, routeDescription } from "./RouteDescription.js";

/**
 * The docs routes of a classic app (`openapi` option), built once, at startup: its
 * controllers, the described routes it serves (the OAuth module's, say) and `openapi.apis`,
 * in one document.
 */
export const appDocsRoutes = (
  controllers: ReadonlyArray<Function>,
  routes: ReadonlyArray<CompiledRoute>,
  pipeline: PipelineOptions,
  openapi: OpenApiOptions,
): Effect.Effect<ReadonlyArray<CompiledRoute>, StartupError> =>
  Effect.gen(function* () {
    const descriptions = routes
      .map((compiled) => routeDescription(compiled.route))
      .filter((description): description is RouteDescription => description !== undefined);
    const document = yield* buildDocument(openapi, {
      controllers,
      classic: pipeline,
      descriptions: [...new Set(descriptions)],
    });
    const served = yield* docsRoutes(document, openapi);
    return served.map(
      ({ route, name }): CompiledRoute => ({
        route: route as CompiledRoute["route"],
        handlers: [{ method: "GET", path: route.path, controller: "OpenApi", handler: name }],
      }),
    );
  });
