import * as Effect from "effect/Effect";
import type { Injector } from "../di/Injector.js";
import type { ModuleGraph } from "../di/ModuleGraph.js";
import { StartupError } from "../di/StartupError.js";
import { fromUserCode } from "../http/UserCode.js";

/**
 * A provider, controller or module told that the whole app is initialised: `onApplicationBootstrap`
 * runs once every `onModuleInit` has, before the port opens (`app.init()`, `app.listen()`), in
 * dependency order, modules last. A failure aborts the start with a `StartupError`.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface OnApplicationBootstrap {
  /** The hook: runs once the app is initialised, before the port opens. */
  onApplicationBootstrap(): void | Promise<void> | Effect.Effect<void, unknown>;
}

/**
 * Runs at shutdown after every `onModuleDestroy`, before the `onApplicationShutdown` hooks; it
 * receives the signal that stopped the app (`undefined` for `app.close()`). A failure is logged
 * and does not stop the others. Unlike NestJS, the server has already closed its connections.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface BeforeApplicationShutdown {
  /** The hook: `signal` stopped the app (`undefined` for `app.close()`). */
  beforeApplicationShutdown(signal?: string): void | Promise<void> | Effect.Effect<void, unknown>;
}

/**
 * The last code run at shutdown, after every `beforeApplicationShutdown`: it receives the signal
 * that stopped the app (`undefined` for `app.close()`). A failure is logged and does not stop the
 * others.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface OnApplicationShutdown {
  /** The hook: `signal` stopped the app (`undefined` for `app.close()`). */
  onApplicationShutdown(signal?: string): void | Promise<void> | Effect.Effect<void, unknown>;
}

type Hook = "onApplicationBootstrap" | "beforeApplicationShutdown" | "onApplicationShutdown";

const hookOf = (instance: unknown, hook: Hook): ((signal?: string) => unknown) | undefined => {
  if (typeof instance !== "object" || instance === null) return undefined;
  const method: unknown = (instance as Record<string, unknown>)[hook];
  return typeof method === "function" ? (method as (signal?: string) => unknown) : undefined;
};

const nameOf = (instance: unknown): string =>
  (instance as { constructor?: { name?: string } }).constructor?.name ?? "a provider";

/**
 * The singleton instances of an app that have one of the application hooks: providers and
 * controllers in dependency order, then `modules` (module instances, imports first).
 */
export const applicationHookTargets = (
  graph: ModuleGraph,
  injector: Injector,
  modules: ReadonlyArray<unknown>,
): ReadonlyArray<unknown> => {
  const seen = new Set<unknown>();
  for (const node of graph.providers) {
    // A module class is a provider of its own module: it comes with `modules`, last.
    if (node.token === node.module.cls) continue;
    const binding = injector.binding(node);
    if (binding._tag === "Instance") seen.add(binding.instance);
  }
  for (const module of modules) seen.add(module);
  return [...seen].filter(
    (instance) =>
      hookOf(instance, "onApplicationBootstrap") !== undefined ||
      hookOf(instance, "beforeApplicationShutdown") !== undefined ||
      hookOf(instance, "onApplicationShutdown") !== undefined,
  );
};

/** Runs every `onApplicationBootstrap` in order; the first failure is a `StartupError`. */
export const runApplicationBootstrap = (
  targets: ReadonlyArray<unknown>,
): Effect.Effect<void, StartupError> =>
  Effect.forEach(
    targets,
    (instance) => {
      const hook = hookOf(instance, "onApplicationBootstrap");
      if (hook === undefined) return Effect.void;
      return Effect.mapError(
        fromUserCode(() => hook.call(instance)),
        (cause) =>
          new StartupError({
            message: `onApplicationBootstrap of ${nameOf(instance)} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
            cause,
          }),
      );
    },
    { discard: true },
  );

/**
 * Runs every `beforeApplicationShutdown(signal)`, then every `onApplicationShutdown(signal)`,
 * in reverse order (dependents first); never fails, a failure is logged.
 */
export const runApplicationShutdown = (
  targets: ReadonlyArray<unknown>,
  signal: string | undefined,
): Effect.Effect<void> => {
  const reversed = [...targets].reverse();
  const phase = (hook: Hook) =>
    Effect.forEach(
      reversed,
      (instance) => {
        const method = hookOf(instance, hook);
        if (method === undefined) return Effect.void;
        return fromUserCode(() => method.call(instance, signal)).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logError(`${hook} of ${nameOf(instance)} failed`, cause),
          ),
        );
      },
      { discard: true },
    );
  return Effect.zipRight(phase("beforeApplicationShutdown"), phase("onApplicationShutdown"));
};
