import { addCoreModule } from "./CoreModule.js";
import type {
  Dependency,
  ModuleGraph,
  ModuleNode,
  ParentGraph,
  Pending,
  ProviderNode,
  TestingReplacements,
} from "./GraphNodes.js";
import type { ModuleImport } from "./Module.js";
import { type ModuleScan, scanModules } from "./ModuleScan.js";
import { ModuleVisibility } from "./ModuleVisibility.js";
import type { Provider } from "./Provider.js";
import { pendingProvider } from "./ProviderRecipe.js";
import { ProviderResolver } from "./ProviderResolution.js";
import type { InjectionToken } from "./Token.js";

export type {
  GlobalEnhancerNodes,
  ModuleGraph,
  ModuleNode,
  ProviderKind,
  ProviderNode,
  TestingReplacements,
} from "./GraphNodes.js";
export { classRecipe } from "./ProviderRecipe.js";

/**
 * Compiles a root module into its provider graph, once, at startup, in named steps: scan the
 * modules (`scanModules`), add the framework's module (`addCoreModule`), work out what each
 * module sees (`ModuleVisibility`), then resolve every provider (`ProviderResolver`). Every
 * dependency is resolved here, so a missing provider, missing metadata, a cycle or a module
 * boundary crossed fails the start with a {@link StartupError} instead of an `undefined` at run
 * time. `overrides` replace the providers of their tokens wherever a module declares them;
 * `parent` is given for a lazily loaded module (see `ModuleGraph.compileLazy`).
 */
export const compileModuleGraph = (
  root: ModuleImport,
  overrides: ReadonlyMap<unknown, Provider<unknown>> = new Map(),
  testing: TestingReplacements = {},
  parent?: ParentGraph,
): ModuleGraph => {
  const scan = scanModules(root, overrides, testing, parent);
  const core = addCoreModule(scan, parent);
  const visibility = new ModuleVisibility(scan, core);
  const resolver = new ProviderResolver(visibility, mocker(testing, visibility, core));
  // Controllers first, so an error's path reads from the controller down to what is missing.
  const controllers = scan.controllers.map((pending) => resolver.resolve(pending));
  for (const providers of scan.own.values())
    for (const pending of providers.values()) resolver.resolve(pending);
  resolver.fillForwardReferences();
  const rootVisible = nodesOf(resolver, visibility.visibleIn(scan.root));
  const resolved = (list: ReadonlyArray<Pending>) => list.map((p) => resolver.resolve(p));
  const loading = asParent(scan, core, visibility, resolver, testing, parent);
  return {
    root: scan.root,
    providers: resolver.order,
    controllers,
    rootVisible,
    globalEnhancers: {
      guards: resolved(scan.enhancers.guards),
      interceptors: resolved(scan.enhancers.interceptors),
      pipes: resolved(scan.enhancers.pipes),
      filters: resolved(scan.enhancers.filters),
    },
    compileLazy: (module) => compileModuleGraph(module, overrides, testing, loading),
  };
};

/** A testing module's `useMocker`: a dependency no module provides, as a global value. */
const mocker =
  (testing: TestingReplacements, visibility: ModuleVisibility, core: ModuleNode) =>
  (dependency: Dependency): Pending | undefined => {
    if (testing.mocker === undefined || dependency.optional) return undefined;
    const value = testing.mocker(dependency.token);
    if (value === undefined) return undefined;
    const pending = pendingProvider({ provide: dependency.token, useValue: value }, core);
    visibility.provideEverywhere(pending);
    return pending;
  };

const nodesOf = (
  resolver: ProviderResolver,
  pendings: ReadonlyMap<InjectionToken, Pending>,
): Map<InjectionToken, ProviderNode> =>
  new Map([...pendings].map(([token, pending]) => [token, resolver.resolve(pending)]));

/** What a module loaded lazily from this graph takes of it: its global providers and modules. */
const asParent = (
  scan: ModuleScan,
  core: ModuleNode,
  visibility: ModuleVisibility,
  resolver: ProviderResolver,
  testing: TestingReplacements,
  parent: ParentGraph | undefined,
): ParentGraph => ({
  globalVisible: () => {
    const visible = nodesOf(resolver, scan.own.get(core) ?? new Map());
    for (const global of visibility.globals)
      for (const [token, node] of nodesOf(resolver, visibility.exportsOf(global)))
        visible.set(token, node);
    return visible;
  },
  exportsOf: (entry) => {
    const module = scan.modules.get(testing.modules?.get(entry as ModuleImport) ?? entry);
    if (module === undefined || module === core) return parent?.exportsOf(entry);
    return nodesOf(resolver, visibility.exportsOf(module));
  },
});
