import * as Effect from "effect/Effect";
import type { CompiledRoute, PipelineOptions } from "../compiler/AppRoutes.js";
import type { StartupError } from "../di/StartupError.js";
import { buildDocument } from "./BuildDocument.js";
import type { ServedRoute } from "./ClassicOperations.js";
import { docsRoutes } from "./DocsRoutes.js";
import { routeDescription } from "./internal/routeDescription.js";
import type { OpenApiOptions } from "./OpenApiOptions.js";
import type { RouteDescription } from "./RouteDescription.js";

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
    // Where the app serves each controller route, by version (a module or global prefix moves them).
    const servedAt = new Map<string, string>();
    const key = (route: Omit<ServedRoute, "path">) =>
      `${route.controller}.${route.handler} ${route.method} ${route.version ?? ""}`;
    for (const compiled of routes) {
      for (const info of compiled.handlers) servedAt.set(key(info), info.path);
    }
    const servedPath = (route: ServedRoute) => servedAt.get(key(route)) ?? route.path;
    const document = yield* buildDocument(openapi, {
      controllers,
      classic: { ...pipeline, servedPath },
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
