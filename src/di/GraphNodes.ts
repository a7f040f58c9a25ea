import type { ModuleImport, ModuleOptions } from "./Module.js";
import type { Scope } from "./Scope.js";
import type { InjectionToken } from "./Token.js";

// The shapes of a compiled module graph, shared by its compilation steps (scan, visibility,
// resolution, provider recipes) and by what reads the graph (the injector, the routes).

/**
 * How a node's instance is obtained: built by `create` (`provider`), the instance of its only
 * dependency (`alias`, from `useExisting`), the current request (`request`, the `REQUEST`
 * token), the app's {@link ModuleRef} (`moduleRef`), {@link DiscoveryService} (`discovery`) or
 * {@link LazyModuleLoader} (`lazyModuleLoader`), the provider it is built for (`inquirer`, the
 * `INQUIRER` token), or, in a lazily loaded module's graph, the
 * app's own instance of a provider it shares (`inherited`).
 */
export type ProviderKind =
  | "provider"
  | "alias"
  | "request"
  | "moduleRef"
  | "discovery"
  | "lazyModuleLoader"
  | "inquirer"
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
  /**
   * A request-scoped provider whose whole tree is durable (it is declared durable, and what it
   * depends on is a singleton, the request or durable too): kept per tenant under a strategy.
   */
  readonly durable?: boolean;
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
export interface ParentGraph {
  /** The providers every module sees: the framework's and the global modules' exports. */
  readonly globalVisible: () => ReadonlyMap<InjectionToken, ProviderNode>;
  /** What an already compiled module (by its import entry) exports, `undefined` when none is. */
  readonly exportsOf: (entry: unknown) => ReadonlyMap<InjectionToken, ProviderNode> | undefined;
}

/** One dependency of a provider, as declared. */
export interface Dependency {
  readonly token: InjectionToken;
  readonly optional: boolean;
  /** Declared through `forwardRef`: may close a dependency cycle. */
  readonly forward: boolean;
  /** Where it is declared, for errors: `parameter #1` or `property logger`. */
  readonly where: string;
}

/** A provider as declared, before its dependencies are resolved into a {@link ProviderNode}. */
export interface Pending {
  readonly token: InjectionToken;
  readonly name: string;
  readonly module: ModuleNode;
  readonly kind: ProviderKind;
  readonly create: (args: ReadonlyArray<unknown>) => unknown;
  readonly synchronous: boolean;
  readonly dependencies: (() => ReadonlyArray<Dependency>) | ReadonlyArray<Dependency>;
  readonly declaredScope: Scope;
  /** Declared durable (`@Injectable({ durable: true })`, or `durable` on the provider). */
  readonly durable?: boolean;
  /** The prototype of a class provider, for a `forwardRef` placeholder. */
  readonly prototype?: object;
  readonly metatype?: Function;
  readonly inherited?: ProviderNode;
}

/** The kinds of global enhancers, as {@link GlobalEnhancerNodes} lists them. */
export type EnhancerKind = keyof GlobalEnhancerNodes;

/**
 * What a testing module replaces besides providers: modules (each import of a key module, a
 * class or a dynamic module object, compiles its value instead) and, through `mocker`, any
 * dependency no module provides (its return value is the instance; `undefined`: not mocked).
 */
export interface TestingReplacements {
  readonly modules?: ReadonlyMap<unknown, ModuleImport>;
  readonly mocker?: (token: InjectionToken) => unknown;
}
