import { ApplicationConfig } from "./ApplicationConfig.js";
import { DiscoveryService } from "./DiscoveryService.js";
import type { ModuleNode, ParentGraph, ProviderKind } from "./GraphNodes.js";
import { LazyModuleLoader } from "./LazyModuleLoader.js";
import { MetadataScanner } from "./MetadataScanner.js";
import { ModuleRef } from "./ModuleRef.js";
import { type ModuleScan, registerProviders } from "./ModuleScan.js";
import { inheritedProvider } from "./ProviderRecipe.js";
import { Reflector } from "./Reflector.js";
import { Scope } from "./Scope.js";
import type { InjectionToken } from "./Token.js";
import { INQUIRER, REQUEST } from "./tokens.js";

/** What every app provides without a module. */
class StrataCore {}

/** The framework's tokens the injector provides itself, with their kind and scope. */
const FRAMEWORK_TOKENS: ReadonlyArray<
  readonly [InjectionToken, string, ProviderKind, Scope, "app" | "every graph"]
> = [
  [REQUEST, "REQUEST", "request", Scope.REQUEST, "app"],
  [ModuleRef, "ModuleRef", "moduleRef", Scope.SINGLETON, "every graph"],
  [DiscoveryService, "DiscoveryService", "discovery", Scope.SINGLETON, "app"],
  [LazyModuleLoader, "LazyModuleLoader", "lazyModuleLoader", Scope.SINGLETON, "every graph"],
  [INQUIRER, "INQUIRER", "inquirer", Scope.TRANSIENT, "every graph"],
];

/**
 * Adds the global module of what every module sees without importing it: `Reflector`,
 * `ApplicationConfig`, `MetadataScanner` and the framework's tokens (the request, `ModuleRef`,
 * `DiscoveryService`, `LazyModuleLoader`, `INQUIRER`). In a lazily loaded module's graph, it holds the
 * loading app's global providers instead (their instances are the app's), with a `ModuleRef`
 * and a `LazyModuleLoader` of its own.
 */
export const addCoreModule = (scan: ModuleScan, parent: ParentGraph | undefined): ModuleNode => {
  const core: ModuleNode = {
    cls: StrataCore,
    name: "Strata",
    path: "Strata",
    options: {},
    global: true,
    imports: [],
  };
  scan.modules.set(StrataCore, core);
  if (parent === undefined) {
    registerProviders(scan, core, [Reflector, ApplicationConfig, MetadataScanner]);
  } else {
    scan.own.set(core, new Map());
    for (const [token, node] of parent.globalVisible())
      scan.own.get(core)?.set(token, inheritedProvider(node, core));
  }
  for (const [token, name, kind, declaredScope, where] of FRAMEWORK_TOKENS) {
    if (parent !== undefined && where === "app") continue;
    scan.own.get(core)?.set(token, {
      token,
      name,
      module: core,
      kind,
      create: () => undefined,
      synchronous: true,
      dependencies: [],
      declaredScope,
    });
  }
  return core;
};
