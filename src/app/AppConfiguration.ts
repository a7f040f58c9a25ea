import type { BodyType } from "../http/RequestBody.js";
import { CorsMiddleware } from "../middleware/CorsMiddleware.js";
import type { CorsOptions, CorsOptionsDelegate } from "../middleware/CorsOptions.js";
import type {
  GlobalMiddlewareManager,
  MiddlewareLike,
} from "../middleware/GlobalMiddlewareManager.js";
import { checkOptions } from "../middleware/internal/corsDecision.js";
import type { GuardLike } from "../pipeline/CanActivate.js";
import type { FilterLike } from "../pipeline/ExceptionFilter.js";
import type { InterceptorLike } from "../pipeline/Interceptor.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import type { VersioningOptions } from "../pipeline/Versioning.js";
import type { AppSettings } from "./AppSettings.js";
import type { BodyParserOptions } from "./BodyParserOptions.js";
import type { GlobalPrefixOptions } from "./GlobalPrefix.js";

/**
 * The configuration methods of a `StrataApp`, NestJS's (`useGlobalGuards`, `use`, `enableCors`,
 * `setGlobalPrefix`, `useBodyParser`, ...): what they add joins the app's middleware or its
 * options (`settings`), which refuse it once it could no longer take effect.
 */
export abstract class AppConfiguration {
  /** The app-wide middleware; `app.use(...)` registers here. */
  abstract readonly middlewareManager: GlobalMiddlewareManager;
  /** The app's options, and what these methods added. */
  protected abstract readonly settings: AppSettings;

  /** Adds app-wide guards, run before every route's own (call before `init`/`listen`). */
  useGlobalGuards(...guards: ReadonlyArray<GuardLike>): this {
    this.settings.addToPipeline("globalGuards", guards);
    return this;
  }

  /** Adds app-wide pipes, run first on every pipeable argument (call before `init`/`listen`). */
  useGlobalPipes(...pipes: ReadonlyArray<PipeLike>): this {
    this.settings.addToPipeline("globalPipes", pipes);
    return this;
  }

  /** Adds app-wide interceptors, the outermost of every route (call before `init`/`listen`). */
  useGlobalInterceptors(...interceptors: ReadonlyArray<InterceptorLike>): this {
    this.settings.addToPipeline("globalInterceptors", interceptors);
    return this;
  }

  /** Adds app-wide exception filters, consulted last (call before `init`/`listen`). */
  useGlobalFilters(...filters: ReadonlyArray<FilterLike>): this {
    this.settings.addToPipeline("globalFilters", filters);
    return this;
  }

  /**
   * Adds app-wide middleware, run around every request (unmatched ones included) in
   * registration order, the first outermost; with a path prefix first, only around requests
   * under it: `app.use("/admin", AdminMiddleware)`. Call before `listen`.
   */
  use(...middleware: ReadonlyArray<MiddlewareLike>): this;
  use(prefix: string, ...middleware: ReadonlyArray<MiddlewareLike>): this;
  use(...args: ReadonlyArray<string | MiddlewareLike>): this {
    const [first, ...rest] = args;
    if (typeof first === "string") {
      this.middlewareManager.use(first, ...(rest as ReadonlyArray<MiddlewareLike>));
    } else {
      this.middlewareManager.use(...(args as ReadonlyArray<MiddlewareLike>));
    }
    return this;
  }

  /**
   * NestJS's `app.enableCors(options)`: `app.use(new CorsMiddleware(options))`, with the `cors`
   * package's options (origins matched exactly) or a delegate `(req, callback) =>
   * callback(null, options)` deciding per request. Options that are not valid throw here,
   * saying why. Call before `listen`.
   */
  enableCors(options?: CorsOptions | CorsOptionsDelegate): this {
    const problem = checkOptions(options);
    if (problem !== undefined) throw problem;
    return this.use(new CorsMiddleware(options));
  }

  /**
   * NestJS's `app.enableShutdownHooks(signals)`: the signals that shut the app down gracefully
   * (`shutdown.signals`; SIGTERM and SIGINT by default, listened to even without this call).
   */
  enableShutdownHooks(signals: ReadonlyArray<NodeJS.Signals> = ["SIGTERM", "SIGINT"]): this {
    this.settings.setShutdownSignals(signals);
    return this;
  }

  /**
   * NestJS's `app.setGlobalPrefix("api", { exclude: ["health"] })`: every controller route under
   * `/api`, but those excluded (call before `init`/`listen`). Routes modules contribute (OAuth's)
   * keep their paths; the health probes' default paths move under the prefix too, unless
   * excluded.
   */
  setGlobalPrefix(prefix: string, options?: Omit<GlobalPrefixOptions, "prefix">): this {
    this.settings.setGlobalPrefix(prefix, options);
    return this;
  }

  /**
   * NestJS's `app.useBodyParser(type, { limit })`: the size limit of one type of body (`json`,
   * `urlencoded`, `text`, or `raw` for any other type), in bytes or as `"100kb"`/`"1mb"`; larger
   * bodies get 413. Strata parses every body itself, so only `limit` is taken (and urlencoded's
   * `extended`, though the form parser stays flat: `a[b]=1` is `{ "a[b]": "1" }`); anything
   * else throws, saying why. Call before `init`/`listen`.
   */
  useBodyParser(type: BodyType, options: BodyParserOptions = {}): this {
    this.settings.setBodyParser(type, options);
    return this;
  }

  /** Not supported: Express's `app.locals` (`setLocal`). Throws saying what to use. */
  setLocal(_key: string, _value: unknown): never {
    throw new Error(
      "app.setLocal() is not supported: Strata has no Express app.locals. Keep app-wide values in a provider (useValue) and inject it.",
    );
  }

  /** Not supported: NestJS microservices (`connectMicroservice`). Throws saying so. */
  connectMicroservice(_options: unknown): never {
    throw new Error(
      "app.connectMicroservice() is not supported: Strata serves HTTP only (microservices are out of its scope).",
    );
  }

  /** Routes requests by API version (call before `init`/`listen`). */
  enableVersioning(versioning: VersioningOptions): this {
    this.settings.configurePipeline({ versioning });
    return this;
  }
}
