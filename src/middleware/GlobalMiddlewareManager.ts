import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { Injector } from "../di/Injector.js";
import { StartupError } from "../di/StartupError.js";
import { type Type, tokenName } from "../di/Token.js";
import { enhancerResolver } from "../pipeline/internal/enhancers.js";
import { EffectMiddleware } from "./EffectMiddleware.js";
import * as Middleware from "./Middleware.js";
import { normalizePrefix } from "./RequestInfo.js";
import { fromStrataMiddleware, type StrataMiddleware } from "./StrataMiddleware.js";

/**
 * A middleware given to `app.use(...)`: an Effect `HttpMiddleware`, a built-in (or any
 * {@link EffectMiddleware}) instance, a classic {@link StrataMiddleware} instance, or a class of
 * either kind, which the app creates once through dependency injection.
 *
 * @since 0.1.0
 * @category middleware
 */
export type MiddlewareLike =
  | HttpMiddleware.HttpMiddleware
  | EffectMiddleware
  | StrataMiddleware
  | Type<EffectMiddleware>
  | Type<StrataMiddleware>;

/** A registered middleware and the path prefix it is limited to (`undefined`: every request). */
interface Entry {
  readonly prefix: string | undefined;
  readonly middleware: MiddlewareLike;
}

const isMiddlewareClass = (
  value: MiddlewareLike,
): value is Type<EffectMiddleware> | Type<StrataMiddleware> => {
  if (typeof value !== "function") return false;
  const prototype: unknown = value.prototype;
  return (
    prototype instanceof EffectMiddleware ||
    (typeof prototype === "object" &&
      prototype !== null &&
      typeof (prototype as Partial<StrataMiddleware>).use === "function")
  );
};

const describe = (value: unknown, index: number) =>
  typeof value === "function" && value.name !== "" ? value.name : `middleware #${index + 1}`;

/** The `HttpMiddleware` of a middleware instance (or of a raw function). */
const toHttpMiddleware = (
  value: unknown,
  where: string,
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope> => {
  if (value instanceof EffectMiddleware) return value.build();
  if (typeof value === "object" && value !== null) {
    if (typeof (value as Partial<StrataMiddleware>).use === "function") {
      return Effect.succeed(fromStrataMiddleware(value as StrataMiddleware));
    }
  } else if (typeof value === "function") {
    return Effect.succeed(value as HttpMiddleware.HttpMiddleware);
  }
  return new StartupError({
    message: `${where} is not a middleware: expected an HttpMiddleware, an EffectMiddleware, or an object with use(context, next)`,
  });
};

/**
 * The app-wide middleware of a `StrataApp`, in registration order: the first registered runs
 * first (outermost). Each one may be limited to a path prefix. `app.use(...)` registers here;
 * the list is built once, when the app starts listening (classes resolved through dependency
 * injection, built-ins built in the app's scope) and then runs around every request, unmatched
 * ones included, without leaving the server's fast path.
 *
 * @example
 * declare const app: StrataApp;
 * declare class AdminOnlyMiddleware implements StrataMiddleware {
 *   use(context: MiddlewareContext): void;
 * }
 *
 * app.middlewareManager
 *   .use(new CorsMiddleware({ origin: "https://app.example.com" }), LoggerMiddleware)
 *   .use("/admin", AdminOnlyMiddleware);
 *
 * @since 0.1.0
 * @category middleware
 */
export class GlobalMiddlewareManager {
  private readonly entries: Array<Entry> = [];
  private built = false;

  /** Registers middleware for every request. */
  use(...middleware: ReadonlyArray<MiddlewareLike>): this;
  /** Registers middleware for requests under `prefix` only (`/admin` covers `/admin/...`). */
  use(prefix: string, ...middleware: ReadonlyArray<MiddlewareLike>): this;
  use(...args: ReadonlyArray<string | MiddlewareLike>): this {
    if (this.built) throw new Error("Register middleware before the app starts listening");
    const [first, ...rest] = args;
    const prefix = typeof first === "string" ? normalizePrefix(first) : undefined;
    const list = (typeof first === "string" ? rest : args) as ReadonlyArray<MiddlewareLike>;
    for (const middleware of list) this.entries.push({ prefix, middleware });
    return this;
  }

  /** The number of registered middleware. */
  get size(): number {
    return this.entries.length;
  }

  /**
   * Resolves and builds every registered middleware, then composes them (first outermost);
   * `undefined` when there is none. Runs once, in the app's scope.
   */
  build(
    injector: Injector,
  ): Effect.Effect<HttpMiddleware.HttpMiddleware | undefined, StartupError, Scope.Scope> {
    this.built = true;
    const resolve = enhancerResolver(injector);
    return Effect.forEach(this.entries, ({ prefix, middleware }, index) => {
      const where = `global middleware ${describe(middleware, index)}`;
      const instance = isMiddlewareClass(middleware)
        ? Effect.flatMap(resolve<unknown>(middleware, where), (ref) =>
            ref._tag === "Instance"
              ? Effect.succeed<unknown>(ref.instance)
              : new StartupError({
                  message: `${tokenName(middleware)} (${where}) cannot be request-scoped: middleware is created once per app`,
                }),
          )
        : Effect.succeed<unknown>(middleware);
      return Effect.map(
        Effect.flatMap(instance, (value) => toHttpMiddleware(value, where)),
        (built) => (prefix === undefined ? built : Middleware.forPrefix(prefix, built)),
      );
    }).pipe(Effect.map((list) => (list.length === 0 ? undefined : Middleware.compose(...list))));
  }
}
