import { StartupError } from "../di/StartupError.js";
import type { DocumentHead } from "./DocumentHead.js";
import type {
  JsonSchema,
  MethodName,
  OpenApiDocument,
  Operation,
  PathItem,
  SecurityScheme,
  Tag,
} from "./OpenApiDocument.js";

/** Part of a document: its operations (each naming where it comes from) and components. */
export interface DocumentPart {
  /** Names the part in conflict messages (`BooksController.find`, `HttpApi "books"`). */
  readonly source: string;
  readonly operations: ReadonlyArray<{
    readonly path: string;
    readonly method: MethodName;
    readonly operation: Operation;
    readonly where?: string;
  }>;
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  readonly tags: ReadonlyArray<Tag>;
  readonly security?: OpenApiDocument["security"];
}

/** `value` as JSON with sorted keys: equal Schemas made apart compare equal. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/** The parts of an `OpenApi.fromApi` document (or any OpenAPI 3.1 document). */
export const partOf = (source: string, document: OpenApiDocument): DocumentPart => ({
  source,
  operations: Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      path,
      method: method as MethodName,
      operation: operation as Operation,
    })),
  ),
  schemas: document.components.schemas,
  securitySchemes: document.components.securitySchemes,
  tags: document.tags,
  security: document.security,
});

/**
 * One document from its parts, once, at startup. Two parts describing the same method and path,
 * using the same `operationId`, or naming different Schemas or security schemes alike fail
 * with a `StartupError` naming both sources.
 */
export const mergeDocuments = (
  { info, servers }: DocumentHead,
  parts: ReadonlyArray<DocumentPart>,
): OpenApiDocument => {
  const paths: Record<string, Record<string, Operation>> = {};
  const owners = new Map<string, string>();
  const operationIds = new Map<string, string>();
  const schemas: Record<string, JsonSchema> = {};
  const schemaOwners = new Map<string, string>();
  const securitySchemes: Record<string, SecurityScheme> = {};
  const tags = new Map<string, Tag>();
  const security: Array<Readonly<Record<string, ReadonlyArray<string>>>> = [];
  const conflict = (message: string): never => {
    throw new StartupError({ message: `OpenAPI: ${message}` });
  };
  for (const part of parts) {
    for (const { path, method, operation, where } of part.operations) {
      const source = where ?? part.source;
      const key = `${method.toUpperCase()} ${path}`;
      const owner = owners.get(key);
      if (owner !== undefined) conflict(`${key} is described twice, by ${owner} and ${source}.`);
      owners.set(key, source);
      if (operation.operationId !== undefined) {
        const other = operationIds.get(operation.operationId);
        if (other !== undefined) {
          conflict(
            `the operationId ${JSON.stringify(operation.operationId)} is used twice, by ${other} and ${source}: give one another with @ApiOperation({ operationId }).`,
          );
        }
        operationIds.set(operation.operationId, source);
      }
      paths[path] = { ...paths[path], [method]: operation };
    }
    for (const [name, schema] of Object.entries(part.schemas)) {
      const before = schemas[name];
      if (before !== undefined && canonical(before) !== canonical(schema)) {
        conflict(
          `two different Schemas are named ${JSON.stringify(name)} (${schemaOwners.get(name)} and ${part.source}): give one another identifier.`,
        );
      }
      schemas[name] = schema;
      if (!schemaOwners.has(name)) schemaOwners.set(name, part.source);
    }
    for (const [name, scheme] of Object.entries(part.securitySchemes)) {
      const before = securitySchemes[name];
      if (before !== undefined && canonical(before) !== canonical(scheme)) {
        conflict(`two different security schemes are named ${JSON.stringify(name)}.`);
      }
      securitySchemes[name] = scheme;
    }
    for (const tag of part.tags) {
      const before = tags.get(tag.name);
      tags.set(tag.name, before?.description === undefined ? tag : before);
    }
    for (const requirement of part.security ?? []) {
      if (!security.some((r) => canonical(r) === canonical(requirement)))
        security.push(requirement);
    }
  }
  const used = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])),
  );
  for (const name of used) if (!tags.has(name)) tags.set(name, { name });
  return {
    openapi: "3.1.0",
    info,
    ...(servers.length === 0 ? {} : { servers }),
    paths: paths as Record<string, PathItem>,
    components: { schemas, securitySchemes },
    security,
    tags: [...tags.values()],
  };
};
