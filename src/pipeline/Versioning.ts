/**
 * API versioning, for both faces: a version is read from the request (URI segment, header or
 * media type) and picks the handler of that version. Classic controllers declare versions with
 * `@Version` / `ControllerOptions.version`; Effect routes with {@link add}.
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Either from "effect/Either";
import { joinRoutePath } from "../http/RoutePath.js";
import { type Handler, type VersionedEntry, versionedRoutes } from "./internal/versionedRoutes.js";
import {
  VERSION_NEUTRAL,
  type VersionedMethod,
  type VersioningOptions,
} from "./VersioningOptions.js";

export {
  VERSION_NEUTRAL,
  type VersionedMethod,
  type VersionId,
  type VersioningOptions,
  VersioningType,
  type VersionRequest,
  type VersionValue,
} from "./VersioningOptions.js";

/**
 * The handlers of one path by version, for {@link add}: string keys are versions, the
 * {@link VERSION_NEUTRAL} key the version-neutral handler.
 *
 * @since 0.1.0
 * @category versioning
 */
export type VersionedHandlers<E, R> = {
  readonly [version: string]: Handler<E, R>;
} & { readonly [VERSION_NEUTRAL]?: Handler<E, R> };

/**
 * The Effect face of versioning: adds the versions of one path to the `HttpLayerRouter`, as
 * the classic compiler does for `@Version`.
 *
 * @example
 * declare const listUsersV1: Effect.Effect<HttpServerResponse.HttpServerResponse>;
 * declare const listUsersV2: Effect.Effect<HttpServerResponse.HttpServerResponse>;
 *
 * Versioning.add({ type: VersioningType.HEADER }, "GET", "/users", {
 *   "1": listUsersV1,
 *   "2": listUsersV2,
 * });
 *
 * @since 0.1.0
 * @category versioning
 */
export const add = <E, R>(
  options: VersioningOptions,
  method: VersionedMethod,
  path: string,
  handlers: VersionedHandlers<E, R>,
) => {
  const entries: Array<VersionedEntry<E, R>> = Object.keys(handlers).map((version) => ({
    method,
    path: joinRoutePath(path),
    versions: [version],
    handler: handlers[version] as Handler<E, R>,
    label: `${method} ${path} v${version}`,
  }));
  const neutral = handlers[VERSION_NEUTRAL];
  if (neutral !== undefined) {
    entries.push({
      method,
      path: joinRoutePath(path),
      versions: [VERSION_NEUTRAL],
      handler: neutral,
      label: `${method} ${path} (neutral)`,
    });
  }
  const routes = Either.getOrThrow(versionedRoutes(options, entries));
  return HttpLayerRouter.addAll(routes.map((r) => r.route));
};
