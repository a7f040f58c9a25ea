import type * as HttpApi from "@effect/platform/HttpApi";
import * as OpenApi from "@effect/platform/OpenApi";
import * as Effect from "effect/Effect";
import { StartupError } from "../di/StartupError.js";
import { type ClassicOptions, describeControllers } from "./ClassicOperations.js";
import { documentHead } from "./DocumentHead.js";
import { type DocumentPart, mergeDocuments, partOf } from "./MergeDocuments.js";
import type { OpenApiDocument } from "./OpenApiDocument.js";
import type { OpenApiOptions } from "./OpenApiOptions.js";
import type { RouteDescription } from "./RouteDescription.js";
import { makeSchemaRegistry } from "./SchemaJson.js";

/** What a document describes: classic controllers, described routes, `HttpApi`s. */
export interface DocumentSources {
  readonly controllers?: ReadonlyArray<Function>;
  readonly classic?: ClassicOptions;
  /** The descriptions of served routes that are not controllers' (see `describeRoute`). */
  readonly descriptions?: ReadonlyArray<RouteDescription>;
}

/** Names an `HttpApi` in messages by its groups (its own identifier is not kept at run time). */
const apiName = (api: HttpApi.HttpApi.Any): string => {
  const groups = Object.keys((api as HttpApi.HttpApi.AnyWithProps).groups).map((name) =>
    JSON.stringify(name),
  );
  return `the HttpApi of group${groups.length === 1 ? "" : "s"} ${groups.join(", ")}`;
};

/**
 * `OpenApi.fromApi(api, { additionalPropertiesStrategy })`, built for this call: `fromApi` keeps
 * the first document of each `HttpApi` whatever options it was built with, so the document is
 * made for a copy of `api` (same groups, annotations and middleware) that no one else holds.
 */
const apiDocument = (
  api: HttpApi.HttpApi.Any,
  additionalPropertiesStrategy: OpenApiOptions["additionalPropertiesStrategy"],
): OpenApiDocument => {
  const copy = Object.create(
    Object.getPrototypeOf(api),
    Object.getOwnPropertyDescriptors(api),
  ) as HttpApi.HttpApi.AnyWithProps;
  return OpenApi.fromApi(copy, { additionalPropertiesStrategy }) as unknown as OpenApiDocument;
};

/**
 * Builds an app's OpenAPI 3.1 document, once, at startup: the classic controllers described
 * from their metadata and Schemas, every `HttpApi` through `OpenApi.fromApi`, merged into one
 * document. Fails with a `StartupError` naming the route and the field for a Schema JSON Schema
 * cannot express, and naming both sides of any conflict.
 */
export const buildDocument = (
  options: OpenApiOptions,
  sources: DocumentSources,
): Effect.Effect<OpenApiDocument, StartupError> =>
  Effect.gen(function* () {
    const described = yield* Effect.all(sources.descriptions ?? []);
    const apis = [...new Set([...described, ...(options.apis ?? [])])];
    return yield* Effect.try({
      try: () => {
        const strategy = options.additionalPropertiesStrategy;
        const registry = makeSchemaRegistry(strategy);
        const classic = describeControllers(
          sources.controllers ?? [],
          sources.classic ?? {},
          registry,
          options.securitySchemes ?? {},
        );
        const documents = new Map(apis.map((api) => [api, apiDocument(api, strategy)] as const));
        const parts: Array<DocumentPart> = [
          {
            source: "the controllers",
            operations: classic.operations,
            schemas: registry.defs,
            securitySchemes: { ...options.securitySchemes, ...classic.securitySchemes },
            tags: [],
          },
          ...apis.map((api) => partOf(apiName(api), documents.get(api) as OpenApiDocument)),
        ];
        // The listed APIs describe the whole (a described route's, OAuth's say, does not).
        const listed = (options.apis ?? []).map((api) => documents.get(api) as OpenApiDocument);
        const withControllers = (sources.controllers ?? []).length > 0;
        return mergeDocuments(documentHead(options, listed, withControllers), parts);
      },
      catch: (error) =>
        error instanceof StartupError
          ? error
          : new StartupError({
              message: `OpenAPI: the document cannot be built: ${String(error)}`,
              cause: error,
            }),
    });
  });
