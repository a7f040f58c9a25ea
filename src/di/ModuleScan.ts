import { type ForwardReference, isForwardReference } from "./forwardRef.js";
import type {
  EnhancerKind,
  ModuleNode,
  ParentGraph,
  Pending,
  ProviderNode,
  TestingReplacements,
} from "./GraphNodes.js";
import type { DynamicModule, ModuleImport, ModuleOptions } from "./Module.js";
import { MetadataKey, readMetadata } from "./metadata.js";
import { isProviderRecord, type Provider, type ProviderLike, providerToken } from "./Provider.js";
import {
  classProvider,
  enhancerName,
  inheritedProvider,
  pendingProvider,
  scopeOf,
} from "./ProviderRecipe.js";
import { Scope } from "./Scope.js";
import { StartupError } from "./StartupError.js";
import type { InjectionToken, Type } from "./Token.js";
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from "./tokens.js";

// The first step of compiling a module graph: every module reached from the root, once, with
// its own providers (as recipes), controllers and `APP_*` enhancers.

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

/** `true` for a module class or a dynamic module (not a provider token). */
export const isModuleImport = (entry: unknown): entry is ModuleImport =>
  isDynamicModule(entry) ||
  (typeof entry === "function" && moduleMetadata(entry as Type<unknown>) !== undefined);

/** An `imports`/`exports` entry with its `forwardRef` resolved. */
export const unwrap = <T>(entry: T | ForwardReference<T>): T =>
  isForwardReference(entry) ? (entry.forwardRef() as T) : (entry as T);

/** How an import entry is named in paths and errors. */
export const moduleName = (entry: ModuleImport): string =>
  isDynamicModule(entry) ? entry.module.name : entry.name;

/** Every module reached from the root, and what each declares. */
export interface ModuleScan {
  /** By import entry (a class or a dynamic module object), after testing replacements. */
  readonly modules: Map<unknown, ModuleNode>;
  /** The providers each module declares itself, by token. */
  readonly own: Map<ModuleNode, Map<InjectionToken, Pending>>;
  readonly controllers: Array<Pending>;
  readonly enhancers: Record<EnhancerKind, Array<Pending>>;
  /** Provider overrides, by token. */
  readonly overriding: ReadonlyMap<unknown, Provider<unknown>>;
  readonly root: ModuleNode;
}

interface ScanState extends Omit<ModuleScan, "root"> {
  readonly testing: TestingReplacements;
  readonly parent: ParentGraph | undefined;
}

/**
 * Collects the modules reached from `root`: `overrides` replace the providers of their tokens
 * wherever a module declares them; with a `parent` (a lazily loaded module), a module the
 * parent has already compiled is shared, not compiled again.
 */
export const scanModules = (
  root: ModuleImport,
  overrides: ReadonlyMap<unknown, Provider<unknown>>,
  testing: TestingReplacements,
  parent: ParentGraph | undefined,
): ModuleScan => {
  const overriding = new Map<unknown, Provider<unknown>>();
  for (const provider of overrides.values()) overriding.set(providerToken(provider), provider);
  const state: ScanState = {
    modules: new Map(),
    own: new Map(),
    controllers: [],
    enhancers: { guards: [], interceptors: [], pipes: [], filters: [] },
    overriding,
    testing,
    parent,
  };
  const rootNode = collect(state, root, "");
  return {
    modules: state.modules,
    own: state.own,
    controllers: state.controllers,
    enhancers: state.enhancers,
    overriding,
    root: rootNode,
  };
};

/** Records the providers a module lists; `APP_*` ones are also listed as global enhancers. */
export const registerProviders = (
  state: Pick<ScanState, "own" | "enhancers" | "overriding">,
  node: ModuleNode,
  entries: ReadonlyArray<ProviderLike>,
): void => {
  const { own, enhancers, overriding } = state;
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

/** The module of an import entry, collected with its imports (once per entry). */
const collect = (state: ScanState, written: ModuleImport, parentPath: string): ModuleNode => {
  const { modules, own, controllers, testing, parent } = state;
  const entry = testing.modules?.get(written) ?? written;
  const existing = modules.get(entry);
  if (existing !== undefined) return existing;
  const cls = isDynamicModule(entry) ? entry.module : entry;
  const shared = parent?.exportsOf(entry);
  if (shared !== undefined) return sharedModule(state, entry, cls, shared, parentPath);
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
  registerProviders(state, node, options.providers ?? []);
  // As NestJS, the module class is a provider of its own module (its constructor injected):
  // `moduleRef.get(TheModule)`, and the instance its hooks and `configure` are called on.
  const provided = own.get(node) as Map<InjectionToken, Pending>;
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
    node.imports.push(collect(state, imported, path));
  });
  return node;
};

/** A module the loading app has: its exports, the app's instances. */
const sharedModule = (
  state: ScanState,
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
  state.modules.set(entry, node);
  state.own.set(node, new Map([...exported].map(([t, n]) => [t, inheritedProvider(n, node)])));
  return node;
};
