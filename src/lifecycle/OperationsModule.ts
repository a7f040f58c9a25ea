import type { DynamicModule } from "../di/Module.js";
import { HealthCheckManager } from "./HealthCheckManager.js";
import { ShutdownManager } from "./ShutdownManager.js";

class Operations {}

/**
 * A global module that makes the app's {@link ShutdownManager} and {@link HealthCheckManager}
 * injectable: import it once (in the root module) and any provider can take them in its
 * constructor to register shutdown handlers and health checks. In a `StrataApp` they are the
 * app's own (`app.shutdownManager`, `app.healthCheckManager`); compiled without an app (a
 * testing module), fresh ones.
 *
 * @example
 * @Injectable()
 * class Database implements OnModuleInit {
 *   constructor(private readonly health: HealthCheckManager) {}
 *   onModuleInit() {
 *     this.health.register({ name: "database", check: () => this.ping() });
 *   }
 *   async ping() {
 *     return true; // e.g. SELECT 1
 *   }
 * }
 *
 * @Module({ imports: [OperationsModule], providers: [Database] })
 * class AppModule {}
 *
 * @since 0.1.0
 * @category lifecycle
 */
export const OperationsModule: DynamicModule = {
  module: Operations,
  global: true,
  providers: [
    { token: ShutdownManager, useFactory: () => new ShutdownManager() },
    {
      token: HealthCheckManager,
      useFactory: (shutdown: ShutdownManager) => new HealthCheckManager(shutdown),
      inject: [ShutdownManager],
    },
  ],
  exports: [ShutdownManager, HealthCheckManager],
};
