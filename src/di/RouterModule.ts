import { joinRoutePath } from "../http/RoutePath.js";
import type { DynamicModule } from "./Module.js";

/**
 * One entry of NestJS's `RouterModule.register(routes)`: the controllers of `module` (and of the
 * `children`, below it) are served under `path`; a child given as a module class takes the
 * parent's path as is.
 *
 * @since 0.1.0
 * @category app
 */
export interface RouteTree {
  readonly path: string;
  readonly module?: Function;
  readonly children?: ReadonlyArray<RouteTree | Function>;
}

/** NestJS's `Routes`: the argument of {@link RouterModule.register}. @since 0.1.0 @category app */
export type Routes = ReadonlyArray<RouteTree>;

/** The token under which {@link RouterModule.register} records its routes. @since 0.1.0 @category app */
export const ROUTES = Symbol.for("effect-strata/RouterModule/routes");

/**
 * NestJS's `RouterModule`: `imports: [RouterModule.register([{ path: "admin", module: AdminModule }])]`
 * prefixes every controller of `AdminModule` with `/admin`, at startup (routes do not pay for
 * it). Several `register` calls add up.
 *
 * @since 0.1.0
 * @category app
 */
export class RouterModule {
  /** A module recording `routes` for the route compiler. */
  static register(routes: Routes): DynamicModule {
    return { module: RouterModule, providers: [{ provide: ROUTES, useValue: routes }] };
  }
}

/** The path prefix of each module class the registered routes name. */
export const routerModulePrefixes = (
  registered: ReadonlyArray<Routes>,
): ReadonlyMap<Function, string> => {
  const prefixes = new Map<Function, string>();
  const walk = (entries: ReadonlyArray<RouteTree | Function>, parent: string) => {
    for (const entry of entries) {
      if (typeof entry === "function") {
        prefixes.set(entry, parent);
        continue;
      }
      const path = joinRoutePath(parent, entry.path);
      if (entry.module !== undefined) prefixes.set(entry.module, path);
      walk(entry.children ?? [], path);
    }
  };
  for (const routes of registered) walk(routes, "");
  return prefixes;
};
