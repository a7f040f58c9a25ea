import { ExpressAdapter } from "../nest/ExpressAdapter.js";
import { type RootModule, StrataApp, type StrataAppOptions } from "./StrataApp.js";

/**
 * The options of NestJS's `(adapter?, options?)` arguments: an `ExpressAdapter` is checked (its
 * Express app must have no routes or middleware of its own) and then left aside.
 */
export const appOptions = (
  where: string,
  adapterOrOptions: ExpressAdapter | StrataAppOptions | undefined,
  options: StrataAppOptions | undefined,
): StrataAppOptions | undefined => {
  if (!(adapterOrOptions instanceof ExpressAdapter)) return adapterOrOptions ?? options;
  adapterOrOptions.checkUnused(where);
  return options;
};

/**
 * NestJS's `NestFactory`: `await NestFactory.create(AppModule, options)` is a {@link StrataApp}
 * whose providers are built (so `app.get(token)` works at once, as in NestJS), still to be
 * configured (`useGlobalPipes`...) and then `listen`ed. The options are Strata's.
 *
 * @example
 * declare class AppModule {} // the app's root module
 *
 * const app = await NestFactory.create(AppModule);
 * app.useGlobalPipes(new ValidationPipe());
 * await app.listen(3000);
 *
 * @since 0.1.0
 * @category app
 */
export class NestFactory {
  /**
   * A new app of `rootModule`, its providers built. An `ExpressAdapter` first is accepted for an
   * Express app without routes or middleware of its own (Strata serves the app itself).
   */
  static async create(
    rootModule: RootModule,
    adapterOrOptions?: ExpressAdapter | StrataAppOptions,
    options?: StrataAppOptions,
  ): Promise<StrataApp> {
    const app = new StrataApp(
      rootModule,
      appOptions("NestFactory.create", adapterOrOptions, options),
    );
    await app.initProviders();
    return app;
  }
}
