import * as Effect from "effect/Effect";
import * as Scope from "effect/Scope";
import { fromUserCode } from "../http/UserCode.js";
import type { ProviderNode } from "./ModuleGraph.js";
import type { RequestStore } from "./RequestStore.js";
import { StartupError } from "./StartupError.js";

/** The lifecycle hooks an instance may have. */
export interface Hooks {
  readonly onModuleInit?: () => unknown;
  readonly onModuleDestroy?: () => unknown;
}

/** An instance's hooks (none for what is not an object). */
export const hooksOf = (instance: unknown): Hooks =>
  typeof instance === "object" && instance !== null ? (instance as Hooks) : {};

/**
 * Runs `onModuleInit` now and registers `onModuleDestroy` to run when `scope` closes. A failing
 * `onModuleInit` is a `StartupError` saying so (the provider was created, its hook failed).
 */
export const runLifecycle = (
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

/** Runs the lifecycle hooks of instances a synchronous build created (`store.due`). */
export const runDue = (store: RequestStore): Effect.Effect<void, unknown> =>
  Effect.suspend(() => {
    const due = store.due ?? [];
    store.due = undefined;
    return Effect.forEach(due, ([node, instance]) => runLifecycle(instance, store.scope, node), {
      discard: true,
    });
  });
