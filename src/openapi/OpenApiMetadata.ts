import type { ClassOrMethodDecorator } from "../decorators/ClassOrMethodDecorator.js";
import { appendMetadata, readMetadata } from "../di/metadata.js";
import type { SecurityScheme } from "./OpenApiDocument.js";

/** The metadata keys of the API description decorators (they only record; the document reads). */
export const OpenApiKey = {
  operation: "strata:openapi:operation",
  responses: "strata:openapi:responses",
  tags: "strata:openapi:tags",
  exclude: "strata:openapi:exclude",
  security: "strata:openapi:security",
} as const;

/** What `@ApiOperation` records. */
export interface OperationMetadata {
  readonly summary?: string;
  readonly description?: string;
  readonly operationId?: string;
  readonly deprecated?: boolean;
  readonly tags?: ReadonlyArray<string>;
}

/** What `@ApiResponse` records: a status (or `"default"`), its description and body Schema. */
export interface ResponseMetadata {
  readonly status: number | "default";
  readonly description?: string;
  /** The body's Schema (checked when the document is built). */
  readonly type?: unknown;
  readonly isArray?: boolean;
}

/** What `@ApiSecurity` records: a requirement, and the scheme when the decorator defines it. */
export interface SecurityMetadata {
  readonly name: string;
  readonly scopes: ReadonlyArray<string>;
  readonly scheme?: SecurityScheme;
}

type Key = (typeof OpenApiKey)[keyof typeof OpenApiKey];

/** A decorator appending `item` to the list under `key` of a class or of one of its methods. */
export const appendTo = (key: Key, items: ReadonlyArray<unknown>): ClassOrMethodDecorator =>
  ((target: object, property?: string | symbol) => {
    for (const item of items) appendMetadata(key, item, target, property);
  }) as ClassOrMethodDecorator;

/** The value under `key` of a class (`handler` undefined) or of one of its methods. */
export const readOn = <T>(key: Key, cls: Function, handler?: string | symbol): T | undefined =>
  handler === undefined
    ? readMetadata<T>(key, cls)
    : readMetadata<T>(key, cls.prototype as object, handler);
