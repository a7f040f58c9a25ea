import { CorsMiddleware } from "../middleware/CorsMiddleware.js";
import type { CorsOptions, CorsOptionsDelegate } from "../middleware/CorsOptions.js";
import { checkOptions } from "../middleware/internal/corsDecision.js";
import { ExpressAdapter } from "./ExpressAdapter.js";
import { type RootModule, StrataApp, type StrataAppOptions } from "./StrataApp.js";

/**
 * The options of `NestFactory.create` and `createNestApplication`: a `StrataApp`'s, and NestJS's
 * `cors` (`true`, the `cors` package's options or a delegate), which is `app.enableCors(cors)`.
 *
 * @since 0.1.0
 * @category app
 */
export interface NestApplicationOptions extends StrataAppOptions {
  /** `app.enableCors(...)` at creation: `true` for the defaults, options, or a delegate. */
  readonly cors?: boolean | CorsOptions | CorsOptionsDelegate;
}

/** `options` with `cors` turned into the first app-wide middleware (its options checked now). */
const withCors = (options: NestApplicationOptions): StrataAppOptions => {
  const { cors, ...rest } = options;
  if (cors === undefined || cors === false) return rest;
  const corsOptions = cors === true ? undefined : cors;
  const problem = checkOptions(corsOptions);
  if (problem !== undefined) throw problem;
  return {
    ...rest,
    globalMiddleware: [new CorsMiddleware(corsOptions), ...(rest.globalMiddleware ?? [])],
  };
};

/**
 * Another NestJS HTTP adapter given where options are expected (`new FastifyAdapter()`): an object
 * with the adapter's methods, which no options object has. Named in the error it gets.
 */
const otherAdapterName = (value: unknown): string | undefined => {
  if (typeof value !== "object" || value === null) return undefined;
  const adapter = value as { readonly getInstance?: unknown; readonly listen?: unknown };
  if (typeof adapter.getInstance !== "function" && typeof adapter.listen !== "function") {
    return undefined;
  }
  return value.constructor?.name || "this HTTP adapter";
};

/**
 * The options of NestJS's `(adapter?, options?)` arguments: an `ExpressAdapter` is checked (its
 * Express app must have no routes or middleware of its own) and then left aside; any other
 * adapter (`FastifyAdapter`) is refused, naming it and what to use.
 */
export const appOptions = (
  where: string,
  adapterOrOptions: ExpressAdapter | NestApplicationOptions | undefined,
  options: NestApplicationOptions | undefined,
): StrataAppOptions | undefined => {
  const other = otherAdapterName(adapterOrOptions);
  if (other !== undefined && !(adapterOrOptions instanceof ExpressAdapter)) {
    throw new Error(
      `${where}: ${other} is not supported: Strata serves HTTP with its own engine (no Fastify or other adapter). Leave the adapter out; test with app.getHttpServer() and supertest, or Strata's request() from effect-strata/testing, instead of app.inject().`,
    );
  }
  const isAdapter = adapterOrOptions instanceof ExpressAdapter;
  if (isAdapter) adapterOrOptions.checkUnused(where);
  const given = isAdapter ? options : (adapterOrOptions ?? options);
  return given === undefined ? undefined : withCors(given);
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
    adapterOrOptions?: ExpressAdapter | NestApplicationOptions,
    options?: NestApplicationOptions,
  ): Promise<StrataApp> {
    const app = new StrataApp(
      rootModule,
      appOptions("NestFactory.create", adapterOrOptions, options),
    );
    await app.initProviders();
    return app;
  }
}
