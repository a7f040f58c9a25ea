import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import * as Scope from "effect/Scope";
import { type ContextId, ContextIdFactory, createContextId } from "./ContextId.js";
import type { ProviderNode } from "./GraphNodes.js";
import { makeRequestStore, type RequestStore } from "./RequestStore.js";

/**
 * The stores of durable providers, one per context a `ContextIdFactory.apply()` strategy maps
 * requests to (a tenant's), released with the app. Only a durable provider asks: other
 * request-scoped providers live in their request's store.
 */
export const makeDurableContexts = (
  appScope: Scope.Scope,
): ((store: RequestStore, node: ProviderNode) => RequestStore) => {
  const shared = new Map<unknown, RequestStore>();
  return (store, node) => {
    const strategy = ContextIdFactory.strategy;
    if (strategy === undefined || store.detached === true) return store;
    if (store.durable === undefined) {
      const own = createContextId();
      const attached = strategy.attach(own, store.request as never);
      store.durable =
        attached === undefined
          ? null
          : typeof attached === "function"
            ? { own, resolve: attached, payload: undefined }
            : { own, resolve: attached.resolve, payload: attached.payload };
    }
    const durable = store.durable;
    if (durable === null) return store;
    const contextId: ContextId = durable.resolve({ token: node.token, isTreeDurable: true });
    if (contextId === durable.own || contextId.id === durable.own.id) return store;
    let context = shared.get(contextId.id);
    if (context === undefined) {
      const scope = Effect.runSync(Scope.fork(appScope, ExecutionStrategy.sequential));
      context = makeRequestStore(scope, durable.payload ?? store.request);
      // Durable providers it builds are built in it too: it is no request of its own.
      context.durable = null;
      shared.set(contextId.id, context);
    }
    return context;
  };
};
