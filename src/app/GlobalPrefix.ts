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

/** The controllers' routes with the global prefix, once, at startup. */
export const withGlobalPrefix = (
  routes: ReadonlyArray<CompiledRoute>,
  options: GlobalPrefixOptions | undefined,
): ReadonlyArray<CompiledRoute> => {
  const prefix = options === undefined ? "" : trim(options.prefix);
  if (options === undefined || prefix === "") return routes;
  const excluded = (options.exclude ?? []).map((entry) =>
    typeof entry === "string"
      ? { path: pattern(entry), method: undefined }
      : { path: pattern(entry.path), method: methodName(entry.method) },
  );
  return routes.map((compiled) => {
    const { route } = compiled;
    const path = trim(String(route.path));
    const skip = excluded.some(
      (e) => (e.method === undefined || e.method === route.method) && e.path.test(path),
    );
    if (skip) return compiled;
    return {
      route: HttpLayerRouter.prefixRoute(route, `/${prefix}`),
      handlers: compiled.handlers.map((h) => ({
        ...h,
        path: h.path === "/" ? `/${prefix}` : `/${prefix}${h.path}`,
      })),
    };
  });
};
