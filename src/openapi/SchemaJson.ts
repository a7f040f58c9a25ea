import type * as OpenApi from "@effect/platform/OpenApi";
import * as OpenApiJsonSchema from "@effect/platform/OpenApiJsonSchema";
import * as Schema from "effect/Schema";
import { StartupError } from "../di/StartupError.js";
import type { JsonSchema, MediaType } from "./OpenApiDocument.js";

/**
 * The JSON Schemas of one document: Schemas with an identifier (every `Schema.Class`) become
 * `components.schemas` entries, referred to by `$ref`. Conversion is effect's own
 * (`OpenApiJsonSchema`, the one `OpenApi.fromApi` uses); annotations (title, description,
 * examples, default) carry over.
 */
export interface SchemaRegistry {
  readonly defs: Record<string, JsonSchema>;
  /**
   * The JSON Schema of `schema`'s encoded side (what travels over HTTP). `inline` resolves a
   * top-level `$ref` (for parameters read from an object's properties). A Schema JSON Schema
   * cannot express (a declaration without a `jsonSchema` annotation, a `bigint`, a `symbol`)
   * fails the start, naming `where` and `what`.
   */
  readonly convert: (
    schema: Schema.Schema.Any,
    where: string,
    what: string,
    inline?: boolean,
  ) => JsonSchema;
}

/** A registry collecting the components of one document, its objects open or closed as `additionalPropertiesStrategy` says. */
export const makeSchemaRegistry = (
  additionalPropertiesStrategy?: OpenApi.AdditionalPropertiesStrategy,
): SchemaRegistry => {
  const defs: Record<string, JsonSchema> = {};
  return {
    defs,
    convert: (schema, where, what, inline = false) => {
      try {
        return OpenApiJsonSchema.makeWithDefs(schema, {
          defs,
          additionalPropertiesStrategy,
          ...(inline ? { topLevelReferenceStrategy: "skip" as const } : {}),
        });
      } catch (error) {
        const detail =
          error instanceof Error ? error.message.split("\n").join("; ") : String(error);
        throw new StartupError({
          message: `OpenAPI: ${where}: ${what} cannot be described in JSON Schema (${detail}). Give that Schema a jsonSchema annotation, or leave the route out of the document with @ApiExcludeEndpoint().`,
          cause: error,
        });
      }
    },
  };
};

/** `true` when `schema` accepts `undefined` on its encoded side (an optional parameter). */
export const acceptsUndefined = (schema: Schema.Schema.Any): boolean =>
  Schema.is(Schema.encodedSchema(schema as Schema.Schema<unknown, unknown, never>))(undefined);

/** A component's JSON Schema for a `$ref` to it, else `json` itself. */
export const resolveRef = (registry: SchemaRegistry, json: JsonSchema): JsonSchema => {
  const ref = (json as { readonly $ref?: string }).$ref;
  return ref === undefined ? json : (registry.defs[ref.slice(ref.lastIndexOf("/") + 1)] ?? json);
};

/** A JSON body of `schema`, as an operation's `content`. */
export const jsonContent = (schema: JsonSchema): Readonly<Record<string, MediaType>> => ({
  "application/json": { schema },
});
