import * as Effect from "effect/Effect";
import * as Scope from "effect/Scope";
import type { ModuleImport } from "./Module.js";
import type { ModuleGraph } from "./ModuleGraph.js";
import type { ModuleRef } from "./ModuleRef.js";
import { StartupError } from "./StartupError.js";

/**
 * {@link LazyModuleLoader}'s loading: a module is compiled against the app's graph and built
 * (by `build`, the app's injector its parent) in the app's scope, its `onModuleDestroy` run
 * when the app closes; once.
 */
export const lazyLoader = (
  graph: ModuleGraph,
  appScope: Scope.Scope,
  build: (
    lazy: ModuleGraph,
  ) => Effect.Effect<{ readonly moduleRef: ModuleRef }, StartupError, Scope.Scope>,
): ((module: ModuleImport) => Promise<ModuleRef>) => {
  const loaded = new Map<unknown, Promise<ModuleRef>>();
  return (module) => {
    const cached = loaded.get(module);
    if (cached !== undefined) return cached;
    const load = Effect.runPromise(
      Effect.suspend(() => {
        const lazy = graph.compileLazy(module);
        if (lazy.controllers.length > 0) {
          return Effect.fail(
            new StartupError({
              message: `LazyModuleLoader cannot load ${lazy.root.path}: it declares controllers (${lazy.controllers.map((c) => c.name).join(", ")}), and routes are fixed when the app starts. Import it in the app's modules instead.`,
            }),
          );
        }
        return Scope.extend(build(lazy), appScope);
      }),
    ).then(
      (injector) => injector.moduleRef,
      (error: unknown) => {
        loaded.delete(module);
        throw error;
      },
    );
    loaded.set(module, load);
    return load;
  };
};
