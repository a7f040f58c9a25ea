import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import { fromUserCode } from "../http/UserCode.js";

/**
 * Code run at shutdown, after in-flight requests have finished and before providers'
 * `onModuleDestroy`: it receives the signal that stopped the app (`undefined` for
 * `app.close()`), and may return a Promise or an Effect.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export type ShutdownHandler = (
  signal: string | undefined,
) => void | Promise<void> | Effect.Effect<void, unknown>;

/** How long one shutdown handler may run by default: 10 000 ms. @since 0.1.0 @category lifecycle */
const DEFAULT_HANDLER_TIMEOUT = 10_000;

/**
 * The shutdown handlers of an app (`app.shutdownManager`, or injected where `OperationsModule`
 * is imported). On SIGTERM, SIGINT or `app.close()` the app stops accepting connections, lets
 * in-flight requests finish (within `shutdown.timeout`), runs these handlers one after another
 * in registration order, then the providers' `onModuleDestroy` hooks. A failing or overrunning
 * handler is logged and does not stop the others. Underneath, it is a finalizer of the app's
 * scope (the Effect face: `Effect.addFinalizer` in a scoped Layer).
 *
 * @example
 * declare const app: StrataApp;
 * declare const metrics: { flush(): Promise<void> };
 *
 * app.shutdownManager.register(async (signal) => {
 *   console.log(`stopping on ${signal ?? "app.close()"}`);
 *   await metrics.flush();
 * });
 *
 * @since 0.1.0
 * @category lifecycle
 */
export class ShutdownManager {
  private readonly handlers: Array<ShutdownHandler> = [];
  private shuttingDown = false;

  /**
   * Whether the app is shutting down (or has shut down): from the moment SIGTERM, SIGINT or
   * `app.close()` starts the shutdown, while in-flight requests drain. `GET /ready` answers 503
   * meanwhile, so that a load balancer stops routing requests to the app.
   */
  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /**
   * Marks the app as shutting down (`true`), before its server stops accepting connections, or
   * as running again (`false`) when it starts anew. The app calls it.
   */
  setShuttingDown(shuttingDown: boolean): void {
    this.shuttingDown = shuttingDown;
  }

  /** Adds a handler, run after those registered before it. */
  register(handler: ShutdownHandler): void {
    this.handlers.push(handler);
  }

  /**
   * Runs every handler in registration order, each within `timeout` ms; never fails. A handler
   * is interruptible even where `run` is not (a scope's finalizer), so the timeout holds.
   */
  run(signal: string | undefined, timeout: number = DEFAULT_HANDLER_TIMEOUT): Effect.Effect<void> {
    return Effect.forEach(
      this.handlers,
      (handler, index) =>
        Effect.interruptible(fromUserCode(() => handler(signal))).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(timeout),
            onTimeout: () => `did not finish within ${timeout} ms`,
          }),
          Effect.catchAllCause((cause) =>
            Effect.logError(`Shutdown handler #${index + 1} failed`, cause),
          ),
        ),
      { discard: true },
    );
  }
}
