import type * as OpenApi from "@effect/platform/OpenApi";
import { readList } from "./ClassOrMethodDecorator.js";

/**
 * The metadata keys of the API description decorators (`@ApiOperation`, `@ApiResponse`,
 * `@ApiTags`, `@ApiExclude...`, `@ApiSecurity`): they only record; the controller scan reads.
 */
export const OpenApiKey = {
  operation: "strata:openapi:operation",
  responses: "strata:openapi:responses",
  tags: "strata:openapi:tags",
  exclude: "strata:openapi:exclude",
  security: "strata:openapi:security",
} as const;

/** A security scheme (`components.securitySchemes`). @since 0.1.0 @category openapi */
export type SecurityScheme =
  | OpenApi.OpenAPISecurityScheme
  | {
      readonly type: "oauth2" | "openIdConnect" | "mutualTLS";
      readonly description?: string;
      readonly [key: string]: unknown;
    };

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

/** The `@ApiSecurity` requirements recorded on a class (a controller, or a guard) or a handler. */
export const securityOf = (
  cls: Function,
  handler?: string | symbol,
): ReadonlyArray<SecurityMetadata> => readList<SecurityMetadata>(OpenApiKey.security, cls, handler);
