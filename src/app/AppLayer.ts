import type * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Effect from "effect/Effect";
import * as FiberRef from "effect/FiberRef";
import * as HashSet from "effect/HashSet";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import type { Injector } from "../di/Injector.js";
import type { StartupError } from "../di/StartupError.js";
import { HealthCheckManager } from "../lifecycle/HealthCheckManager.js";
import { ShutdownManager } from "../lifecycle/ShutdownManager.js";
import { GlobalMiddlewareManager } from "../middleware/GlobalMiddlewareManager.js";
import type { AppServing } from "../server/AppServing.js";
import { mountContext } from "./MountApp.js";
import { type AppParts, prepareApp } from "./PrepareApp.js";
import type { RootModule, StrataAppOptions } from "./StrataAppOptions.js";

/**
 * The whole app as one Layer (one, not several: each costs ~1 ms of startup): the `logger`
 * option for everything built and served with it, fresh managers, both stages. See
 * `StrataApp.layer`.
 */
export const appLayer = (
  root: RootModule,
  options: StrataAppOptions,
): Layer.Layer<Injector | AppServing, StartupError, HttpLayerRouter.HttpRouter> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const logger = options.logger;
      // Scoped to the Layer and seen by what builds it, so the server's requests log with it.
      if (logger !== undefined) {
        yield* Effect.locallyScopedWith(FiberRef.currentLoggers, (loggers) =>
          HashSet.add(HashSet.remove(loggers, Logger.defaultLogger), logger),
        );
      }
      const shutdownManager = new ShutdownManager();
      const parts: AppParts = {
        shutdownManager,
        healthCheckManager: new HealthCheckManager(shutdownManager),
        middlewareManager: new GlobalMiddlewareManager().use(...(options.globalMiddleware ?? [])),
        signal: () => undefined,
      };
      const prepared = yield* prepareApp(root, options, parts);
      return yield* mountContext(prepared, options, parts);
    }),
  );
