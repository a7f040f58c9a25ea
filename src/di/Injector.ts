import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import * as Scope from "effect/Scope";
import { fromUserCode } from "../http/UserCode.js";
import {
  type DiscoveredProvider,
  DiscoveryService,
  type DiscoverySource,
} from "./DiscoveryService.js";
import { makeDurableContexts } from "./DurableContexts.js";
import { LazyModuleLoader } from "./LazyModuleLoader.js";
import type { ModuleImport } from "./Module.js";
import {
  classRecipe,
  type GlobalEnhancerNodes,
  type ModuleGraph,
  type ProviderNode,
} from "./ModuleGraph.js";
import { type ContextId, ModuleRef, type ModuleRefOptions } from "./ModuleRef.js";
import { makeRequestStore, type RequestStore } from "./RequestStore.js";
import { Scope as ProviderScope } from "./Scope.js";
import { StartupError } from "./StartupError.js";
import { type InjectionToken, type Type, tokenName } from "./Token.js";

/**
 * How a provider is obtained: a singleton is an instance built once at startup; a transient
 * or request-scoped provider is a maker run per injection or per request.
 */
export type Binding =
  | { readonly _tag: "Instance"; readonly instance: unknown }
  | {
      readonly _tag: "Maker";
      /** `inquirer`: the provider it is built for (what `INQUIRER` injects an object of). */
      readonly make: (
        store: RequestStore | undefined,
        inquirer?: ProviderNode,
      ) => Effect.Effect<unknown, unknown>;
      /** The instance built synchronously, or `NOT_NOW` (request-scoped classes and values only). */
      readonly now?: ((store: RequestStore) => unknown) | undefined;
    };

interface Hooks {
  readonly onModuleInit?: () => unknown;
  readonly onModuleDestroy?: () => unknown;
}

const hooksOf = (instance: unknown): Hooks =>
  typeof instance === "object" && instance !== null ? (instance as Hooks) : {};

/**
 * Runs `onModuleInit` now and registers `onModuleDestroy` to run when `scope` closes. A failing
 * `onModuleInit` is a `StartupError` saying so (the provider was created, its hook failed).
 */
const lifecycle = (
  instance: unknown,
  scope: Scope.Scope,
  node: ProviderNode,
): Effect.Effect<void, unknown> => {
  const hooks = hooksOf(instance);
  const hasInit = typeof hooks.onModuleInit === "function";
  const hasDestroy = typeof hooks.onModuleDestroy === "function";
  if (!hasInit && !hasDestroy) return Effect.void;
  const init = hasInit
    ? Effect.mapError(
        fromUserCode(() => hooks.onModuleInit?.()),
        (cause) =>
          new StartupError({
            message: `onModuleInit of ${node.name} in ${node.module.path} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
            cause,
          }),
      )
    : Effect.void;
  const destroy = hasDestroy
    ? Scope.addFinalizer(
        scope,
        fromUserCode(() => hooks.onModuleDestroy?.()).pipe(
          Effect.catchAllCause((cause) => Effect.logError("onModuleDestroy failed", cause)),
        ),
      )
    : Effect.void;
  return Effect.zipRight(init, destroy);
};

/** Returned by a binding's `now` when the instance needs the Effect path (nothing was built). */
const NOT_NOW: unique symbol = Symbol("effect-strata/di/NotNow");

/** Runs the lifecycle hooks of instances a synchronous build created. */
const runDue = (store: RequestStore): Effect.Effect<void, unknown> =>
  Effect.suspend(() => {
    const due = store.due ?? [];
    store.due = undefined;
    return Effect.forEach(due, ([node, instance]) => lifecycle(instance, store.scope, node), {
      discard: true,
    });
  });

/** The resolved providers of an app: every binding, and those visible from the root module. */
export interface Injector {
  /**
   * How a provider is obtained: its singleton instance, or the maker of its request-scoped or
   * transient instances.
   */
  readonly binding: (node: ProviderNode) => Binding;
  /** Obtains a provider's instance: a singleton directly, others through their maker. */
  readonly instance: (
    node: ProviderNode,
    store: RequestStore | undefined,
  ) => Effect.Effect<unknown, unknown>;
  /** The provider registered under `token`: as the root module sees it, else in any module. */
  readonly lookup: (token: InjectionToken) => ProviderNode | undefined;
  /** The providers modules registered as global enhancers (`APP_GUARD` ...). */
  readonly globalEnhancers: GlobalEnhancerNodes;
  /** The app's {@link ModuleRef}: its providers read at run time. */
  readonly moduleRef: ModuleRef;
}

/** The resolved providers of a compiled app. @since 0.1.0 @category dependency injection */
export const Injector = Context.GenericTag<Injector>("effect-strata/di/Injector");

const instanceFrom =
  (bindings: ReadonlyMap<ProviderNode, Binding>) =>
  (node: ProviderNode, store: RequestStore | undefined): Effect.Effect<unknown, unknown> => {
    const binding = bindings.get(node) as Binding;
    return binding._tag === "Instance" ? Effect.succeed(binding.instance) : binding.make(store);
  };

/**
 * `INQUIRER`: an object of the class of the provider being built for (`inquirer.constructor`
 * is that class), as NestJS hands its constructor; `undefined` for what is built for no
 * provider (a singleton at startup, `moduleRef.resolve`).
 */
const INQUIRER_BINDING: Binding = {
  _tag: "Maker",
  make: (_store, inquirer) => {
    const prototype = (inquirer?.metatype as { prototype?: object } | undefined)?.prototype;
    return Effect.succeed(prototype === undefined ? undefined : Object.create(prototype));
  },
};

/** What an optional dependency without a provider injects. */
const ABSENT: Binding = { _tag: "Instance", instance: undefined };

/** The `REQUEST` token: the request of the store, which only an HTTP request has. */
const requestBinding = (node: ProviderNode): Binding => ({
  _tag: "Maker",
  make: (store) =>
    store?.request === undefined && store?.detached !== true
      ? Effect.fail(
          new StartupError({
            message: `${node.name} is injected outside an HTTP request: only providers created for an HTTP request can inject it.`,
          }),
        )
      : Effect.succeed(store.request),
  now: (store) =>
    store.request === undefined && store.detached !== true ? NOT_NOW : store.request,
});

const startupFailure = (node: ProviderNode) => (cause: unknown) =>
  cause instanceof StartupError
    ? cause
    : new StartupError({
        message: `Failed to create ${node.name} in ${node.module.path}: ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      });

/** What the injector provides itself: per app, and for a lazily loaded module's graph. */
interface FrameworkInstances {
  readonly moduleRef: ModuleRef;
  readonly discovery: DiscoveryService;
  readonly lazyModuleLoader: LazyModuleLoader;
  /** The binding of the app's provider an `inherited` node stands for. */
  readonly inherited: (node: ProviderNode) => Binding;
  /** The store a durable provider is built in for a request's store. */
  readonly durable: (store: RequestStore, node: ProviderNode) => RequestStore;
}

/**
 * The binding of one provider, built from the bindings of its dependencies (built before it);
 * a singleton's `onModuleDestroy` is registered on the Scope in context.
 */
const providerBinding = (
  node: ProviderNode,
  built: ReadonlyMap<ProviderNode, Binding>,
  singletonHooks: (node: ProviderNode, instance: unknown) => Effect.Effect<void, unknown>,
  framework: FrameworkInstances,
): Effect.Effect<Binding, StartupError, Scope.Scope> =>
  Effect.gen(function* () {
    switch (node.kind) {
      case "request":
        return requestBinding(node);
      case "moduleRef":
        return { _tag: "Instance", instance: framework.moduleRef } as const;
      case "discovery":
        return { _tag: "Instance", instance: framework.discovery } as const;
      case "lazyModuleLoader":
        return { _tag: "Instance", instance: framework.lazyModuleLoader } as const;
      case "inherited":
        return framework.inherited(node);
      case "inquirer":
        return INQUIRER_BINDING;
    }
    const bindings = node.dependencies.map((dependency) =>
      dependency === undefined ? ABSENT : (built.get(dependency) as Binding),
    );
    // `useExisting`: the very binding of the token it aliases, so the same instance.
    if (node.kind === "alias") return bindings[0];
    // Dependencies that are instances are read directly; only makers run as Effects.
    // Each maker is told whom it is built for: this provider, but `INQUIRER` this one's inquirer.
    const forInquirer = node.dependencies.map((d) => d?.kind === "inquirer");
    const build = (
      store: RequestStore | undefined,
      inquirer?: ProviderNode,
    ): Effect.Effect<unknown, unknown> => {
      const args = new Array<unknown>(bindings.length);
      let pending: Array<Effect.Effect<void, unknown>> | undefined;
      for (let i = 0; i < bindings.length; i++) {
        const binding = bindings[i];
        if (binding._tag === "Instance") {
          args[i] = binding.instance;
          continue;
        }
        pending ??= [];
        pending.push(
          Effect.map(binding.make(store, forInquirer[i] ? inquirer : node), (instance) => {
            args[i] = instance;
          }),
        );
      }
      const create = fromUserCode(() => node.create(args));
      return pending === undefined
        ? create
        : Effect.zipRight(Effect.all(pending, { discard: true }), create);
    };
    if (node.scope === ProviderScope.SINGLETON) {
      // A `forwardRef` cycle handed out a placeholder already: it becomes the instance.
      const placeholder = node.placeholder === undefined ? undefined : built.get(node);
      const instance = yield* build(undefined).pipe(
        Effect.map((created) =>
          placeholder?._tag === "Instance"
            ? Object.assign(placeholder.instance as object, created)
            : created,
        ),
        Effect.tap((created) => singletonHooks(node, created)),
        Effect.mapError(startupFailure(node)),
      );
      return { _tag: "Instance", instance } as const;
    }
    if (node.scope === ProviderScope.TRANSIENT) {
      return { _tag: "Maker", make: build } as const;
    }
    // Built without any Effect when it and its request-scoped dependencies are classes or
    // values: `NOT_NOW` means "take the Effect path", and nothing was created for this node.
    const now =
      node.durable !== true &&
      node.synchronous &&
      bindings.every((b) => b._tag === "Instance" || b.now !== undefined)
        ? (store: RequestStore): unknown => {
            if (store.instances.has(node.id)) return store.instances.get(node.id);
            const args = new Array<unknown>(bindings.length);
            for (let i = 0; i < bindings.length; i++) {
              const binding = bindings[i];
              const value =
                binding._tag === "Instance" ? binding.instance : (binding.now?.(store) ?? NOT_NOW);
              if (value === NOT_NOW) return NOT_NOW;
              args[i] = value;
            }
            const created = node.create(args);
            store.instances.set(node.id, created);
            const hooks = hooksOf(created);
            if (
              typeof hooks.onModuleInit === "function" ||
              typeof hooks.onModuleDestroy === "function"
            ) {
              store.due ??= [];
              store.due.push([node, created]);
            }
            return created;
          }
        : undefined;
    // The cache is consulted when the Effect runs, not when it is made: dependencies are
    // resolved one after another, so a provider shared by two of them is created once.
    const make = (
      store: RequestStore | undefined,
      inquirer?: ProviderNode,
    ): Effect.Effect<unknown, unknown> =>
      Effect.suspend(() => {
        if (store === undefined) {
          return Effect.fail(
            new StartupError({
              message: `${node.name} is request-scoped: resolve it with a request id.`,
            }),
          );
        }
        if (store.instances.has(node.id)) return Effect.succeed(store.instances.get(node.id));
        if (now !== undefined) {
          let instance: unknown;
          try {
            instance = now(store);
          } catch (error) {
            return Effect.fail(error);
          }
          if (instance !== NOT_NOW) {
            return store.due === undefined
              ? Effect.succeed(instance)
              : Effect.as(runDue(store), instance);
          }
        }
        return Effect.tap(build(store, inquirer), (created) => {
          store.instances.set(node.id, created);
          return lifecycle(created, store.scope, node);
        });
      });
    if (node.durable === true) {
      // Built in the store of the context the strategy maps the request to (a tenant's).
      const durableMake = (store: RequestStore | undefined, inquirer?: ProviderNode) =>
        Effect.suspend(() =>
          make(store === undefined ? undefined : framework.durable(store, node), inquirer),
        );
      return { _tag: "Maker", make: durableMake } as const;
    }
    return { _tag: "Maker", make, now } as const;
  });

/**
 * Builds every provider's binding of a compiled module graph in dependency order, in the
 * current scope: singletons are built once (their `onModuleInit` in dependency order) and
 * released in reverse (`onModuleDestroy`) when the scope closes. `StrataApp` and `Container`
 * run it directly: a Layer around it costs ~1.5 ms more of startup.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export const makeInjector = (
  graph: ModuleGraph,
  parent?: Injector,
): Effect.Effect<Injector, StartupError, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope;
    const bindings = new Map<ProviderNode, Binding>();
    // `forwardRef` cycles: placeholders handed out before their providers are constructed.
    const unfilled = new Set<ProviderNode>();
    for (const node of graph.providers) {
      const placeholder = node.placeholder?.();
      if (placeholder === undefined) continue;
      bindings.set(node, { _tag: "Instance", instance: placeholder });
      unfilled.add(node);
    }
    // A singleton holding a placeholder (or depending on one that does) runs its
    // `onModuleInit` once every placeholder is filled: its constructor could not use the other
    // side, its `onModuleInit` can.
    const waiting = new Set<ProviderNode>();
    const deferred: Array<readonly [ProviderNode, unknown]> = [];
    const singletonHooks = (node: ProviderNode, instance: unknown): Effect.Effect<void, unknown> =>
      Effect.suspend(() => {
        const waits = node.dependencies.some(
          (d) => d !== undefined && (unfilled.has(d) || waiting.has(d)),
        );
        unfilled.delete(node);
        if (waits) {
          waiting.add(node);
          deferred.push([node, instance]);
        }
        const now = waits ? Effect.void : lifecycle(instance, scope, node);
        if (unfilled.size > 0 || deferred.length === 0) return now;
        const due = deferred.splice(0);
        waiting.clear();
        return Effect.zipRight(
          now,
          Effect.forEach(due, ([n, i]) => lifecycle(i, scope, n), { discard: true }),
        );
      });
    const lookup = (token: InjectionToken) =>
      graph.rootVisible.get(token) ?? graph.providers.find((node) => node.token === token);
    const moduleRef = new ModuleRef(moduleRefSource(graph, bindings, lookup, scope));
    const framework: FrameworkInstances = {
      moduleRef,
      discovery: new DiscoveryService(discoverySource(graph, bindings)),
      lazyModuleLoader: new LazyModuleLoader(lazyLoader(graph, scope, () => injector)),
      durable: makeDurableContexts(scope),
      inherited: (node) => {
        if (parent === undefined || node.inherited === undefined) {
          throw new Error(`${node.name} is shared with an app that is not given`);
        }
        return parent.binding(node.inherited);
      },
    };
    for (const node of graph.providers)
      bindings.set(node, yield* providerBinding(node, bindings, singletonHooks, framework));
    const injector: Injector = Injector.of({
      globalEnhancers: graph.globalEnhancers,
      binding: (node) => bindings.get(node) as Binding,
      instance: instanceFrom(bindings),
      lookup,
      moduleRef,
    });
    return injector;
  });

/** What {@link DiscoveryService} lists: the graph's providers and controllers, with their instances. */
const discoverySource = (
  graph: ModuleGraph,
  bindings: ReadonlyMap<ProviderNode, Binding>,
): DiscoverySource => {
  const controllers = new Set(graph.controllers);
  const wrapper = (node: ProviderNode): DiscoveredProvider => {
    const binding = bindings.get(node);
    return {
      token: node.token,
      name: node.name,
      metatype: node.metatype,
      instance: binding?._tag === "Instance" ? binding.instance : undefined,
      scope: node.scope,
      host: node.module.cls,
    };
  };
  return {
    providers: () =>
      graph.providers
        .filter(
          (node) => !controllers.has(node) && (node.kind === "provider" || node.kind === "alias"),
        )
        .map(wrapper),
    controllers: () => graph.controllers.map(wrapper),
  };
};

/**
 * {@link LazyModuleLoader}'s loading: a module is compiled against the app's graph and built
 * in the app's scope (its `onModuleDestroy` run when the app closes), once.
 */
const lazyLoader = (
  graph: ModuleGraph,
  appScope: Scope.Scope,
  app: () => Injector,
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
        return Scope.extend(makeInjector(lazy, app()), appScope);
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

/**
 * What the app's {@link ModuleRef} reads: the bindings as they are built (so a provider's
 * `onModuleInit` can already `get` what was built before it), and one request store per
 * {@link ContextId}, released with the app.
 */
const moduleRefSource = (
  graph: ModuleGraph,
  bindings: ReadonlyMap<ProviderNode, Binding>,
  lookup: (token: InjectionToken) => ProviderNode | undefined,
  appScope: Scope.Scope,
) => {
  const nodesOf = (
    token: InjectionToken,
    options: ModuleRefOptions,
  ): ReadonlyArray<ProviderNode> => {
    if (options.each === true) {
      return graph.providers.filter(
        (node) =>
          node.token === token &&
          (options.strict !== true || graph.rootVisible.get(token) === node),
      );
    }
    const node = options.strict === true ? graph.rootVisible.get(token) : lookup(token);
    return node === undefined ? [] : [node];
  };
  const bindingOf = (node: ProviderNode): Binding => {
    const binding = bindings.get(node);
    if (binding === undefined) {
      throw new Error(
        `${node.name} is not built yet: ModuleRef reaches a provider once it is created (read it later, or inject it).`,
      );
    }
    return binding;
  };
  const contexts = new Map<number, RequestStore>();
  const storeOf = (contextId: ContextId, request?: unknown): RequestStore => {
    const existing = contexts.get(contextId.id);
    if (existing !== undefined && request === undefined) return existing;
    const scope =
      existing?.scope ?? Effect.runSync(Scope.fork(appScope, ExecutionStrategy.sequential));
    const store = makeRequestStore(scope, request ?? existing?.request, true);
    if (existing !== undefined)
      for (const [id, v] of existing.instances) store.instances.set(id, v);
    contexts.set(contextId.id, store);
    return store;
  };
  /** An instance in a context: a transient is created once per context (NestJS's rule). */
  const inContext = (node: ProviderNode, store: RequestStore): Effect.Effect<unknown, unknown> => {
    const binding = bindingOf(node);
    if (binding._tag === "Instance") return Effect.succeed(binding.instance);
    if (node.scope !== ProviderScope.TRANSIENT) return binding.make(store);
    if (store.instances.has(node.id)) return Effect.succeed(store.instances.get(node.id));
    return Effect.tap(binding.make(store), (created) => {
      store.instances.set(node.id, created);
    });
  };
  return {
    describe: tokenName,
    scopeOf: (token: InjectionToken) => lookup(token)?.scope,
    getAll: (token: InjectionToken, options: ModuleRefOptions) =>
      nodesOf(token, options).map((node) => {
        const binding = bindingOf(node);
        if (binding._tag === "Instance") return binding.instance;
        if (node.scope === ProviderScope.REQUEST) {
          throw new StartupError({
            message: `${node.name} is request-scoped: use resolve(${tokenName(token)}, contextId) instead of get().`,
            reason: "InvalidClassScope",
          });
        }
        return Effect.runSync(binding.make(undefined));
      }),
    resolveAll: (token: InjectionToken, contextId: ContextId, options: ModuleRefOptions) => {
      const store = storeOf(contextId);
      return Effect.runPromise(
        Effect.forEach(nodesOf(token, options), (node) => inContext(node, store)),
      );
    },
    create: (type: Type<unknown>) => {
      const recipe = classRecipe(type, "ModuleRef.create");
      const store = storeOf({ id: Math.random() });
      return Effect.runPromise(
        Effect.flatMap(
          Effect.forEach(recipe.dependencies, (dependency) => {
            const node = lookup(dependency.token);
            if (node !== undefined) return inContext(node, store);
            if (dependency.optional) return Effect.succeed(undefined);
            return Effect.fail(
              new Error(
                `Cannot create ${type.name}: no provider of ${tokenName(dependency.token)} in the app.`,
              ),
            );
          }),
          (args) => fromUserCode(() => recipe.create(args)),
        ),
      );
    },
    registerRequest: (request: unknown, contextId: ContextId) => {
      storeOf(contextId, request);
    },
  };
};
