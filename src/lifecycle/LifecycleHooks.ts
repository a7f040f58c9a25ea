import type * as Effect from "effect/Effect";

/**
 * A provider (or controller) that prepares itself once its dependencies are ready: singletons'
 * `onModuleInit` runs at startup, in dependency order, before the port opens; request-scoped
 * ones' when they are created. It may return a Promise or an Effect; a failure aborts the
 * start with a `StartupError` naming the provider, after the destroy hooks already due have run.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface OnModuleInit {
  /** The hook: runs once the provider's dependencies are ready. */
  onModuleInit(): void | Promise<void> | Effect.Effect<void, unknown>;
}

/**
 * A provider (or controller) that releases what it holds: singletons' `onModuleDestroy` runs at
 * shutdown (`app.close()`, SIGTERM, SIGINT), after in-flight requests have finished, in reverse
 * dependency order; request-scoped ones' when their request has been answered. A failure is
 * logged and does not stop the others.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface OnModuleDestroy {
  /** The hook: runs when the provider is released (at shutdown, or after its request). */
  onModuleDestroy(): void | Promise<void> | Effect.Effect<void, unknown>;
}
