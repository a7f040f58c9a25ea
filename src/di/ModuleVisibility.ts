import type { ModuleNode, Pending } from "./GraphNodes.js";
import { isModuleImport, type ModuleScan, moduleName, unwrap } from "./ModuleScan.js";
import { isProviderRecord, type Provider, type ProviderLike, providerToken } from "./Provider.js";
import { StartupError } from "./StartupError.js";
import { type InjectionToken, tokenName } from "./Token.js";

/**
 * Which providers each module sees: the core module's, the global modules' exports, its
 * imports' exports and its own (later ones win). A module exports the providers it lists and
 * re-exports what the modules it lists export. Computed once per module, on first ask.
 */
export class ModuleVisibility {
  private readonly exportsCache = new Map<ModuleNode, Map<InjectionToken, Pending>>();
  private readonly visibleCache = new Map<ModuleNode, Map<InjectionToken, Pending>>();
  /** The global modules, the core module first. */
  readonly globals: ReadonlyArray<ModuleNode>;

  constructor(
    private readonly scan: ModuleScan,
    private readonly core: ModuleNode,
  ) {
    this.globals = [...scan.modules.values()].filter((m) => m.global);
  }

  /** What `module` exports, by token; throws a {@link StartupError} for an export it cannot give. */
  exportsOf(module: ModuleNode, visiting = new Set<ModuleNode>()): Map<InjectionToken, Pending> {
    const cached = this.exportsCache.get(module);
    if (cached !== undefined) return cached;
    const result = new Map<InjectionToken, Pending>();
    if (visiting.has(module)) return result;
    visiting.add(module);
    const providers = this.scan.own.get(module) ?? new Map<InjectionToken, Pending>();
    for (const written of module.options.exports ?? []) {
      const entry = unwrap(written);
      if (isModuleImport(entry)) {
        const target = module.imports.find((m) => m === this.scan.modules.get(entry));
        if (target === undefined) {
          throw new StartupError({
            message: `${module.path} exports the module ${moduleName(entry)} without importing it.`,
          });
        }
        for (const [token, pending] of this.exportsOf(target, visiting)) result.set(token, pending);
        continue;
      }
      // NestJS also takes the provider object itself (`exports: [configProvider]`).
      const token =
        typeof entry === "object" && entry !== null && isProviderRecord(entry as ProviderLike)
          ? providerToken(entry as Provider<unknown>)
          : (entry as InjectionToken);
      const provided = providers.get(token) ?? this.importedExport(module, token, visiting);
      if (provided === undefined) {
        throw new StartupError({
          message: `${module.path} exports ${tokenName(token)}, which it neither provides nor imports from an exporting module.`,
          reason: "UnknownExport",
        });
      }
      result.set(token, provided);
    }
    visiting.delete(module);
    this.exportsCache.set(module, result);
    return result;
  }

  /** The providers `module` sees, by token. */
  visibleIn(module: ModuleNode): Map<InjectionToken, Pending> {
    const cached = this.visibleCache.get(module);
    if (cached !== undefined) return cached;
    const visible = new Map<InjectionToken, Pending>();
    for (const [t, p] of this.scan.own.get(this.core) ?? []) visible.set(t, p);
    for (const global of this.globals)
      for (const [t, p] of this.exportsOf(global)) visible.set(t, p);
    for (const imported of module.imports)
      for (const [t, p] of this.exportsOf(imported)) visible.set(t, p);
    for (const [t, p] of this.scan.own.get(module) ?? []) visible.set(t, p);
    this.visibleCache.set(module, visible);
    return visible;
  }

  /** Makes `pending` (a testing module's mock) a provider every module sees. */
  provideEverywhere(pending: Pending): void {
    this.scan.own.get(this.core)?.set(pending.token, pending);
    this.visibleCache.clear();
  }

  /** The modules declaring a provider of `token` themselves, for an error's hint. */
  declaring(token: InjectionToken): ReadonlyArray<ModuleNode> {
    return [...this.scan.own].filter(([, providers]) => providers.has(token)).map(([m]) => m);
  }

  private importedExport(
    module: ModuleNode,
    token: InjectionToken,
    visiting: Set<ModuleNode>,
  ): Pending | undefined {
    for (const imported of module.imports) {
      const found = this.exportsOf(imported, visiting).get(token);
      if (found !== undefined) return found;
    }
    return undefined;
  }
}
