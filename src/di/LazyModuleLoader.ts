import type { ModuleImport } from "./Module.js";
import type { ModuleRef } from "./ModuleRef.js";

/**
 * NestJS's `LazyModuleLoader`, injectable everywhere: `load(() => ReportsModule)` compiles a
 * module the app did not import (once; later loads give the same {@link ModuleRef}) and builds
 * its providers. It sees the app's global modules, and a module the app already has is shared,
 * not built again; a testing module's overrides apply. A lazy module cannot add routes
 * (controllers): those are fixed when the app starts.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class LazyModuleLoader {
  /** @internal */
  constructor(private readonly loadModule: (module: ModuleImport) => Promise<ModuleRef>) {}

  /** The {@link ModuleRef} of the module `loader` gives (or resolves to), compiled and built. */
  async load(loader: () => ModuleImport | Promise<ModuleImport>): Promise<ModuleRef> {
    return this.loadModule(await loader());
  }
}
