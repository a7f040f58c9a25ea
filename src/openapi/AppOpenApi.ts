import * as Effect from "effect/Effect";
import type { CompiledRoute, PipelineOptions } from "../compiler/AppRoutes.js";
import type { StartupError } from "../di/StartupError.js";
import type { OpenApiOptions } from "./OpenApiOptions.js";

/**
 * The docs routes of a classic app when its `openapi` option is set, else none. The document's
 * code is imported only then: an app without docs loads none of it.
 */
export const openApiRoutes = (
  controllers: ReadonlyArray<Function>,
  routes: ReadonlyArray<CompiledRoute>,
  options: PipelineOptions & { readonly openapi?: OpenApiOptions },
): Effect.Effect<ReadonlyArray<CompiledRoute>, StartupError> => {
  const openapi = options.openapi;
  if (openapi === undefined) return Effect.succeed([]);
  return Effect.flatMap(
    Effect.promise(() => import("./AppDocs.js")),
    (docs) => docs.appDocsRoutes(controllers, routes, options, openapi),
  );
};
