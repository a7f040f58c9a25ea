import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import * as Scope from "effect/Scope";
import { fromUserCode } from "../http/UserCode.js";
import type { Binding } from "./Binding.js";
import { classRecipe, type ModuleGraph, type ProviderNode } from "./ModuleGraph.js";
import type { ContextId, ModuleRefOptions, ModuleRefSource } from "./ModuleRef.js";
import { makeRequestStore, type RequestStore } from "./RequestStore.js";
import { Scope as ProviderScope } from "./Scope.js";
import { StartupError } from "./StartupError.js";
import { type InjectionToken, tokenName } from "./Token.js";

/**
 * One request store per {@link ContextId}, forked from the app's scope (released with the app).
 * Given a request, the context's store is replaced by one holding it, its instances kept.
 */
const contextStores = (
  appScope: Scope.Scope,
): ((contextId: ContextId, request?: unknown) => RequestStore) => {
  const contexts = new Map<number, RequestStore>();
  return (contextId, request) => {
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
};

/**
 * The providers `token` names for {@link ModuleRef}: `each` every one registered under it
 * (`strict`: only the root module's), else the one `strict` sees in the root module or
 * `lookup` finds.
 */
const providersOf = (
  graph: ModuleGraph,
  lookup: (token: InjectionToken) => ProviderNode | undefined,
  token: InjectionToken,
  options: ModuleRefOptions,
): ReadonlyArray<ProviderNode> => {
  if (options.each === true) {
    return graph.providers.filter(
      (node) =>
        node.token === token && (options.strict !== true || graph.rootVisible.get(token) === node),
    );
  }
  const node = options.strict === true ? graph.rootVisible.get(token) : lookup(token);
  return node === undefined ? [] : [node];
};

/**
 * What the app's {@link ModuleRef} reads: the bindings as they are built (so a provider's
 * `onModuleInit` can already `get` what was built before it), and one request store per
 * {@link ContextId}, released with the app.
 */
export const moduleRefSource = (
  graph: ModuleGraph,
  bindings: ReadonlyMap<ProviderNode, Binding>,
  lookup: (token: InjectionToken) => ProviderNode | undefined,
  appScope: Scope.Scope,
): ModuleRefSource => {
  const bindingOf = (node: ProviderNode): Binding => {
    const binding = bindings.get(node);
    if (binding === undefined) {
      throw new Error(
        `${node.name} is not built yet: ModuleRef reaches a provider once it is created (read it later, or inject it).`,
      );
    }
    return binding;
  };
  const storeOf = contextStores(appScope);
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
    scopeOf: (token) => lookup(token)?.scope,
    getAll: (token, options) =>
      providersOf(graph, lookup, token, options).map((node) => {
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
    resolveAll: (token, contextId, options) => {
      const store = storeOf(contextId);
      return Effect.runPromise(
        Effect.forEach(providersOf(graph, lookup, token, options), (node) =>
          inContext(node, store),
        ),
      );
    },
    create: (type) => {
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
    registerRequest: (request, contextId) => {
      storeOf(contextId, request);
    },
  };
};
