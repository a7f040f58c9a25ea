import type { Server } from "node:http";
import type * as HttpServer from "@effect/platform/HttpServer";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Scope from "effect/Scope";
import type { Injector } from "../di/Injector.js";
import type { ModuleRef } from "../di/ModuleRef.js";
import { onShutdownSignals } from "../lifecycle/ShutdownSignals.js";
import { httpServerFront } from "./HttpServerFront.js";
import { listenFailure, listenOnPort } from "./ListenOnPort.js";
import {
  type AppParts,
  type AppProviders,
  type PreparedApp,
  prepareProviders,
  prepareRoutes,
} from "./PrepareApp.js";
import { rethrow, runWithLogger } from "./RunEffect.js";
import { serverUrl, urlTarget } from "./ServerUrl.js";
import type { RootModule, StrataAppOptions } from "./StrataAppOptions.js";

/** What a `StrataApp` runs with: its managers (`AppParts` but the signal) and its current options. */
export interface AppRuntimeOptions {
  readonly rootModule: RootModule;
  readonly options: () => StrataAppOptions;
  readonly parts: Omit<AppParts, "signal">;
}

/**
 * The running side of a `StrataApp`: its providers built (`initProviders`), its routes compiled
 * (`init`), its server listening (`listen`), and all of it closed again (`stop`), in one scope.
 */
export class AppRuntime {
  private scope: Scope.CloseableScope | undefined;
  /** The app's providers, once built. */
  providers: AppProviders | undefined;
  /** The injector of a closed app: `get` still hands out the instances it had, as NestJS's. */
  private closedInjector: Injector | undefined;
  /** The app's compiled routes, once `init` ran. */
  prepared: PreparedApp | undefined;
  /** The listening server. */
  server: HttpServer.HttpServer | undefined;
  /** The host `listen` was given (none: node's default, every interface). */
  listenHost: string | undefined;
  private closing: Promise<void> | undefined;
  private signal: string | undefined;
  private stopListeningForSignals: (() => void) | undefined;
  private front: Server | undefined;
  private readonly parts: AppParts;

  constructor(private readonly app: AppRuntimeOptions) {
    this.parts = { ...app.parts, signal: () => this.signal };
  }

  /** Runs an Effect of the facade with the app's logger. */
  private run<A, E>(effect: Effect.Effect<A, E>): Promise<Exit.Exit<A, E>> {
    return runWithLogger(effect, this.app.options().logger);
  }

  /** Builds the providers once (module graph, singletons, `onModuleInit`) in a new scope. */
  async initProviders(): Promise<void> {
    if (this.providers !== undefined) return;
    const scope = Effect.runSync(Scope.make());
    const exit = await this.run(
      Scope.extend(prepareProviders(this.app.rootModule, this.app.options(), this.parts), scope),
    );
    if (Exit.isFailure(exit)) {
      await this.run(Scope.close(scope, exit));
      return rethrow(exit.cause);
    }
    this.scope = scope;
    this.providers = exit.value;
  }

  /** Builds the providers, then compiles the routes, once; a failure closes the app. */
  async init(): Promise<void> {
    if (this.prepared !== undefined) return;
    await this.initProviders();
    const options = this.app.options();
    const exit = await this.run(prepareRoutes(this.providers as AppProviders, options));
    if (Exit.isFailure(exit)) {
      await this.stop(undefined);
      return rethrow(exit.cause);
    }
    this.prepared = exit.value;
  }

  /** `init`, then listens on `port`, then shuts down on the shutdown signals. */
  async serve(port: number, host: string | undefined): Promise<void> {
    await this.init();
    if (this.server !== undefined) throw new Error("This app is already listening");
    const target = { port, host, prepared: this.prepared as PreparedApp, parts: this.parts };
    const exit = await this.run(
      listenOnPort(this.scope as Scope.CloseableScope, { ...target, options: this.app.options() }),
    );
    if (Exit.isFailure(exit)) throw listenFailure(exit.cause);
    this.server = exit.value;
    this.listenHost = host;
    const signals = this.app.options().shutdown?.signals ?? ["SIGTERM", "SIGINT"];
    if (signals !== false && signals.length > 0) {
      this.stopListeningForSignals = onShutdownSignals(signals, (signal) => this.stop(signal));
    }
  }

  /** Shuts the app down once (concurrent calls share it), `signal` the one that stopped it, if any. */
  stop(signal: string | undefined): Promise<void> {
    this.closing ??= (async () => {
      // Readiness is down before the server stops accepting connections.
      this.app.parts.shutdownManager.setShuttingDown(true);
      const scope = this.scope;
      this.scope = undefined;
      this.closedInjector = this.providers?.injector ?? this.closedInjector;
      this.providers = undefined;
      this.prepared = undefined;
      this.server = undefined;
      this.signal = signal;
      const front = this.front;
      this.front = undefined;
      front?.close();
      try {
        if (scope !== undefined) await this.run(Scope.close(scope, Exit.void));
      } finally {
        this.stopListeningForSignals?.();
        this.stopListeningForSignals = undefined;
        this.closing = undefined;
      }
    })();
    return this.closing;
  }

  /** The app's {@link ModuleRef} (its providers built, or closed). */
  moduleRef(): ModuleRef {
    const injector = this.providers?.injector ?? this.closedInjector;
    if (injector === undefined) {
      throw new Error("Build the providers first: NestFactory.create(...), or await app.init()");
    }
    return injector.moduleRef;
  }

  /** The base URL of the listening server. */
  url(): string {
    return serverUrl(this.server?.address, this.listenHost === undefined);
  }

  /** The node `http.Server` in front of the app, listening on a loopback port when first connected. */
  httpServer(): Server {
    this.front ??= httpServerFront(async () => {
      if (this.server === undefined) await this.serve(0, "127.0.0.1");
      return urlTarget(this.url());
    });
    return this.front;
  }
}
