import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Runtime from "effect/Runtime";
import { fromUserCode } from "../http/UserCode.js";
import { childRuntime } from "../server/internal/FastPath.js";
import * as Middleware from "./Middleware.js";
import { requestPath } from "./RequestInfo.js";

/**
 * What a classic middleware sees of a request, and how it adds headers to the response.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface MiddlewareContext {
  readonly method: string;
  /** The URL as the client sent it, query string included. */
  readonly url: string;
  /** The URL's path, without the query string. */
  readonly path: string;
  /** Request headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The `@effect/platform` request. */
  readonly request: HttpServerRequest.HttpServerRequest;
  /** The status of the response `next()` produced; `undefined` before it resolved. */
  readonly status: number | undefined;
  /** Adds a header to the response, whatever it is (error responses included). */
  setHeader(name: string, value: string): void;
}

/**
 * Runs the rest of the app (inner middleware, then the route) and resolves when its response
 * is ready; afterwards `context.status` holds its status.
 *
 * @since 0.1.0
 * @category middleware
 */
export type MiddlewareNext = () => Promise<void>;

/**
 * A classic middleware (NestJS's `NestMiddleware`): runs around every request it is applied to.
 * Throwing (or rejecting, or failing) with an `HttpError` answers with that error; anything
 * else thrown is a 500. Calling `next()` is optional: when `use` returns without having called
 * it, the request goes on once `use` is done. `use` may return nothing, a Promise or an
 * Effect; when what it gives is an `HttpServerResponse`, that is the answer and the app does
 * not run (or is interrupted). Classes are created once at startup through dependency
 * injection.
 *
 * @example
 * declare const app: StrataApp;
 * declare class ApiKeys { // a provider of the app
 *   valid(key: string | undefined): boolean;
 * }
 *
 * @Injectable()
 * class ApiKeyMiddleware implements StrataMiddleware {
 *   constructor(private readonly keys: ApiKeys) {}
 *   use(context: MiddlewareContext) {
 *     if (!this.keys.valid(context.headers["x-api-key"])) throw new UnauthorizedError();
 *   }
 * }
 * app.use("/admin", ApiKeyMiddleware);
 *
 * @since 0.1.0
 * @category middleware
 */
export interface StrataMiddleware {
  /**
   * Handles the request: call `next()` to go on to the handler, or answer without calling it
   * (by returning an `HttpServerResponse`, or throwing an `HttpError`).
   */
  use(context: MiddlewareContext, next: MiddlewareNext): unknown;
}

/**
 * The `HttpMiddleware` running a classic {@link StrataMiddleware}. `next()` runs the inner app
 * on a fiber forked from the request's (same services, same fiber refs), interrupted if the
 * request is.
 *
 * @since 0.1.0
 * @category middleware
 */
export const fromStrataMiddleware = (middleware: StrataMiddleware) =>
  Middleware.make((app) =>
    Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, unknown, unknown>((parent) => {
      const request = Context.unsafeGet(parent.currentContext, HttpServerRequest.HttpServerRequest);
      const added: Array<readonly [string, string]> = [];
      let inner: Fiber.RuntimeFiber<HttpServerResponse.HttpServerResponse, unknown> | undefined;
      let done: Promise<void> | undefined;
      let response: HttpServerResponse.HttpServerResponse | undefined;
      const context: MiddlewareContext = {
        method: request.method,
        url: request.originalUrl,
        path: requestPath(request),
        headers: request.headers,
        request,
        get status() {
          return response?.status;
        },
        setHeader(name, value) {
          added.push([name, value]);
        },
      };
      const next: MiddlewareNext = () => {
        if (done !== undefined) return done;
        // The parent's context is the request's: it holds everything `app` needs.
        const fiber = Runtime.runFork(childRuntime(parent))(
          app as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>,
        );
        inner = fiber;
        done = new Promise((resolve, reject) => {
          fiber.addObserver((exit) => {
            if (Exit.isSuccess(exit)) {
              response = exit.value;
              resolve();
            } else reject(Cause.squash(exit.cause));
          });
        });
        // A middleware that calls next() without awaiting it must not crash the process.
        done.catch(() => undefined);
        return done;
      };
      return fromUserCode(() => middleware.use(context, next)).pipe(
        Effect.flatMap((result) =>
          HttpServerResponse.isServerResponse(result)
            ? inner === undefined
              ? Effect.succeed(result)
              : Effect.as(Fiber.interrupt(inner), result)
            : inner === undefined
              ? app
              : Fiber.join(inner),
        ),
        Effect.map((result) =>
          added.length === 0 ? result : HttpServerResponse.setHeaders(result, added),
        ),
        Effect.onExit((exit) =>
          Exit.isFailure(exit) && inner !== undefined ? Fiber.interrupt(inner) : Effect.void,
        ),
      );
    }),
  );
