import * as Effect from "effect/Effect";
import { type Binding, type Make, NOT_NOW } from "./Binding.js";
import type { ProviderNode } from "./ModuleGraph.js";
import { hooksOf, runDue, runLifecycle } from "./ProviderLifecycle.js";
import type { RequestStore } from "./RequestStore.js";
import { Scope as ProviderScope } from "./Scope.js";
import { StartupError } from "./StartupError.js";

/**
 * Builds a request-scoped provider without any Effect when it and its request-scoped
 * dependencies are classes or values: `NOT_NOW` means "take the Effect path", and nothing was
 * created for this node. `undefined` when it cannot be (a factory, a durable provider).
 */
const synchronousBuild = (
  node: ProviderNode,
  bindings: ReadonlyArray<Binding>,
): ((store: RequestStore) => unknown) | undefined =>
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

/**
 * A request-scoped provider's instance in a request's store: the one it holds, else built
 * (synchronously when `now` can) and kept there, its lifecycle hooks tied to the store's scope.
 * The cache is consulted when the Effect runs, not when it is made: dependencies are resolved
 * one after another, so a provider shared by two of them is created once.
 */
const requestMake =
  (node: ProviderNode, build: Make, now: ((store: RequestStore) => unknown) | undefined): Make =>
  (store, inquirer) =>
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
        return runLifecycle(created, store.scope, node);
      });
    });

/**
 * The binding of a transient provider (a new instance per injection) or a request-scoped one
 * (one per request; a durable one per context `durable` maps the request's store to).
 */
export const scopedBinding = (
  node: ProviderNode,
  bindings: ReadonlyArray<Binding>,
  build: Make,
  durable: (store: RequestStore, node: ProviderNode) => RequestStore,
): Binding => {
  if (node.scope === ProviderScope.TRANSIENT) return { _tag: "Maker", make: build };
  const now = synchronousBuild(node, bindings);
  const make = requestMake(node, build, now);
  if (node.durable === true) {
    // Built in the store of the context the strategy maps the request to (a tenant's).
    const durableMake: Make = (store, inquirer) =>
      Effect.suspend(() => make(store === undefined ? undefined : durable(store, node), inquirer));
    return { _tag: "Maker", make: durableMake };
  }
  return { _tag: "Maker", make, now };
};
