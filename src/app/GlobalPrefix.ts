import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import { methodName, type RequestMethod } from "../nest/RequestMethod.js";
import type { CompiledRoute } from "../routes/AppRoutes.js";

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
 * Where the global prefix puts a route of `method` at `path`: under the prefix, unless `exclude`
 * names it (then its own path). `undefined` when there is no prefix.
 */
const prefixer = (
  options: GlobalPrefixOptions | undefined,
): ((method: string, path: string) => string | undefined) | undefined => {
  const prefix = options === undefined ? "" : trim(options.prefix);
  if (options === undefined || prefix === "") return undefined;
  const excluded = (options.exclude ?? []).map((entry) =>
    typeof entry === "string"
      ? { path: pattern(entry), method: undefined }
      : { path: pattern(entry.path), method: methodName(entry.method) },
  );
  return (method, path) => {
    const trimmed = trim(path);
    const skip = excluded.some(
      (e) => (e.method === undefined || e.method === method) && e.path.test(trimmed),
    );
    return skip ? undefined : `/${prefix}`;
  };
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

/** The controllers' routes with the global prefix, once, at startup. */
export const withGlobalPrefix = (
  routes: ReadonlyArray<CompiledRoute>,
  options: GlobalPrefixOptions | undefined,
): ReadonlyArray<CompiledRoute> => {
  const under = prefixer(options);
  if (under === undefined) return routes;
  return routes.map((compiled) => {
    const { route } = compiled;
    const prefix = under(route.method, String(route.path));
    if (prefix === undefined) return compiled;
    return {
      route: HttpLayerRouter.prefixRoute(route, prefix),
      handlers: compiled.handlers.map((h) => ({
        ...h,
        path: h.path === "/" ? prefix : `${prefix}${h.path}`,
      })),
    };
  });
};
