import { ApplicationConfig } from "./ApplicationConfig.js";
import { DiscoveryService } from "./DiscoveryService.js";
import { type ForwardReference, isForwardReference } from "./forwardRef.js";
import type { InjectedProperty, InjectTarget } from "./Inject.js";
import type { InjectableMetadata } from "./Injectable.js";
import { LazyModuleLoader } from "./LazyModuleLoader.js";
import { MetadataScanner } from "./MetadataScanner.js";
import type { DynamicModule, ModuleImport, ModuleOptions } from "./Module.js";
import { ModuleRef } from "./ModuleRef.js";
import { MetadataKey, readMetadata } from "./metadata.js";
import {
  isProviderRecord,
  type OptionalFactoryDependency,
  type Provider,
  type ProviderLike,
  providerToken,
} from "./Provider.js";
import { Reflector } from "./Reflector.js";
import { Scope } from "./Scope.js";
import { StartupError } from "./StartupError.js";
import { type InjectionToken, type Type, tokenName } from "./Token.js";
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, REQUEST } from "./tokens.js";
import { unsupportedToken } from "./Unsupported.js";

/**
 * How a node's instance is obtained: built by `create` (`provider`), the instance of its only
 * dependency (`alias`, from `useExisting`), the current request (`request`, the `REQUEST`
 * token), the app's {@link ModuleRef} (`moduleRef`), {@link DiscoveryService} (`discovery`) or
 * {@link LazyModuleLoader} (`lazyModuleLoader`), or, in a lazily loaded module's graph, the
 * app's own instance of a provider it shares (`inherited`).
 */
export type ProviderKind =
  | "provider"
  | "alias"
  | "request"
  | "moduleRef"
  | "discovery"
  | "lazyModuleLoader"
  | "inherited";

/** One provider (or controller) of one module, with its dependencies resolved. */
export interface ProviderNode {
  readonly id: number;
  readonly token: InjectionToken;
  readonly name: string;
  readonly module: ModuleNode;
  readonly kind: ProviderKind;
  /** Builds the instance from the dependencies' instances (may return a Promise or an Effect). */
  readonly create: (args: ReadonlyArray<unknown>) => unknown;
  /** `true` when `create` returns the instance itself (a class or a value), never a Promise or an Effect. */
  readonly synchronous: boolean;
  /** In parameter order; `undefined` where an optional dependency has no provider. */
  readonly dependencies: ReadonlyArray<ProviderNode | undefined>;
  /** The effective scope: `request` when it or anything it depends on is request-scoped. */
  readonly scope: Scope;
  /**
   * Set when a provider built before it receives it through `forwardRef` (a dependency cycle):
   * an empty object of its class, handed out first and filled in when it is constructed.
   */
  readonly placeholder?: () => object;
  /** The class it builds (the class, or a `useFactory`'s factory), for {@link DiscoveryService}. */
  readonly metatype?: Function;
  /** An `inherited` node: the provider of the app whose instance it is. */
  readonly inherited?: ProviderNode;
}

/** A module of the graph: what it provides, exports and imports. */
export interface ModuleNode {
  readonly name: string;
  readonly path: string;
  readonly options: ModuleOptions;
  readonly global: boolean;
  readonly imports: Array<ModuleNode>;
  /** The module's class (a dynamic module's `module`). */
  readonly cls: Function;
}

/**
 * The guards, interceptors, pipes and filters that modules register for every route with the
 * `APP_GUARD`, `APP_INTERCEPTOR`, `APP_PIPE` and `APP_FILTER` tokens, in module order.
 */
export interface GlobalEnhancerNodes {
  readonly guards: ReadonlyArray<ProviderNode>;
  readonly interceptors: ReadonlyArray<ProviderNode>;
  readonly pipes: ReadonlyArray<ProviderNode>;
  readonly filters: ReadonlyArray<ProviderNode>;
}

/** The compiled graph: every provider in dependency order, and the controllers. */
export interface ModuleGraph {
  readonly root: ModuleNode;
  /** Providers in dependency order: each after everything it depends on (but `forwardRef`s). */
  readonly providers: ReadonlyArray<ProviderNode>;
  readonly controllers: ReadonlyArray<ProviderNode>;
  /** The providers visible in the root module (its own and those its imports export). */
  readonly rootVisible: ReadonlyMap<InjectionToken, ProviderNode>;
  readonly globalEnhancers: GlobalEnhancerNodes;
  /**
   * Compiles a module the app did not import ({@link LazyModuleLoader}): the app's global
   * providers are visible in it, the modules the app has are shared (as `inherited` nodes), and
   * the same overrides apply.
   */
  readonly compileLazy: (module: ModuleImport) => ModuleGraph;
}

/** What a lazily loaded module's graph takes of the graph that loads it. */
interface ParentGraph {
  /** The providers every module sees: the framework's and the global modules' exports. */
  readonly globalVisible: () => ReadonlyMap<InjectionToken, ProviderNode>;
  /** What an already compiled module (by its import entry) exports, `undefined` when none is. */
  readonly exportsOf: (entry: unknown) => ReadonlyMap<InjectionToken, ProviderNode> | undefined;
}

/** One dependency of a provider, as declared. */
interface Dependency {
  readonly token: InjectionToken;
  readonly optional: boolean;
  /** Declared through `forwardRef`: may close a dependency cycle. */
  readonly forward: boolean;
  /** Where it is declared, for errors: `parameter #1` or `property logger`. */
  readonly where: string;
}

interface Pending {
  readonly token: InjectionToken;
  readonly name: string;
  readonly module: ModuleNode;
  readonly kind: ProviderKind;
  readonly create: (args: ReadonlyArray<unknown>) => unknown;
  readonly synchronous: boolean;
  readonly dependencies: (() => ReadonlyArray<Dependency>) | ReadonlyArray<Dependency>;
  readonly declaredScope: Scope;
  /** The prototype of a class provider, for a `forwardRef` placeholder. */
  readonly prototype?: object;
  readonly metatype?: Function;
  readonly inherited?: ProviderNode;
}

type EnhancerKind = keyof GlobalEnhancerNodes;

const ENHANCER_TOKENS: ReadonlyMap<unknown, EnhancerKind> = new Map<unknown, EnhancerKind>([
  [APP_GUARD, "guards"],
  [APP_INTERCEPTOR, "interceptors"],
  [APP_PIPE, "pipes"],
  [APP_FILTER, "filters"],
]);

const isDynamicModule = (entry: unknown): entry is DynamicModule =>
  typeof entry === "object" && entry !== null && "module" in entry;

const moduleMetadata = (cls: Type<unknown>): ModuleOptions | undefined =>
  readMetadata<ModuleOptions>(MetadataKey.module, cls);

const isModuleImport = (entry: unknown): entry is ModuleImport =>
  isDynamicModule(entry) ||
  (typeof entry === "function" && moduleMetadata(entry as Type<unknown>) !== undefined);

/** An `imports`/`exports` entry with its `forwardRef` resolved. */
const unwrap = <T>(entry: T | ForwardReference<T>): T =>
  isForwardReference(entry) ? (entry.forwardRef() as T) : (entry as T);

const scopeOf = (cls: Function): Scope =>
  readMetadata<InjectableMetadata>(MetadataKey.injectable, cls)?.scope ?? Scope.SINGLETON;

const BUILTIN_TYPES: ReadonlyArray<unknown> = [Object, Array, Function, String, Number, Boolean];

/** A declared token, with its `forwardRef` resolved at startup. */
const resolveTarget = (
  target: InjectTarget,
  where: () => string,
): { readonly token: InjectionToken; readonly forward: boolean } => {
  if (!isForwardReference(target)) return { token: target, forward: false };
  const token = target.forwardRef();
  if (token === undefined || token === null) {
    throw new StartupError({
      message: `Cannot inject ${where()}: its forwardRef(() => ...) returns ${String(token)} (the class is not defined when the app starts).`,
    });
  }
  return { token, forward: true };
};

/**
 * The dependencies of a class: its constructor parameters (`@Inject` tokens, else emitted
 * parameter types; `@Optional()` ones may be missing), then its `@Inject()` properties. Throws a
 * {@link StartupError} naming the parameter when a type is missing or not injectable.
 */
const classDependencies = (cls: Type<unknown>, context: string): ReadonlyArray<Dependency> => {
  const types = readMetadata<ReadonlyArray<unknown>>(MetadataKey.paramTypes, cls);
  const injected =
    readMetadata<ReadonlyMap<number, InjectTarget>>(MetadataKey.inject, cls) ?? new Map();
  const optional = new Set(readMetadata<ReadonlyArray<number>>(MetadataKey.optional, cls) ?? []);
  // NestJS's rule: a class no decorator touched (so the compiler emitted no types for it) is
  // built with its `@Inject` parameters only, the others `undefined`. A decorated class without
  // types was compiled without `emitDecoratorMetadata` (esbuild): that fails below, naming it.
  const undecorated = types === undefined && Reflect.getOwnMetadataKeys(cls).length === 0;
  const count = Math.max(
    undecorated ? 0 : (types?.length ?? 0),
    undecorated ? 0 : cls.length,
    ...Array.from(injected.keys(), (i) => i + 1),
  );
  const dependencies: Array<Dependency> = [];
  for (let index = 0; index < count; index++) {
    const where = `parameter #${index} of ${cls.name} (${context})`;
    const explicit = injected.get(index);
    if (explicit !== undefined) {
      const { token, forward } = resolveTarget(explicit, () => where);
      dependencies.push({
        token,
        forward,
        optional: optional.has(index),
        where: `parameter #${index}`,
      });
      continue;
    }
    if (types === undefined) {
      throw new StartupError({
        message: `Cannot inject ${where}: ${cls.name} has no type metadata ("design:paramtypes"). esbuild (the default transform of vitest, Vite and tsx) never emits it: compile with tsc or swc and "emitDecoratorMetadata" (under vitest, the unplugin-swc plugin: see "Decorator metadata under vitest" in docs/testing.md), decorate the class (@Injectable() or @Controller()), import "reflect-metadata" once, or mark the parameter with @Inject(token).`,
      });
    }
    const type = types[index];
    if (type === undefined) {
      throw new StartupError({
        message: `Cannot inject ${where}: its type is undefined at run time (a circular import between files?). Mark it with @Inject(forwardRef(() => TheClass)), or @Inject(token).`,
      });
    }
    if (BUILTIN_TYPES.includes(type)) {
      throw new StartupError({
        message: `Cannot inject ${where}: its type is ${(type as Function).name} (an interface, a union, a primitive or a type-only import). Mark it with @Inject(token).`,
      });
    }
    dependencies.push({
      token: type as InjectionToken,
      forward: false,
      optional: optional.has(index),
      where: `parameter #${index}`,
    });
  }
  const optionalProperties = new Set(
    readMetadata<ReadonlyArray<string | symbol>>(MetadataKey.optionalProperties, cls) ?? [],
  );
  for (const property of injectedProperties(cls)) {
    const where = `property ${String(property.key)} of ${cls.name} (${context})`;
    if (property.token === undefined || BUILTIN_TYPES.includes(property.token)) {
      throw new StartupError({
        message: `Cannot inject ${where}: it has no token (no emitted type, or an interface, a union or a primitive). Write @Inject(token).`,
      });
    }
    const { token, forward } = resolveTarget(property.token, () => where);
    dependencies.push({
      token,
      forward,
      optional: optionalProperties.has(property.key),
      where: `property ${String(property.key)}`,
    });
  }
  return dependencies;
};

const injectedProperties = (cls: Function): ReadonlyArray<InjectedProperty> =>
  readMetadata<ReadonlyArray<InjectedProperty>>(MetadataKey.injectProperties, cls) ?? [];

const moduleName = (entry: ModuleImport): string =>
  isDynamicModule(entry) ? entry.module.name : entry.name;

/** What every app provides without a module: {@link Reflector} and the current request. */
class StrataCore {}

/**
 * What a testing module replaces besides providers: modules (each import of a key module, a
 * class or a dynamic module object, compiles its value instead) and, through `mocker`, any
 * dependency no module provides (its return value is the instance; `undefined`: not mocked).
 */
export interface TestingReplacements {
  readonly modules?: ReadonlyMap<unknown, ModuleImport>;
  readonly mocker?: (token: InjectionToken) => unknown;
}

/**
 * Compiles a root module into its provider graph, once, at startup. Every dependency is
 * resolved here, so a missing provider, missing metadata, a cycle or a module boundary crossed
 * fails the start with a {@link StartupError} instead of an `undefined` at run time.
 * `overrides` replace the providers of their tokens wherever a module declares them.
 */
export const compileModuleGraph = (
  root: ModuleImport,
  overrides: ReadonlyMap<unknown, Provider<unknown>> = new Map(),
  testing: TestingReplacements = {},
  parent?: ParentGraph,
): ModuleGraph => {
  const overriding = new Map<unknown, Provider<unknown>>();
  for (const provider of overrides.values()) overriding.set(providerToken(provider), provider);
  const modules = new Map<unknown, ModuleNode>();
  const own = new Map<ModuleNode, Map<InjectionToken, Pending>>();
  const controllers: Array<Pending> = [];
  const enhancers: Record<EnhancerKind, Array<Pending>> = {
    guards: [],
    interceptors: [],
    pipes: [],
    filters: [],
  };

  const register = (node: ModuleNode, entries: ReadonlyArray<ProviderLike>) => {
    const providers = new Map<InjectionToken, Pending>();
    own.set(node, providers);
    for (const entry of entries) {
      const token = isProviderRecord(entry) ? providerToken(entry) : entry;
      const kind = ENHANCER_TOKENS.get(token);
      if (kind !== undefined && isProviderRecord(entry)) {
        if ("useValue" in entry && (entry.useValue === undefined || entry.useValue === null)) {
          throw new StartupError({
            message: `${String(token)} in ${node.path} has useValue ${String(entry.useValue)} (a circular import between files?): give the instance, or useClass.`,
          });
        }
        // Each APP_* provider is its own provider, under a token no one else can ask for.
        const pending = pendingProvider(entry, node);
        const label = `${String(token)} (${enhancerName(entry)})`;
        const unique: Pending = { ...pending, token: Symbol(label), name: label };
        providers.set(unique.token, unique);
        enhancers[kind].push(unique);
        continue;
      }
      const pending = pendingProvider(overriding.get(token) ?? entry, node);
      providers.set(pending.token, pending);
    }
  };

  const ownProviders = (node: ModuleNode) => own.get(node) as Map<InjectionToken, Pending>;

  const collect = (written: ModuleImport, parentPath: string): ModuleNode => {
    const entry = testing.modules?.get(written) ?? written;
    const existing = modules.get(entry);
    if (existing !== undefined) return existing;
    const cls = isDynamicModule(entry) ? entry.module : entry;
    const shared = parent?.exportsOf(entry);
    if (shared !== undefined) return sharedModule(entry, cls, shared, parentPath);
    const staticOptions = moduleMetadata(cls);
    if (staticOptions === undefined && !isDynamicModule(entry)) {
      throw new StartupError({
        message: `${cls.name ?? String(cls)} is imported as a module${parentPath ? ` by ${parentPath}` : ""} but has no @Module() decorator.`,
      });
    }
    const dynamic: ModuleOptions = isDynamicModule(entry) ? entry : {};
    const options: ModuleOptions = {
      imports: [...(staticOptions?.imports ?? []), ...(dynamic.imports ?? [])],
      controllers: [...(staticOptions?.controllers ?? []), ...(dynamic.controllers ?? [])],
      providers: [...(staticOptions?.providers ?? []), ...(dynamic.providers ?? [])],
      exports: [...(staticOptions?.exports ?? []), ...(dynamic.exports ?? [])],
    };
    const name = moduleName(entry);
    const path = parentPath ? `${parentPath} > ${name}` : name;
    const node: ModuleNode = {
      cls,
      name,
      path,
      options,
      global:
        (isDynamicModule(entry) && entry.global === true) ||
        readMetadata<boolean>(MetadataKey.global, cls) === true,
      imports: [],
    };
    modules.set(entry, node);
    register(node, options.providers ?? []);
    // As NestJS, the module class is a provider of its own module (its constructor injected):
    // `moduleRef.get(TheModule)`, and the instance its hooks and `configure` are called on.
    const provided = ownProviders(node);
    if (!provided.has(cls)) provided.set(cls, classProvider(cls, cls, node, Scope.SINGLETON));
    for (const controller of options.controllers ?? []) {
      if (readMetadata(MetadataKey.controller, controller) === undefined) {
        throw new StartupError({
          message: `${controller.name} is listed in the controllers of ${path} but has no @Controller() decorator.`,
        });
      }
      const pending = classProvider(controller, controller, node, scopeOf(controller));
      controllers.push(pending);
    }
    (options.imports ?? []).forEach((written, index) => {
      const imported = unwrap(written);
      if (imported === undefined || imported === null) {
        throw new StartupError({
          message: `${path} imports undefined (imports[${index}]${isForwardReference(written) ? ", from its forwardRef" : ""}): two module files importing each other? Write imports: [forwardRef(() => TheModule)].`,
        });
      }
      node.imports.push(collect(imported, path));
    });
    return node;
  };

  /** A module the loading app has: its exports, the app's instances. */
  const sharedModule = (
    entry: ModuleImport,
    cls: Function,
    exported: ReadonlyMap<InjectionToken, ProviderNode>,
    parentPath: string,
  ): ModuleNode => {
    const name = moduleName(entry);
    const node: ModuleNode = {
      cls,
      name,
      path: parentPath ? `${parentPath} > ${name}` : name,
      options: { exports: [...exported.keys()] },
      global: false,
      imports: [],
    };
    modules.set(entry, node);
    own.set(node, new Map([...exported].map(([t, n]) => [t, inheritedProvider(n, node)])));
    return node;
  };

  const rootNode = collect(root, "");
  const core: ModuleNode = {
    cls: StrataCore,
    name: "Strata",
    path: "Strata",
    options: {},
    global: true,
    imports: [],
  };
  modules.set(StrataCore, core);
  if (parent === undefined) register(core, [Reflector, ApplicationConfig, MetadataScanner]);
  else {
    // A lazily loaded module sees what every module of the app sees, as the app's instances.
    own.set(core, new Map());
    for (const [token, node] of parent.globalVisible())
      own.get(core)?.set(token, inheritedProvider(node, core));
  }
  // The framework's own tokens, provided by the injector itself.
  for (const [token, name, kind, declaredScope] of [
    [REQUEST, "REQUEST", "request", Scope.REQUEST],
    [ModuleRef, "ModuleRef", "moduleRef", Scope.SINGLETON],
    [DiscoveryService, "DiscoveryService", "discovery", Scope.SINGLETON],
    [LazyModuleLoader, "LazyModuleLoader", "lazyModuleLoader", Scope.SINGLETON],
  ] as const) {
    if (parent !== undefined && kind !== "moduleRef" && kind !== "lazyModuleLoader") continue;
    own.get(core)?.set(token, {
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

  // What each module exports: its own providers it lists, and re-exports of imported modules.
  const exportsCache = new Map<ModuleNode, Map<InjectionToken, Pending>>();
  const exportsOf = (
    module: ModuleNode,
    visiting: Set<ModuleNode>,
  ): Map<InjectionToken, Pending> => {
    const cached = exportsCache.get(module);
    if (cached !== undefined) return cached;
    const result = new Map<InjectionToken, Pending>();
    if (visiting.has(module)) return result;
    visiting.add(module);
    const providers = own.get(module) ?? new Map();
    for (const written of module.options.exports ?? []) {
      const entry = unwrap(written);
      if (isModuleImport(entry)) {
        const target = module.imports.find((m) => m === modules.get(entry));
        if (target === undefined) {
          throw new StartupError({
            message: `${module.path} exports the module ${moduleName(entry)} without importing it.`,
          });
        }
        for (const [token, pending] of exportsOf(target, visiting)) result.set(token, pending);
        continue;
      }
      // NestJS also takes the provider object itself (`exports: [configProvider]`).
      const token =
        typeof entry === "object" && entry !== null && isProviderRecord(entry as ProviderLike)
          ? providerToken(entry as Provider<unknown>)
          : (entry as InjectionToken);
      const provided = providers.get(token) ?? importedExport(module, token, visiting);
      if (provided === undefined) {
        throw new StartupError({
          message: `${module.path} exports ${tokenName(token)}, which it neither provides nor imports from an exporting module.`,
          reason: "UnknownExport",
        });
      }
      result.set(token, provided);
    }
    visiting.delete(module);
    exportsCache.set(module, result);
    return result;
  };
  const importedExport = (module: ModuleNode, token: InjectionToken, visiting: Set<ModuleNode>) => {
    for (const imported of module.imports) {
      const found = exportsOf(imported, visiting).get(token);
      if (found !== undefined) return found;
    }
    return undefined;
  };

  const globals = [...modules.values()].filter((m) => m.global);
  const visibleCache = new Map<ModuleNode, Map<InjectionToken, Pending>>();
  const visibleIn = (module: ModuleNode): Map<InjectionToken, Pending> => {
    const cached = visibleCache.get(module);
    if (cached !== undefined) return cached;
    const visible = new Map<InjectionToken, Pending>();
    for (const [t, p] of own.get(core) ?? []) visible.set(t, p);
    for (const global of globals)
      for (const [t, p] of exportsOf(global, new Set())) visible.set(t, p);
    for (const imported of module.imports)
      for (const [t, p] of exportsOf(imported, new Set())) visible.set(t, p);
    for (const [t, p] of own.get(module) ?? []) visible.set(t, p);
    visibleCache.set(module, visible);
    return visible;
  };

  /** A testing module's `useMocker`: a dependency no module provides, as a global value. */
  const mocked = (dependency: Dependency): Pending | undefined => {
    if (testing.mocker === undefined || dependency.optional) return undefined;
    const value = testing.mocker(dependency.token);
    if (value === undefined) return undefined;
    const pending = pendingProvider({ provide: dependency.token, useValue: value }, core);
    own.get(core)?.set(dependency.token, pending);
    visibleCache.clear();
    return pending;
  };

  const providerOf = (token: InjectionToken): ReadonlyArray<ModuleNode> =>
    [...own].filter(([, providers]) => providers.has(token)).map(([module]) => module);

  // Resolve dependencies depth-first: detects cycles and yields a dependency order. A cycle is
  // allowed when one of its edges is a `forwardRef`: the provider it reaches back to is handed
  // out as a placeholder first (see `ProviderNode.placeholder`).
  const nodes = new Map<Pending, ProviderNode>();
  const order: Array<ProviderNode> = [];
  const resolving: Array<Pending> = [];
  /** `forwardIn[i]`: the edge into `resolving[i]` was declared with `forwardRef`. */
  const forwardIn: Array<boolean> = [];
  const forwardTargets = new Map<Pending, string>();
  const patches: Array<{
    readonly slots: Array<ProviderNode | undefined>;
    readonly index: number;
    readonly target: Pending;
  }> = [];
  let nextId = 0;
  const resolve = (pending: Pending, forward: boolean): ProviderNode => {
    const done = nodes.get(pending);
    if (done !== undefined) return done;
    resolving.push(pending);
    forwardIn.push(forward);
    const declared =
      typeof pending.dependencies === "function" ? pending.dependencies() : pending.dependencies;
    const visible = visibleIn(pending.module);
    const dependencies: Array<ProviderNode | undefined> = [];
    declared.forEach((dependency, index) => {
      const found = visible.get(dependency.token) ?? mocked(dependency);
      if (found === undefined) {
        if (dependency.optional) {
          dependencies.push(undefined);
          return;
        }
        const notSupported = unsupportedToken(dependency.token);
        if (notSupported !== undefined) {
          throw new StartupError({
            message: `Cannot resolve ${dependency.where} of ${pending.name} in ${pending.module.path}: ${notSupported}`,
            reason: "UnknownDependencies",
          });
        }
        const elsewhere = providerOf(dependency.token).filter((m) => m !== pending.module);
        const hint =
          elsewhere.length > 0
            ? ` It is provided in ${elsewhere.map((m) => m.path).join(", ")}: export it there and import that module into ${pending.module.name}.`
            : ` Add it to the providers of ${pending.module.name}, export it from a module ${pending.module.name} imports, or mark it @Optional().`;
        throw new StartupError({
          message: `Cannot resolve ${dependency.where} (${tokenName(dependency.token)}) of ${pending.name} in ${pending.module.path}: no provider of ${tokenName(dependency.token)} is visible there.${hint} Path: ${resolving.map((p) => p.name).join(" -> ")}.`,
          reason: "UnknownDependencies",
        });
      }
      if (found === pending) {
        throw new StartupError({
          message: `${pending.name} in ${pending.module.path} injects itself (${dependency.where}): a provider cannot be its own dependency. Inject what it needs instead.`,
          reason: "UnknownDependencies",
        });
      }
      const cycleStart = resolving.indexOf(found);
      if (cycleStart === -1) {
        dependencies.push(resolve(found, dependency.forward));
        return;
      }
      const cycle = [...resolving.slice(cycleStart), found].map((p) => p.name).join(" -> ");
      const throughForwardRef =
        dependency.forward || forwardIn.slice(cycleStart + 1).some((f) => f);
      if (!throughForwardRef) {
        // NestJS's message, word for word (ports assert it); the cycle itself is in `path`.
        throw new StartupError({
          message: `A circular dependency has been detected inside "${rawName(found.token)}". Please, make sure that each side of a bidirectional relationships are decorated with "forwardRef()". Note that circular relationships between custom providers (e.g., factories) are not supported since functions cannot be called more than once.`,
          reason: "CircularDependency",
          path: `Dependency cycle: ${cycle} (in ${pending.module.path})`,
        });
      }
      forwardTargets.set(found, cycle);
      dependencies.push(undefined);
      patches.push({ slots: dependencies, index, target: found });
    });
    resolving.pop();
    forwardIn.pop();
    const present = dependencies.filter((d): d is ProviderNode => d !== undefined);
    const scope =
      pending.kind === "alias" && present.length === 1
        ? present[0].scope
        : pending.declaredScope === Scope.REQUEST || present.some((d) => d.scope === Scope.REQUEST)
          ? Scope.REQUEST
          : pending.declaredScope;
    const cycle = forwardTargets.get(pending);
    const prototype = pending.prototype;
    if (cycle !== undefined && (prototype === undefined || scope !== Scope.SINGLETON)) {
      throw new StartupError({
        reason: "CircularDependency",
        message: `Dependency cycle through forwardRef: ${cycle} (in ${pending.module.path}). ${pending.name} is reached again before it is built, which works only when it is a singleton class provider; it is ${prototype === undefined ? "a factory, a value or an alias" : `${scope}-scoped`}. Break the cycle (move the shared part to a third provider).`,
      });
    }
    const node: ProviderNode = {
      id: nextId++,
      token: pending.token,
      name: pending.name,
      module: pending.module,
      kind: pending.kind,
      create: pending.create,
      synchronous: pending.synchronous,
      dependencies,
      scope,
      ...(pending.metatype === undefined ? {} : { metatype: pending.metatype }),
      ...(pending.inherited === undefined ? {} : { inherited: pending.inherited }),
      ...(cycle !== undefined && prototype !== undefined
        ? { placeholder: () => Object.create(prototype) as object }
        : {}),
    };
    nodes.set(pending, node);
    order.push(node);
    return node;
  };

  // Controllers first, so an error's path reads from the controller down to what is missing.
  const controllerNodes = controllers.map((pending) => resolve(pending, false));
  for (const providers of own.values())
    for (const pending of providers.values()) resolve(pending, false);
  for (const { slots, index, target } of patches) slots[index] = nodes.get(target);
  const rootVisible = new Map<InjectionToken, ProviderNode>();
  for (const [token, pending] of visibleIn(rootNode))
    rootVisible.set(token, resolve(pending, false));
  const resolved = (list: ReadonlyArray<Pending>) =>
    list.map((pending) => nodes.get(pending) as ProviderNode);
  const asNodes = (pendings: Map<InjectionToken, Pending>) =>
    new Map([...pendings].map(([t, p]) => [t, resolve(p, false)]));
  const loader: ParentGraph = {
    globalVisible: () => {
      const visible = asNodes(own.get(core) ?? new Map());
      for (const global of globals)
        for (const [t, n] of asNodes(exportsOf(global, new Set()))) visible.set(t, n);
      return visible;
    },
    exportsOf: (entry) => {
      const module = modules.get(testing.modules?.get(entry as ModuleImport) ?? entry);
      if (module === undefined || module === core) return parent?.exportsOf(entry);
      return asNodes(exportsOf(module, new Set()));
    },
  };
  return {
    compileLazy: (module) => compileModuleGraph(module, overrides, testing, loader),
    root: rootNode,
    providers: order,
    controllers: controllerNodes,
    rootVisible,
    globalEnhancers: {
      guards: resolved(enhancers.guards),
      interceptors: resolved(enhancers.interceptors),
      pipes: resolved(enhancers.pipes),
      filters: resolved(enhancers.filters),
    },
  };
};

/** A token as NestJS names it in its messages: a class's name, a string as is. */
const rawName = (token: InjectionToken): string =>
  typeof token === "string" ? token : tokenName(token);

/** A provider of the app, shared by a lazily loaded module's graph: its instance is the app's. */
const inheritedProvider = (node: ProviderNode, module: ModuleNode): Pending => ({
  token: node.token,
  name: node.name,
  module,
  kind: "inherited",
  create: () => undefined,
  synchronous: true,
  dependencies: [],
  declaredScope: node.scope,
  inherited: node,
});

const enhancerName = (provider: Provider<unknown>): string =>
  provider.useClass?.name ??
  (provider.useExisting !== undefined
    ? tokenName(provider.useExisting)
    : "useValue" in provider
      ? (((provider.useValue ?? {}) as object).constructor?.name ?? "value")
      : "factory");

/** Constructs `cls` from its dependencies' instances: constructor arguments, then `@Inject()` properties. */
const classCreate = (cls: Type<unknown>): ((args: ReadonlyArray<unknown>) => unknown) => {
  const Ctor = cls as unknown as new (...args: ReadonlyArray<unknown>) => unknown;
  const properties = injectedProperties(cls);
  if (properties.length === 0) return (args) => new Ctor(...args);
  return (args) => {
    const count = args.length - properties.length;
    const instance = new Ctor(...args.slice(0, count)) as Record<string | symbol, unknown>;
    properties.forEach((property, i) => {
      instance[property.key] = args[count + i];
    });
    return instance;
  };
};

/**
 * How to build a class that is not a provider (a guard or a pipe given as a class): the tokens
 * it depends on, in order (`optional` ones may be missing), and its constructor taking their
 * instances (constructor arguments, then `@Inject()` properties).
 */
export const classRecipe = (
  cls: Type<unknown>,
  context: string,
): {
  readonly dependencies: ReadonlyArray<{
    readonly token: InjectionToken;
    readonly optional: boolean;
  }>;
  readonly create: (args: ReadonlyArray<unknown>) => unknown;
} => ({ dependencies: classDependencies(cls, context), create: classCreate(cls) });

const classProvider = (
  token: InjectionToken,
  cls: Type<unknown>,
  module: ModuleNode,
  scope: Scope,
): Pending => ({
  token,
  name: cls.name,
  module,
  kind: "provider",
  declaredScope: scope,
  create: classCreate(cls),
  synchronous: true,
  dependencies: () => classDependencies(cls, `in ${module.path}`),
  prototype: cls.prototype as object,
  metatype: cls,
});

const factoryDependency = (
  entry: InjectionToken | OptionalFactoryDependency,
  index: number,
): Dependency => {
  const optional =
    typeof entry === "object" && entry !== null && "token" in entry && "optional" in entry;
  return {
    token: optional ? entry.token : (entry as InjectionToken),
    optional: optional && entry.optional === true,
    forward: false,
    where: `parameter #${index}`,
  };
};

const pendingProvider = (entry: ProviderLike, module: ModuleNode): Pending => {
  if (!isProviderRecord(entry)) {
    if (typeof entry !== "function") {
      throw new StartupError({
        message: `${module.path} lists ${String(entry)} as a provider: expected a class or { provide, useClass | useValue | useFactory | useExisting }.`,
      });
    }
    return classProvider(entry, entry, module, scopeOf(entry));
  }
  const provider = entry as Provider<unknown>;
  const token = providerToken(provider);
  if (token === undefined || token === null) {
    throw new StartupError({
      message: `${module.path} lists a provider whose token is ${String(token)} (a circular import between files?).`,
    });
  }
  const name = tokenName(token);
  const kinds = [
    provider.useClass,
    provider.useFactory,
    provider.useExisting,
    "useValue" in provider ? true : undefined,
  ].filter((k) => k !== undefined);
  if (kinds.length !== 1) {
    throw new StartupError({
      message: `Provider ${name} in ${module.path} must have exactly one of useClass, useValue, useFactory, useExisting.`,
    });
  }
  if (provider.useClass !== undefined) {
    const pending = classProvider(
      token,
      provider.useClass,
      module,
      provider.scope ?? scopeOf(provider.useClass),
    );
    return { ...pending, name };
  }
  if (provider.useFactory !== undefined) {
    const factory = provider.useFactory as (...args: ReadonlyArray<unknown>) => unknown;
    return {
      token,
      name,
      module,
      kind: "provider",
      declaredScope: provider.scope ?? Scope.SINGLETON,
      create: (args) => factory(...args),
      synchronous: false,
      metatype: factory,
      dependencies: (provider.inject ?? []).map(factoryDependency),
    };
  }
  if (provider.useExisting !== undefined) {
    const target = provider.useExisting;
    return {
      token,
      name,
      module,
      kind: "alias",
      declaredScope: Scope.SINGLETON,
      create: (args) => args[0],
      synchronous: true,
      dependencies: [{ token: target, optional: false, forward: false, where: "useExisting" }],
    };
  }
  const value = provider.useValue;
  return {
    token,
    name,
    module,
    kind: "provider",
    declaredScope: Scope.SINGLETON,
    create: () => value,
    synchronous: true,
    dependencies: [],
  };
};
