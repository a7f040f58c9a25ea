import type { InjectableMetadata } from "../decorators/Injectable.js";
import type { DynamicModule, ModuleImport, ModuleOptions } from "../decorators/Module.js";
import { MetadataKey, readMetadata } from "../decorators/metadata.js";
import { isProviderRecord, type Provider, type ProviderLike } from "./Provider.js";
import { Scope } from "./Scope.js";
import { StartupError } from "./StartupError.js";
import { type InjectionToken, type Type, tokenName } from "./Token.js";

/** One provider (or controller) of one module, with its dependencies resolved. */
export interface ProviderNode {
  readonly id: number;
  readonly token: InjectionToken;
  readonly name: string;
  readonly module: ModuleNode;
  /** Builds the instance from the dependencies' instances (may return a Promise or an Effect). */
  readonly create: (args: ReadonlyArray<unknown>) => unknown;
  /** `true` when `create` returns the instance itself (a class or a value), never a Promise or an Effect. */
  readonly synchronous: boolean;
  readonly dependencies: ReadonlyArray<ProviderNode>;
  /** The effective scope: `request` when it or anything it depends on is request-scoped. */
  readonly scope: Scope;
}

/** A module of the graph: what it provides, exports and imports. */
export interface ModuleNode {
  readonly name: string;
  readonly path: string;
  readonly options: ModuleOptions;
  readonly global: boolean;
  readonly imports: Array<ModuleNode>;
}

/** The compiled graph: every provider in dependency order, and the controllers. */
export interface ModuleGraph {
  readonly root: ModuleNode;
  /** Providers in dependency order: each after everything it depends on. */
  readonly providers: ReadonlyArray<ProviderNode>;
  readonly controllers: ReadonlyArray<ProviderNode>;
  /** The providers visible in the root module (its own and those its imports export). */
  readonly rootVisible: ReadonlyMap<InjectionToken, ProviderNode>;
}

interface Pending {
  readonly token: InjectionToken;
  readonly name: string;
  readonly module: ModuleNode;
  readonly create: (args: ReadonlyArray<unknown>) => unknown;
  readonly synchronous: boolean;
  readonly dependencyTokens: (() => ReadonlyArray<InjectionToken>) | ReadonlyArray<InjectionToken>;
  readonly declaredScope: Scope;
}

const isDynamicModule = (entry: unknown): entry is DynamicModule =>
  typeof entry === "object" && entry !== null && "module" in entry;

const moduleMetadata = (cls: Type<unknown>): ModuleOptions | undefined =>
  readMetadata<ModuleOptions>(MetadataKey.module, cls);

const isModuleImport = (entry: unknown): entry is ModuleImport =>
  isDynamicModule(entry) ||
  (typeof entry === "function" && moduleMetadata(entry as Type<unknown>) !== undefined);

const scopeOf = (cls: Function): Scope =>
  readMetadata<InjectableMetadata>(MetadataKey.injectable, cls)?.scope ?? Scope.SINGLETON;

/**
 * The tokens a class's constructor asks for: `@Inject` tokens, else emitted parameter types.
 * Throws a {@link StartupError} naming the parameter when a type is missing or not injectable.
 */
export const constructorTokens = (
  cls: Type<unknown>,
  context: string,
): ReadonlyArray<InjectionToken> => {
  const types = readMetadata<ReadonlyArray<unknown>>(MetadataKey.paramTypes, cls);
  const injected =
    readMetadata<ReadonlyMap<number, InjectionToken>>(MetadataKey.inject, cls) ?? new Map();
  const count = Math.max(
    types?.length ?? 0,
    cls.length,
    ...Array.from(injected.keys(), (i) => i + 1),
  );
  const tokens: Array<InjectionToken> = [];
  for (let index = 0; index < count; index++) {
    const explicit = injected.get(index);
    if (explicit !== undefined) {
      tokens.push(explicit);
      continue;
    }
    const where = `parameter #${index} of ${cls.name} (${context})`;
    if (types === undefined) {
      throw new StartupError({
        message: `Cannot inject ${where}: ${cls.name} has no type metadata ("design:paramtypes"). esbuild (the default transform of vitest, Vite and tsx) never emits it: compile with tsc or swc and "emitDecoratorMetadata" (under vitest, the unplugin-swc plugin: see the README's Testing section), decorate the class (@Injectable() or @Controller()), import "reflect-metadata" once, or mark the parameter with @Inject(token).`,
      });
    }
    const type = types[index];
    if (type === undefined) {
      throw new StartupError({
        message: `Cannot inject ${where}: its type is undefined at run time (a circular import?). Mark it with @Inject(token).`,
      });
    }
    if (
      type === Object ||
      type === Array ||
      type === Function ||
      type === String ||
      type === Number ||
      type === Boolean
    ) {
      throw new StartupError({
        message: `Cannot inject ${where}: its type is ${(type as Function).name} (an interface, a union, a primitive or a type-only import). Mark it with @Inject(token).`,
      });
    }
    tokens.push(type as InjectionToken);
  }
  return tokens;
};

const moduleName = (entry: ModuleImport): string =>
  isDynamicModule(entry) ? entry.module.name : entry.name;

/**
 * Compiles a root module into its provider graph, once, at startup. Every dependency is
 * resolved here, so a missing provider, missing metadata, a cycle or a module boundary crossed
 * fails the start with a {@link StartupError} instead of an `undefined` at run time.
 */
export const compileModuleGraph = (
  root: ModuleImport,
  overrides: ReadonlyMap<InjectionToken, Provider<unknown>> = new Map(),
): ModuleGraph => {
  const modules = new Map<unknown, ModuleNode>();
  const own = new Map<ModuleNode, Map<InjectionToken, Pending>>();
  const controllers: Array<Pending> = [];

  const collect = (entry: ModuleImport, parentPath: string): ModuleNode => {
    const existing = modules.get(entry);
    if (existing !== undefined) return existing;
    const cls = isDynamicModule(entry) ? entry.module : entry;
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
      name,
      path,
      options,
      global: isDynamicModule(entry) && entry.global === true,
      imports: [],
    };
    modules.set(entry, node);
    const providers = new Map<InjectionToken, Pending>();
    own.set(node, providers);
    for (const entry of options.providers ?? []) {
      const token = isProviderRecord(entry) ? entry.token : entry;
      const pending = pendingProvider(overrides.get(token) ?? entry, node);
      providers.set(pending.token, pending);
    }
    for (const controller of options.controllers ?? []) {
      if (readMetadata(MetadataKey.controller, controller) === undefined) {
        throw new StartupError({
          message: `${controller.name} is listed in the controllers of ${path} but has no @Controller() decorator.`,
        });
      }
      const pending = classProvider(controller, controller, node, scopeOf(controller));
      controllers.push(pending);
    }
    for (const imported of options.imports ?? []) {
      if (imported === undefined || imported === null) {
        throw new StartupError({
          message: `${path} imports undefined (a circular import between module files?).`,
        });
      }
      node.imports.push(collect(imported, path));
    }
    return node;
  };

  const rootNode = collect(root, "");

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
    for (const entry of module.options.exports ?? []) {
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
      const token = entry as InjectionToken;
      const provided = providers.get(token) ?? importedExport(module, token, visiting);
      if (provided === undefined) {
        throw new StartupError({
          message: `${module.path} exports ${tokenName(token)}, which it neither provides nor imports from an exporting module.`,
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
    for (const global of globals)
      for (const [t, p] of exportsOf(global, new Set())) visible.set(t, p);
    for (const imported of module.imports)
      for (const [t, p] of exportsOf(imported, new Set())) visible.set(t, p);
    for (const [t, p] of own.get(module) ?? []) visible.set(t, p);
    visibleCache.set(module, visible);
    return visible;
  };

  const providerOf = (token: InjectionToken): ReadonlyArray<ModuleNode> =>
    [...own].filter(([, providers]) => providers.has(token)).map(([module]) => module);

  // Resolve dependencies depth-first: detects cycles and yields a dependency order.
  const nodes = new Map<Pending, ProviderNode>();
  const order: Array<ProviderNode> = [];
  const resolving: Array<Pending> = [];
  let nextId = 0;
  const resolve = (pending: Pending): ProviderNode => {
    const done = nodes.get(pending);
    if (done !== undefined) return done;
    const cycleStart = resolving.indexOf(pending);
    if (cycleStart !== -1) {
      const cycle = [...resolving.slice(cycleStart), pending].map((p) => p.name).join(" -> ");
      throw new StartupError({
        message: `Dependency cycle: ${cycle} (in ${pending.module.path}).`,
      });
    }
    resolving.push(pending);
    const tokens =
      typeof pending.dependencyTokens === "function"
        ? pending.dependencyTokens()
        : pending.dependencyTokens;
    const visible = visibleIn(pending.module);
    const dependencies = tokens.map((token, index) => {
      const found = visible.get(token);
      if (found === undefined) {
        const elsewhere = providerOf(token).filter((m) => m !== pending.module);
        const hint =
          elsewhere.length > 0
            ? ` It is provided in ${elsewhere.map((m) => m.path).join(", ")}: export it there and import that module into ${pending.module.name}.`
            : ` Add it to the providers of ${pending.module.name}, or export it from a module ${pending.module.name} imports.`;
        throw new StartupError({
          message: `Cannot resolve parameter #${index} (${tokenName(token)}) of ${pending.name} in ${pending.module.path}: no provider of ${tokenName(token)} is visible there.${hint} Path: ${[...resolving.map((p) => p.name)].join(" -> ")}.`,
        });
      }
      return resolve(found);
    });
    resolving.pop();
    const scope =
      pending.declaredScope === Scope.REQUEST || dependencies.some((d) => d.scope === Scope.REQUEST)
        ? Scope.REQUEST
        : pending.declaredScope;
    const node: ProviderNode = {
      id: nextId++,
      token: pending.token,
      name: pending.name,
      module: pending.module,
      create: pending.create,
      synchronous: pending.synchronous,
      dependencies,
      scope,
    };
    nodes.set(pending, node);
    order.push(node);
    return node;
  };

  // Controllers first, so an error's path reads from the controller down to what is missing.
  const controllerNodes = controllers.map(resolve);
  for (const providers of own.values()) for (const pending of providers.values()) resolve(pending);
  const rootVisible = new Map<InjectionToken, ProviderNode>();
  for (const [token, pending] of visibleIn(rootNode)) rootVisible.set(token, resolve(pending));
  return { root: rootNode, providers: order, controllers: controllerNodes, rootVisible };
};

const classProvider = (
  token: InjectionToken,
  cls: Type<unknown>,
  module: ModuleNode,
  scope: Scope,
): Pending => {
  const Ctor = cls as unknown as new (...args: ReadonlyArray<unknown>) => unknown;
  return {
    token,
    name: cls.name,
    module,
    declaredScope: scope,
    create: (args) => new Ctor(...args),
    synchronous: true,
    dependencyTokens: () => constructorTokens(cls, `in ${module.path}`),
  };
};

const pendingProvider = (entry: ProviderLike, module: ModuleNode): Pending => {
  if (!isProviderRecord(entry)) {
    if (typeof entry !== "function") {
      throw new StartupError({
        message: `${module.path} lists ${String(entry)} as a provider: expected a class or { token, useClass | useValue | useFactory }.`,
      });
    }
    return classProvider(entry, entry, module, scopeOf(entry));
  }
  const provider = entry as Provider<unknown>;
  const name = tokenName(provider.token);
  const kinds = [
    provider.useClass,
    provider.useFactory,
    "useValue" in provider ? true : undefined,
  ].filter((k) => k !== undefined);
  if (kinds.length !== 1) {
    throw new StartupError({
      message: `Provider ${name} in ${module.path} must have exactly one of useClass, useValue, useFactory.`,
    });
  }
  if (provider.useClass !== undefined) {
    const pending = classProvider(
      provider.token,
      provider.useClass,
      module,
      provider.scope ?? scopeOf(provider.useClass),
    );
    return { ...pending, name };
  }
  if (provider.useFactory !== undefined) {
    const factory = provider.useFactory as (...args: ReadonlyArray<unknown>) => unknown;
    return {
      token: provider.token,
      name,
      module,
      declaredScope: provider.scope ?? Scope.SINGLETON,
      create: (args) => factory(...args),
      synchronous: false,
      dependencyTokens: provider.inject ?? [],
    };
  }
  const value = provider.useValue;
  return {
    token: provider.token,
    name,
    module,
    declaredScope: Scope.SINGLETON,
    create: () => value,
    synchronous: true,
    dependencyTokens: [],
  };
};
