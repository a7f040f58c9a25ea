import { type ControllerMetadata } from "../decorators/Controller.js";
import { MetadataKey, readMetadata } from "../di/metadata.js";
import { StartupError } from "../di/StartupError.js";
import { methodName, type RequestMethod } from "../http/RequestMethod.js";
import { versionList } from "../pipeline/internal/versionedRoutes.js";
import {
  VERSION_NEUTRAL,
  type VersionId,
  type VersioningOptions,
  VersioningType,
  type VersionValue,
} from "../pipeline/Versioning.js";
import type { RoutePrefix, ServedRoute } from "./MiddlewareRouteContext.js";

/**
 * A route of `forRoutes`/`exclude`: a path (`"cats"`, `"cats/(.*)"`, `"cats/:id"`), a method,
 * and optionally the version(s) it is for: under URI versioning the path is then matched after
 * the version segment (`/v1/cats`), as in NestJS.
 */
export interface RouteInfo {
  readonly path: string;
  readonly method: RequestMethod;
  readonly version?: VersionValue;
}

/** A controller of `forRoutes`: its routes are known once the app's are compiled. */
interface ControllerMatcher {
  readonly controller: string;
}

/** A route pattern of `forRoutes`/`exclude`, compiled once the global prefix is known. */
interface PathMatcher {
  /** The path as a regex source, without the leading `/`. */
  readonly body: string;
  /** The path as given (what the global prefix's `exclude` is matched against). */
  readonly path: string;
  /** Paths under it match too (Express's `app.use`). */
  readonly under: boolean;
  readonly method: string | undefined;
  /** The versions of a `{ path, version }` route. */
  readonly versions?: ReadonlyArray<VersionId>;
}

/** A route of `forRoutes`/`exclude` as recorded: a path pattern or a controller. */
export type Matcher = PathMatcher | ControllerMatcher;

/** A compiled route pattern. */
export interface CompiledMatcher {
  readonly path: RegExp;
  readonly method: string | undefined;
}

/** A path pattern (`cats/:id/(.*)`) as a regex source, slashes trimmed: `:param` one segment, `(.*)` or `*` any rest. */
const escaped = (path: string): string =>
  path
    .replace(/^\/+|\/+$/g, "")
    .split("/")
    .map((segment) =>
      segment
        .split(/\(\.\*\)|\*/)
        .map((part) => part.replace(/[.+?^${}|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+/g, "[^/]+"))
        .join(".*"),
    )
    .join("/");

/**
 * `cats/:id/(.*)` as a regex, under the global prefix, as NestJS mounts middleware: not for a
 * path its `exclude` names, nor for a wildcard of every path (`*`, `(.*)`).
 */
const compilePath = (m: PathMatcher, { prefix, excluded }: RoutePrefix): CompiledMatcher => {
  const unprefixed = prefix === "" || m.body === ".*" || excluded(m.method, m.path);
  const under = unprefixed ? "" : `/${escaped(prefix)}`;
  return {
    path: new RegExp(`^${under}/${m.body}${m.under ? "(?:/.*)?" : ""}/?$`, "i"),
    method: m.method,
  };
};

/** Where the app serves the routes of `m`: after each version's segment, under URI versioning. */
const versioned = (m: PathMatcher, versioning: VersioningOptions | undefined) =>
  m.versions === undefined || versioning?.type !== VersioningType.URI
    ? [m]
    : m.versions.map((version) =>
        version === VERSION_NEUTRAL
          ? m
          : { ...m, body: `${escaped(`${versioning.prefix ?? "v"}${version}`)}/${m.body}` },
      );

/**
 * The patterns of `m`: a path's under the global prefix (after its version segment), a
 * controller's its served routes, each path whole.
 */
export const compile = (
  m: Matcher,
  prefix: RoutePrefix,
  served: ReadonlyArray<ServedRoute>,
  versioning: VersioningOptions | undefined,
): ReadonlyArray<CompiledMatcher> => {
  if ("body" in m) return versioned(m, versioning).map((one) => compilePath(one, prefix));
  return served
    .filter((route) => route.controller === m.controller)
    .map((route) =>
      compilePath(
        {
          body: escaped(route.path),
          path: route.path,
          under: false,
          method: route.method === "*" ? undefined : route.method,
        },
        { prefix: "", excluded: () => false },
      ),
    );
};

/** A route of `forRoutes` (`under`: paths under it too) or `exclude`, as recorded. */
export const matcher = (route: string | RouteInfo | Function, under: boolean): Matcher => {
  if (typeof route === "string") {
    return { body: escaped(route), path: route, under, method: undefined };
  }
  if (typeof route === "function") {
    const controller = readMetadata<ControllerMetadata>(MetadataKey.controller, route);
    if (controller === undefined) {
      throw new StartupError({
        message: `forRoutes(${route.name}): ${route.name} is neither a path nor a @Controller() class`,
      });
    }
    return { controller: route.name };
  }
  const method = methodName(route.method);
  return {
    body: escaped(route.path),
    path: route.path,
    // Express mounts a route of one method (`app.get(path)`) on its path only, of any (`app.use`) under it too.
    under: under && method === undefined,
    method,
    ...(route.version === undefined ? {} : { versions: versionList(route.version) }),
  };
};

/** Whether a request of `method` at `path` matches one of `list`. */
export const matches = (
  list: ReadonlyArray<CompiledMatcher>,
  method: string,
  path: string,
): boolean =>
  list.some((m) => (m.method === undefined || m.method === method) && m.path.test(path));
