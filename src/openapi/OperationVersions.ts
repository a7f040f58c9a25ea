import type { RouteScan } from "../compiler/ControllerScan.js";
import {
  answeredVersions,
  versionedPath,
  versionList,
} from "../pipeline/internal/versionedRoutes.js";
import {
  VERSION_NEUTRAL,
  type VersionId,
  type VersioningOptions,
  VersioningType,
} from "../pipeline/Versioning.js";
import type { JsonSchema, MethodName, Operation, Parameter, Response } from "./OpenApiDocument.js";

/** One described operation, at its OpenAPI path. */
export interface ClassicOperation {
  readonly path: string;
  readonly method: MethodName;
  readonly operation: Operation;
  /** Names the route in conflict messages (`BooksController.find`). */
  readonly where: string;
}

/** An operation, with the header or media-type versions it answers. */
export interface VersionedOperation extends ClassicOperation {
  readonly versions: ReadonlyArray<string>;
}

/** The versions a route answers, as the router assigns them (version-neutral without versioning). */
export const routeVersions = (
  route: RouteScan,
  versioning: VersioningOptions | undefined,
): ReadonlyArray<VersionId> =>
  versioning === undefined ? [VERSION_NEUTRAL] : answeredVersions(route.versions, versioning);

const named = (versions: ReadonlyArray<VersionId>): ReadonlyArray<string> =>
  versions.filter((v): v is string => v !== VERSION_NEUTRAL);

/** The media types of a route's successful bodies: one vendor type per media-type version. */
export const versionMediaTypes = (
  versions: ReadonlyArray<VersionId>,
  versioning: VersioningOptions | undefined,
): ReadonlyArray<string> => {
  const vendor = versioning?.vendor ?? "strata";
  const names = named(versions);
  return versioning?.type === VersioningType.MEDIA_TYPE && names.length > 0
    ? names.map((v) => `application/vnd.${vendor}.v${v}+json`)
    : ["application/json"];
};

/**
 * Where an operation of a route is described: with URI versioning, once per version under its
 * prefix (`/v1/books`, `operationId` suffixed by the version when there are several); else once,
 * at its path, with its versions for {@link combineVersions}. `place` maps a route's path and
 * version to the OpenAPI path of where the app serves it.
 */
export const placeOperation = (
  entry: { readonly path: `/${string}`; readonly method: MethodName; readonly where: string },
  operation: Operation,
  versions: ReadonlyArray<VersionId>,
  versioning: VersioningOptions | undefined,
  place: (path: string, version: VersionId) => string,
): ReadonlyArray<VersionedOperation> => {
  if (versioning?.type !== VersioningType.URI) {
    const path = place(entry.path, versions[0] ?? VERSION_NEUTRAL);
    return [{ ...entry, path, versions: named(versions), operation }];
  }
  return versions.map((version) => ({
    ...entry,
    path: place(versionedPath(versioning, version, entry.path), version),
    versions: [],
    operation:
      version === VERSION_NEUTRAL || versions.length === 1
        ? operation
        : { ...operation, operationId: `${operation.operationId}.v${version}` },
  }));
};

/** Media-type versions of one operation: each version's responses under its own media type. */
const mergeResponses = (
  group: readonly [VersionedOperation, ...Array<VersionedOperation>],
): Readonly<Record<string, Response>> => {
  const [first, ...rest] = group;
  const responses: Record<string, Response> = { ...first.operation.responses };
  for (const other of rest) {
    for (const [code, response] of Object.entries(other.operation.responses)) {
      const before = responses[code];
      responses[code] =
        before === undefined || before.content === undefined || response.content === undefined
          ? (before ?? response)
          : { ...before, content: { ...before.content, ...response.content } };
    }
  }
  return responses;
};

/** The header naming the API version, listing `versions`. */
const versionHeader = (
  versioning: VersioningOptions,
  versions: ReadonlyArray<string>,
): Parameter => {
  const defaults = named(versionList(versioning.defaultVersion));
  return {
    name: versioning.header ?? "X-API-Version",
    in: "header",
    required: false,
    description:
      defaults.length > 0 ? `The API version (default ${defaults.join(", ")})` : "The API version",
    schema: { type: "string", enum: versions } as JsonSchema,
  };
};

/**
 * The operations sharing one method and path, as one: with header versioning, the first
 * describes them and the version header lists every version; with media-type versioning, each
 * version's responses are under its own media type.
 */
const combine = (
  group: readonly [VersionedOperation, ...Array<VersionedOperation>],
  versioning: VersioningOptions | undefined,
): ClassicOperation => {
  const [first] = group;
  const { versions: _, ...entry } = first;
  const versions = [...new Set(group.flatMap((e) => e.versions))];
  if (versioning?.type === VersioningType.MEDIA_TYPE && group.length > 1) {
    return { ...entry, operation: { ...first.operation, responses: mergeResponses(group) } };
  }
  if (versioning?.type !== VersioningType.HEADER || versions.length === 0) return entry;
  const parameters = [...(first.operation.parameters ?? []), versionHeader(versioning, versions)];
  return { ...entry, operation: { ...first.operation, parameters } };
};

/** The operations placed at each method and path, the header and media-type versions of one combined. */
export const combineVersions = (
  placed: ReadonlyArray<VersionedOperation>,
  versioning: VersioningOptions | undefined,
): ReadonlyArray<ClassicOperation> => {
  const groups = new Map<string, [VersionedOperation, ...Array<VersionedOperation>]>();
  for (const entry of placed) {
    const key = `${entry.method} ${entry.path}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [entry]);
    else group.push(entry);
  }
  return [...groups.values()].map((group) => combine(group, versioning));
};
