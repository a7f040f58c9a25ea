/**
 * API versioning, for both faces: a version is read from the request (URI segment, header or
 * media type) and picks the handler of that version. Classic controllers declare versions with
 * `@Version` / `ControllerOptions.version`; Effect routes with {@link add}. Both compile
 * through {@link versionedRoutes}.
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import { NotFoundError } from "../http/HttpError.js";
import { joinRoutePath } from "../http/RoutePath.js";

/**
 * Where a request names its version: `URI` (`/v1/users`), `HEADER` (`X-API-Version: 1`),
 * `MEDIA_TYPE` (`Accept: application/vnd.strata.v1+json`, or `application/json;v=1`) or
 * `CUSTOM` (the app's `extractor` reads it).
 *
 * @since 0.1.0
 * @category versioning
 */
export enum VersioningType {
  URI = "uri",
  HEADER = "header",
  MEDIA_TYPE = "media_type",
  CUSTOM = "custom",
}

/**
 * What a `CUSTOM` versioning `extractor` reads the version from: the request's method, URL,
 * headers (lower-case names) and `header(name)`, as NestJS's extractor calls it on Express's.
 *
 * @since 0.1.0
 * @category versioning
 */
export interface VersionRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The value of header `name` (any case). */
  header(name: string): string | undefined;
}

/**
 * The version of a route that answers any version, and requests naming none.
 *
 * @since 0.1.0
 * @category versioning
 */
export const VERSION_NEUTRAL: unique symbol = Symbol.for("effect-strata/VERSION_NEUTRAL");

/** One version: a string such as `"1"`, or {@link VERSION_NEUTRAL}. @since 0.1.0 @category versioning */
export type VersionId = string | typeof VERSION_NEUTRAL;

/** What `@Version` and `ControllerOptions.version` accept: one version or several. @since 0.1.0 @category versioning */
export type VersionValue = VersionId | ReadonlyArray<VersionId>;

/**
 * Versioning of an app (`new StrataApp(AppModule, { versioning })`, or {@link add}).
 *
 * @since 0.1.0
 * @category versioning
 */
export interface VersioningOptions {
  readonly type: VersioningType | `${VersioningType}`;
  /**
   * The version of routes that declare none; without it, such routes are version-neutral. A
   * request naming no version (HEADER, MEDIA_TYPE, CUSTOM) reaches only version-neutral
   * routes, as in NestJS.
   */
  readonly defaultVersion?: VersionValue;
  /** HEADER: the request header naming the version (default `X-API-Version`). */
  readonly header?: string;
  /** URI: the segment prefix before the version (default `v`, as in `/v1/users`). */
  readonly prefix?: string;
  /** MEDIA_TYPE: the vendor of `application/vnd.<vendor>.v1+json` (default `strata`). */
  readonly vendor?: string;
  /**
   * CUSTOM (required there): the version(s) a request asks for, in order of preference; the
   * first that a handler declares wins. `undefined` or an empty list: the request names none.
   */
  readonly extractor?: (request: VersionRequest) => string | ReadonlyArray<string> | undefined;
}

/** The HTTP methods a versioned route can answer. @since 0.1.0 @category versioning */
export type VersionedMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "*";

type Handler<E, R> = Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>;

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

const headerVersion = (name: string) => {
  const key = name.toLowerCase();
  return (request: HttpServerRequest.HttpServerRequest): string | undefined => {
    const value = request.headers[key]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
};

const mediaTypeVersion = (vendor: string) => {
  const prefix = `application/vnd.${vendor.toLowerCase()}.v`;
  return (request: HttpServerRequest.HttpServerRequest): string | undefined => {
    const accept = request.headers.accept;
    if (accept === undefined) return undefined;
    for (const range of accept.split(",")) {
      const [type = "", ...parameters] = range.split(";").map((part) => part.trim());
      if (type.toLowerCase().startsWith(prefix)) {
        const rest = type.slice(prefix.length);
        const plus = rest.indexOf("+");
        const version = plus === -1 ? rest : rest.slice(0, plus);
        if (version !== "") return version;
      }
      for (const parameter of parameters) {
        if (parameter.startsWith("v=") && parameter.length > 2) return parameter.slice(2);
      }
    }
    return undefined;
  };
};

/** The versions a `CUSTOM` extractor reads from a request, in order of preference. */
const customVersions =
  (extractor: NonNullable<VersioningOptions["extractor"]>) =>
  (request: HttpServerRequest.HttpServerRequest): ReadonlyArray<string> | undefined => {
    const headers = request.headers;
    const extracted = extractor({
      method: request.method,
      url: request.url,
      headers,
      header: (name) => headers[name.toLowerCase()],
    });
    if (extracted === undefined || extracted === null || extracted === "") return undefined;
    const versions = typeof extracted === "string" ? [extracted] : extracted;
    return versions.length === 0 ? undefined : versions;
  };

/**
 * Reads the version a request asks for (HEADER, MEDIA_TYPE), or the versions in order of
 * preference (CUSTOM: its extractor's list); `undefined` when it names none. A URI version is
 * part of the path the router matched.
 *
 * @since 0.1.0
 * @category versioning
 */
export const requestVersion = (
  options: VersioningOptions,
): ((
  request: HttpServerRequest.HttpServerRequest,
) => string | ReadonlyArray<string> | undefined) => {
  if (options.type === VersioningType.CUSTOM) {
    if (typeof options.extractor !== "function") {
      throw new Error(
        "CUSTOM versioning needs an extractor: enableVersioning({ type: VersioningType.CUSTOM, extractor: (request) => version })",
      );
    }
    return customVersions(options.extractor);
  }
  return options.type === VersioningType.MEDIA_TYPE
    ? mediaTypeVersion(options.vendor ?? "strata")
    : headerVersion(options.header ?? "X-API-Version");
};

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
