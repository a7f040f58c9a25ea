/**
 * The API description on the Effect face: an OpenAPI 3.1 document of `HttpApi`s (and of any
 * route described with `describeRoute`'s `HttpApi`, such as `OAuthRoutes.api`), served with its
 * docs page. The classic face takes the same options as `StrataAppOptions.openapi`.
 *
 * @since 0.1.0
 */
import type * as HttpApi from "@effect/platform/HttpApi";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Effect from "effect/Effect";
import type * as Layer from "effect/Layer";
import type { StartupError } from "../di/StartupError.js";
import type { OpenApiDocument } from "./OpenApiDocument.js";
import type { OpenApiOptions } from "./OpenApiOptions.js";

// Imported when a document is built: an app without one loads none of it.
const loadBuilder = () => import("./BuildDocument.js");
const loadRoutes = () => import("./DocsRoutes.js");

/**
 * Options of {@link layer} and {@link document}: those of the classic face, and `apis` may be
 * made by an Effect (`OAuthRoutes.api()`, which reads the configured providers).
 *
 * @since 0.1.0
 * @category openapi
 */
export interface OpenApiDocsOptions<R = never> extends Omit<OpenApiOptions, "apis"> {
  readonly apis?: ReadonlyArray<HttpApi.HttpApi.Any | Effect.Effect<HttpApi.HttpApi.Any, never, R>>;
}

/**
 * The document of `options.apis`, built once: their `OpenApi.fromApi` documents (with
 * `options.additionalPropertiesStrategy`) merged (a method and path, an `operationId` or a
 * Schema name claimed twice fails with a `StartupError`), their own title, version, description,
 * summary, license and servers unless `options.info` / `servers` say otherwise, and
 * `options.securitySchemes`. For one API it is the document `OpenApi.fromApi` writes.
 *
 * @since 0.1.0
 * @category openapi
 */
export const document = <R = never>(
  options: OpenApiDocsOptions<R>,
): Effect.Effect<OpenApiDocument, StartupError, R> =>
  Effect.flatMap(
    Effect.forEach(options.apis ?? [], (api) => (Effect.isEffect(api) ? api : Effect.succeed(api))),
    (apis) =>
      Effect.flatMap(Effect.promise(loadBuilder), (builder) =>
        builder.buildDocument({ ...options, apis }, {}),
      ),
  );

/**
 * Serves the document of `options.apis` at `options.path` (default `/openapi.json`) and its
 * docs page at `options.docsPath` (default `/docs`; `false` for none), both built at startup.
 *
 * @example
 * import type { HttpApi } from "@effect/platform";
 * import type * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
 * import { Layer } from "effect";
 * import { OpenApiDocs, StrataServer } from "effect-strata/effect";
 * import { OAuthRoutes } from "effect-strata/oauth";
 *
 * declare const BooksApi: HttpApi.HttpApi.Any; // HttpApi.make("books").add(...)
 * declare const BooksRoutes: Layer.Layer<never, never, HttpLayerRouter.HttpRouter>; // its handlers
 *
 * const Docs = OpenApiDocs.layer({ apis: [BooksApi, OAuthRoutes.api()], info: { title: "Books" } });
 * // then provide OAuth, a TransactionStore and StrataServer.layerNode (see OAuthRoutes.layer)
 * const App = StrataServer.serve(Layer.mergeAll(BooksRoutes, OAuthRoutes.layer(), Docs));
 *
 * @since 0.1.0
 * @category openapi
 */
export const layer = <R = never>(
  options: OpenApiDocsOptions<R>,
): Layer.Layer<never, StartupError, HttpLayerRouter.HttpRouter | R> =>
  HttpLayerRouter.addAll(
    Effect.flatMap(document(options), (built) =>
      Effect.flatMap(Effect.promise(loadRoutes), (served) =>
        Effect.map(served.docsRoutes(built, options), (routes) => routes.map((r) => r.route)),
      ),
    ),
  );
