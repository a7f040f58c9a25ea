import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { Binding } from "./Binding.js";
import type { ModuleGraph, ProviderNode } from "./ModuleGraph.js";
import { runLifecycle } from "./ProviderLifecycle.js";

/**
 * `forwardRef` cycles: binds the placeholder of each provider that has one, handed out before
 * the provider is constructed. Returns those providers: their placeholders are not filled yet.
 */
export const bindPlaceholders = (
  graph: ModuleGraph,
  bindings: Map<ProviderNode, Binding>,
): Set<ProviderNode> => {
  const unfilled = new Set<ProviderNode>();
  for (const node of graph.providers) {
    const placeholder = node.placeholder?.();
    if (placeholder === undefined) continue;
    bindings.set(node, { _tag: "Instance", instance: placeholder });
    unfilled.add(node);
  }
  return unfilled;
};

/**
 * Runs the lifecycle hooks of each singleton as it is built, in dependency order. A singleton
 * holding a placeholder (or depending on one that does) runs its `onModuleInit` once every
 * placeholder is filled: its constructor could not use the other side, its `onModuleInit` can.
 */
export const singletonInitOrder = (
  scope: Scope.Scope,
  unfilled: Set<ProviderNode>,
): ((node: ProviderNode, instance: unknown) => Effect.Effect<void, unknown>) => {
  const waiting = new Set<ProviderNode>();
  const deferred: Array<readonly [ProviderNode, unknown]> = [];
  return (node, instance) =>
    Effect.suspend(() => {
      const waits = node.dependencies.some(
        (d) => d !== undefined && (unfilled.has(d) || waiting.has(d)),
      );
      unfilled.delete(node);
      if (waits) {
        waiting.add(node);
        deferred.push([node, instance]);
      }
      const now = waits ? Effect.void : runLifecycle(instance, scope, node);
      if (unfilled.size > 0 || deferred.length === 0) return now;
      const due = deferred.splice(0);
      waiting.clear();
      return Effect.zipRight(
        now,
        Effect.forEach(due, ([n, i]) => runLifecycle(i, scope, n), { discard: true }),
      );
    });
};
