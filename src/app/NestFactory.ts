import { type RootModule, StrataApp, type StrataAppOptions } from "./StrataApp.js";

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
  /** A new app of `rootModule`, its providers built. */
  static async create(rootModule: RootModule, options?: StrataAppOptions): Promise<StrataApp> {
    const app = new StrataApp(rootModule, options);
    await app.initProviders();
    return app;
  }
}
