import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import type { StartupError } from "../di/StartupError.js";
import { escapeHtml } from "../sanitize/escapeHtml.js";
import { scalarBundle } from "./DocsAssets.js";
import type { OpenApiDocument } from "./OpenApiDocument.js";
import {
  DEFAULT_DOCS_PATH,
  DEFAULT_OPENAPI_PATH,
  DOCS_CONTENT_SECURITY_POLICY,
  type OpenApiOptions,
} from "./OpenApiOptions.js";

/** A served path of the docs: the document, the page, or the page's script. */
export interface DocsRoute {
  readonly route: HttpLayerRouter.Route<never, never>;
  readonly name: "document" | "page" | "script";
}

/** What serving a document needs of the options. */
type DocsOptions = Pick<OpenApiOptions, "path" | "docsPath" | "scalar">;

/** The page: Scalar mounted on the element it looks for, configured by attributes only. */
const page = (
  document: OpenApiDocument,
  documentPath: string,
  scriptPath: string,
  options: DocsOptions,
) => {
  const configuration = JSON.stringify({
    ...options.scalar,
    // Inter and JetBrains Mono come from Scalar's CDN otherwise.
    withDefaultFonts: false,
  });
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(document.info.title)}</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-url="${escapeHtml(documentPath)}" data-configuration="${escapeHtml(configuration)}"></script>
    <script src="${escapeHtml(scriptPath)}"></script>
  </body>
</html>
`;
};

/**
 * The routes serving `document`: `GET <path>` (the JSON, encoded once), and unless `docsPath`
 * is `false`, `GET <docsPath>` (the page, with {@link DOCS_CONTENT_SECURITY_POLICY}) and
 * `GET <docsPath>/scalar.js` (Scalar's bundle, loaded and gzipped on its first request).
 * Nothing is computed per request.
 */
export const docsRoutes = (
  document: OpenApiDocument,
  options: DocsOptions,
): Effect.Effect<ReadonlyArray<DocsRoute>, StartupError> =>
  Effect.gen(function* () {
    const documentPath = options.path ?? DEFAULT_OPENAPI_PATH;
    const json = HttpServerResponse.uint8Array(new TextEncoder().encode(JSON.stringify(document)), {
      contentType: "application/json",
      headers: { "cache-control": "no-cache" },
    });
    const routes: Array<DocsRoute> = [
      { name: "document", route: HttpLayerRouter.route("GET", documentPath, Effect.succeed(json)) },
    ];
    const docsPath = options.docsPath ?? DEFAULT_DOCS_PATH;
    if (docsPath === false) return routes;
    const scriptPath = `${docsPath === "/" ? "" : docsPath}/scalar.js`;
    const bundle = yield* scalarBundle;
    const html = HttpServerResponse.text(page(document, documentPath, scriptPath, options), {
      contentType: "text/html; charset=utf-8",
      headers: {
        "content-security-policy": DOCS_CONTENT_SECURITY_POLICY,
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      },
    });
    const scriptHeaders = {
      "cache-control": "public, max-age=3600",
      "x-content-type-options": "nosniff",
      vary: "accept-encoding",
    };
    const script = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.map(bundle, ({ raw, gzip }) =>
        /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")
          ? HttpServerResponse.uint8Array(gzip, {
              contentType: "text/javascript; charset=utf-8",
              headers: { ...scriptHeaders, "content-encoding": "gzip" },
            })
          : HttpServerResponse.uint8Array(raw, {
              contentType: "text/javascript; charset=utf-8",
              headers: scriptHeaders,
            }),
      ),
    );
    routes.push(
      { name: "page", route: HttpLayerRouter.route("GET", docsPath, Effect.succeed(html)) },
      {
        name: "script",
        route: HttpLayerRouter.route(
          "GET",
          scriptPath as `/${string}`,
          script,
        ) as HttpLayerRouter.Route<never, never>,
      },
    );
    return routes;
  });
