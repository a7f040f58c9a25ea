import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type { CompiledRoute } from "../compiler/AppRoutes.js";
import { methodName, type RequestMethod } from "../http/RequestMethod.js";
import { type VersioningOptions, VersioningType } from "../pipeline/Versioning.js";

/**
 * NestJS's `app.setGlobalPrefix(prefix, { exclude })`: a path prefix for every controller route,
 * but those `exclude` names (`"health"`, `{ path: "health", method: RequestMethod.GET }`;
 * `:param` and `(.*)` allowed).
 *
 * @since 0.1.0
 * @category app
 */
export interface GlobalPrefixOptions {
  readonly prefix: string;
  readonly exclude?: ReadonlyArray<
    string | { readonly path: string; readonly method: RequestMethod }
  >;
}

const trim = (path: string) => path.replace(/^\/+|\/+$/g, "");

/** A route path pattern of `exclude` as a regex of whole (slash-trimmed) paths. */
const pattern = (path: string): RegExp =>
  new RegExp(
    `^${trim(path)
      .replace(/[.+?^${}|[\]\\]/g, "\\$&")
      .replace(/\\?\(\.\*\)|\*/g, ".*")
      .replace(/:[A-Za-z0-9_]+/g, "[^/]+")}$`,
    "i",
  );

/**
 * Whether `exclude` names a route of `method` (`undefined`: any method, as a middleware path of
 * no method) at `path`: an entry of no method (a string) names every method, one with a method
 * only that method, as NestJS's `isRouteExcluded`. Compiled once.
 *
 * @since 0.1.0
 * @category app
 */
export const globalPrefixExclusion = (
  options: GlobalPrefixOptions | undefined,
): ((method: string | undefined, path: string) => boolean) => {
  const excluded = (options?.exclude ?? []).map((entry) =>
    typeof entry === "string"
      ? { path: pattern(entry), method: undefined }
      : { path: pattern(entry.path), method: methodName(entry.method) },
  );
  return (method, path) => {
    const trimmed = trim(path);
    return excluded.some(
      (e) => (e.method === undefined || e.method === method) && e.path.test(trimmed),
    );
  };
};

/**
 * Where the global prefix puts a route of `method` at `path`: under the prefix, unless `exclude`
 * names it (then its own path). `undefined` when there is no prefix.
 */
const prefixer = (
  options: GlobalPrefixOptions | undefined,
): ((method: string, path: string) => string | undefined) | undefined => {
  const prefix = options === undefined ? "" : trim(options.prefix);
  if (options === undefined || prefix === "") return undefined;
  const excluded = globalPrefixExclusion(options);
  return (method, path) => (excluded(method, path) ? undefined : `/${prefix}`);
};

/**
 * Where the app serves a built-in route of `method` at `path` (the health probes): under the
 * global prefix like a controller route, unless `exclude` names it.
 */
export const pathUnderGlobalPrefix = (
  options: GlobalPrefixOptions | undefined,
  method: string,
  path: string,
): string => {
  const under = prefixer(options)?.(method, path);
  return under === undefined ? path : path === "/" ? under : `${under}/${trim(path)}`;
};

/**
 * The path `exclude` is matched against: the route's own, without its URI version segment
 * (`/v1/foo/bar` is `foo/bar` to `exclude: ["foo/bar"]`, as in NestJS); the versioned path
 * (`"v1/foo/bar"`) excludes it too.
 */
const unversioned = (
  compiled: CompiledRoute,
  versioning: VersioningOptions | undefined,
): string => {
  const path = String(compiled.route.path);
  const version = compiled.handlers[0]?.version;
  if (versioning?.type !== VersioningType.URI || version === undefined) return path;
  const segment = `/${versioning.prefix ?? "v"}${version}`;
  return path === segment
    ? "/"
    : path.startsWith(`${segment}/`)
      ? path.slice(segment.length)
      : path;
};

/** The controllers' routes with the global prefix, once, at startup. */
export const withGlobalPrefix = (
  routes: ReadonlyArray<CompiledRoute>,
  options: GlobalPrefixOptions | undefined,
  versioning?: VersioningOptions,
): ReadonlyArray<CompiledRoute> => {
  const under = prefixer(options);
  if (under === undefined) return routes;
  return routes.map((compiled) => {
    const { route } = compiled;
    // Excluded by its path without the version (NestJS's spelling) or with it (Strata's before).
    const bare = unversioned(compiled, versioning);
    const prefix = under(route.method, bare);
    if (prefix === undefined) return compiled;
    if (bare !== route.path && under(route.method, String(route.path)) === undefined)
      return compiled;
    return {
      route: HttpLayerRouter.prefixRoute(route, prefix),
      handlers: compiled.handlers.map((h) => ({
        ...h,
        path: h.path === "/" ? prefix : `${prefix}${h.path}`,
      })),
    };
  });
};
