import * as Effect from "effect/Effect";
import type { Binding, Make } from "./Binding.js";
import type { ProviderNode } from "./ModuleGraph.js";
import { StartupError } from "./StartupError.js";

const startupFailure = (node: ProviderNode) => (cause: unknown) =>
  cause instanceof StartupError
    ? cause
    : new StartupError({
        message: `Failed to create ${node.name} in ${node.module.path}: ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      });

/**
 * Builds a singleton once, now, and runs its lifecycle hooks (`singletonHooks`). A failure is
 * a `StartupError` naming the provider and its module.
 */
export const singletonBinding = (
  node: ProviderNode,
  built: ReadonlyMap<ProviderNode, Binding>,
  build: Make,
  singletonHooks: (node: ProviderNode, instance: unknown) => Effect.Effect<void, unknown>,
): Effect.Effect<Binding, StartupError> => {
  // A `forwardRef` cycle handed out a placeholder already: it becomes the instance.
  const placeholder = node.placeholder === undefined ? undefined : built.get(node);
  return build(undefined).pipe(
    Effect.map((created) =>
      placeholder?._tag === "Instance"
        ? Object.assign(placeholder.instance as object, created)
        : created,
    ),
    Effect.tap((created) => singletonHooks(node, created)),
    Effect.mapError(startupFailure(node)),
    Effect.map((instance): Binding => ({ _tag: "Instance", instance })),
  );
};
