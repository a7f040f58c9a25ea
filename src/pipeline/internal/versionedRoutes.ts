/**
 * How versioned handlers become platform routes, for both faces: the versions each answers, the
 * path each is served at, and one route choosing the handler per request where several versions
 * share a path.
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import { NotFoundError } from "../../http/HttpError.js";
import { joinRoutePath } from "../../http/RoutePath.js";
import {
  VERSION_NEUTRAL,
  type VersionedMethod,
  type VersionId,
  type VersioningOptions,
  VersioningType,
  type VersionValue,
} from "../VersioningOptions.js";
import { requestVersion } from "./requestVersion.js";

export type Handler<E, R> = Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>;

/** One handler of a path, with the versions it answers. */
export interface VersionedEntry<E, R> {
  readonly method: VersionedMethod;
  readonly path: `/${string}`;
  readonly versions: ReadonlyArray<VersionId>;
  readonly handler: Handler<E, R>;
  /** Names the handler in conflict messages (`UsersController.find`). */
  readonly label: string;
}

/** A platform route and the entries it serves. */
export interface VersionedRoute<E, R> {
  readonly route: HttpLayerRouter.Route<E, Exclude<R, HttpLayerRouter.Provided>>;
  readonly path: `/${string}`;
  readonly entries: ReadonlyArray<VersionedEntry<E, R>>;
}

/** The versions of a {@link VersionValue}, as a list. */
export const versionList = (value: VersionValue | undefined): ReadonlyArray<VersionId> =>
  value === undefined
    ? []
    : typeof value === "string" || typeof value === "symbol"
      ? [value]
      : value;

const versionText = (version: VersionId): string =>
  version === VERSION_NEUTRAL ? "VERSION_NEUTRAL" : JSON.stringify(version);

const notFound = Effect.fail(new NotFoundError());

/** One route serving several versions of a path, chosen per request from its header or media type. */
const dispatch = <E, R>(
  options: VersioningOptions,
  entries: ReadonlyArray<VersionedEntry<E, R>>,
): ((request: HttpServerRequest.HttpServerRequest) => Handler<E | NotFoundError, R>) => {
  const byVersion = new Map<string, Handler<E, R>>();
  let neutral: Handler<E, R> | undefined;
  for (const entry of entries) {
    for (const version of entry.versions) {
      if (version === VERSION_NEUTRAL) neutral = entry.handler;
      else byVersion.set(version, entry.handler);
    }
  }
  // As NestJS: a request naming no version reaches only a version-neutral handler
  // (`defaultVersion` is the version of routes that declare none, not of requests).
  const unversioned = neutral ?? notFound;
  const read = requestVersion(options);
  return (request) => {
    const asked = read(request);
    if (asked === undefined) return unversioned;
    if (typeof asked === "string") return byVersion.get(asked) ?? neutral ?? notFound;
    for (const version of asked) {
      const handler = byVersion.get(version);
      if (handler !== undefined) return handler;
    }
    return neutral ?? notFound;
  };
};

/**
 * The versions a route answers under `options`: those it declares, else the app's
 * `defaultVersion`, else it is version-neutral.
 */
export const answeredVersions = (
  declared: ReadonlyArray<VersionId>,
  options: VersioningOptions,
): ReadonlyArray<VersionId> => {
  if (declared.length > 0) return declared;
  const defaults = versionList(options.defaultVersion);
  return defaults.length > 0 ? defaults : [VERSION_NEUTRAL];
};

/**
 * Where a route at `path` is served for `version`: under the version's segment with URI
 * versioning (`/v1/users`), else (or version-neutral) at `path`.
 */
export const versionedPath = (
  options: VersioningOptions,
  version: VersionId,
  path: `/${string}`,
): `/${string}` =>
  options.type === VersioningType.URI && version !== VERSION_NEUTRAL
    ? joinRoutePath(`${options.prefix ?? "v"}${version}`, path)
    : path;

/**
 * Turns handlers and their versions into platform routes; an entry declaring no version gets
 * the default version, else is neutral. Without versioning, each entry is its own route (and
 * none may declare a version). URI: one route per version, under
 * `/<prefix><version>` (neutral ones unprefixed). HEADER and MEDIA_TYPE: one route per method
 * and path, choosing the handler by the requested version, else the neutral handler, else 404.
 * Fails with a message when two handlers claim the same method, path and version.
 */
export const versionedRoutes = <E, R>(
  options: VersioningOptions | undefined,
  entries: ReadonlyArray<VersionedEntry<E, R>>,
): Either.Either<ReadonlyArray<VersionedRoute<E | NotFoundError, R>>, string> => {
  if (options === undefined) {
    const declared = entries.find((entry) => entry.versions.length > 0);
    if (declared !== undefined) {
      return Either.left(
        `${declared.label} declares version ${declared.versions.map(versionText).join(", ")}, but versioning is not enabled: pass { versioning: { type } } to the app.`,
      );
    }
    return Either.right(
      entries.map((entry) => ({
        route: HttpLayerRouter.route(entry.method, entry.path, entry.handler),
        path: entry.path,
        entries: [entry],
      })),
    );
  }
  if (options.type === VersioningType.CUSTOM && typeof options.extractor !== "function") {
    return Either.left(
      "CUSTOM versioning needs an extractor: enableVersioning({ type: VersioningType.CUSTOM, extractor: (request) => version })",
    );
  }
  const groups = new Map<string, Array<VersionedEntry<E, R>>>();
  const claimed = new Map<string, string>();
  const isUri = options.type === VersioningType.URI;
  for (const entry of entries) {
    for (const version of answeredVersions(entry.versions, options)) {
      const path = versionedPath(options, version, entry.path);
      const key = `${entry.method} ${path} ${isUri ? "" : String(version)}`;
      const other = claimed.get(key);
      if (other !== undefined) {
        return Either.left(
          `${entry.label} and ${other} both answer ${entry.method} ${path} version ${versionText(version)}.`,
        );
      }
      claimed.set(key, entry.label);
      const groupKey = `${entry.method} ${path}`;
      const group = groups.get(groupKey) ?? [];
      group.push({ ...entry, path, versions: [version] });
      groups.set(groupKey, group);
    }
  }
  return Either.right(
    [...groups.values()].map((group) => {
      const [first] = group as [VersionedEntry<E, R>];
      const single = isUri || (group.length === 1 && first.versions[0] === VERSION_NEUTRAL);
      return {
        route: single
          ? HttpLayerRouter.route(first.method, first.path, first.handler)
          : HttpLayerRouter.route(first.method, first.path, dispatch(options, group)),
        path: first.path,
        entries: group,
      };
    }),
  );
};
