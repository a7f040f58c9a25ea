/**
 * The OpenAPI 3.1 document Strata serves, as plain data: what `OpenApi.fromApi` of
 * `@effect/platform` makes for an `HttpApi`, widened where classic routes say more (response
 * headers, vendor media types of versioned routes, `multipart/form-data` with file fields).
 *
 * @since 0.1.0
 */
import type * as OpenApiJsonSchema from "@effect/platform/OpenApiJsonSchema";
import type { SecurityScheme } from "../decorators/OpenApiMetadata.js";

/** A JSON Schema, as effect's `JSONSchema` makes it for OpenAPI 3.1. @since 0.1.0 @category openapi */
export type JsonSchema = OpenApiJsonSchema.JsonSchema;

/** A media type of a request or response: its Schema. @since 0.1.0 @category openapi */
export interface MediaType {
  readonly schema: JsonSchema;
}

/** One response of an operation. @since 0.1.0 @category openapi */
export interface Response {
  readonly description: string;
  readonly headers?: Readonly<
    Record<string, { readonly description?: string; readonly schema: JsonSchema }>
  >;
  readonly content?: Readonly<Record<string, MediaType>>;
}

/** A path, query, header or cookie parameter. @since 0.1.0 @category openapi */
export interface Parameter {
  readonly name: string;
  readonly in: "query" | "header" | "path" | "cookie";
  readonly schema: JsonSchema;
  readonly required: boolean;
  readonly description?: string;
}

/** One operation: a method of a path. @since 0.1.0 @category openapi */
export interface Operation {
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: ReadonlyArray<string>;
  readonly deprecated?: boolean;
  readonly parameters?: ReadonlyArray<Parameter>;
  readonly requestBody?: {
    readonly content: Readonly<Record<string, MediaType>>;
    readonly required?: boolean;
  };
  readonly responses: Readonly<Record<string, Response>>;
  readonly security?: ReadonlyArray<Readonly<Record<string, ReadonlyArray<string>>>>;
}

/** The methods of an OpenAPI path item. @since 0.1.0 @category openapi */
export type MethodName = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

/** The operations of one path. @since 0.1.0 @category openapi */
export type PathItem = { readonly [M in MethodName]?: Operation };

export type { SecurityScheme } from "../decorators/OpenApiMetadata.js";

/** The license the API is offered under (`info.license`). @since 0.1.0 @category openapi */
export interface License {
  readonly name: string;
  readonly url?: string;
}

/** What the document says about the API itself. @since 0.1.0 @category openapi */
export interface Info {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  readonly summary?: string;
  readonly license?: License;
}

/** A server the API is reached at, with the variables its `url` names. @since 0.1.0 @category openapi */
export interface Server {
  readonly url: string;
  readonly description?: string;
  readonly variables?: Readonly<
    Record<
      string,
      {
        readonly default: string;
        readonly enum?: readonly [string, ...Array<string>];
        readonly description?: string;
      }
    >
  >;
}

/** A tag and its description. @since 0.1.0 @category openapi */
export interface Tag {
  readonly name: string;
  readonly description?: string;
}

/**
 * An OpenAPI 3.1 document (`OpenApi.fromApi`'s `OpenAPISpec` is one too).
 *
 * @since 0.1.0
 * @category openapi
 */
export interface OpenApiDocument {
  readonly openapi: "3.1.0";
  readonly info: Info;
  readonly servers?: ReadonlyArray<Server>;
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  };
  readonly security: ReadonlyArray<Readonly<Record<string, ReadonlyArray<string>>>>;
  readonly tags: ReadonlyArray<Tag>;
}
