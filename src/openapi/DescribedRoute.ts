import type { RouteScan } from "../compiler/ControllerScan.js";
import type { JsonSchema } from "./OpenApiDocument.js";
import type { SchemaRegistry } from "./SchemaJson.js";

/** A classic route being described: its scan, and the document's Schemas it adds to. */
export interface DescribedRoute {
  readonly route: RouteScan;
  readonly registry: SchemaRegistry;
  /** A class DTO's JSON Schema (a `$ref` to its component). */
  readonly dtoRef: (cls: Function) => JsonSchema;
}
