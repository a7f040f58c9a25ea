import { middlewareRequestOf, shareMiddlewareRequest } from "../http/MiddlewareRequest.js";
import type {
  MiddlewareContext,
  MiddlewareNext,
  StrataMiddleware,
} from "../middleware/StrataMiddleware.js";

/**
 * What a {@link NestMiddleware} receives as `req`: the request's method, URL and headers
 * (names lower-cased), as Express spells them. As in Express, it is one object for every
 * middleware of the request, and what they add to it (`req.tenant = ...`, `req.user`) is on
 * the handler's `@Req()`.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface NestMiddlewareRequest {
  readonly method: string;
  /** The URL as the client sent it, query string included. */
  readonly url: string;
  /** The same as `url`. */
  readonly originalUrl: string;
  /** The URL's path, without the query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** A request header (any case). */
  get(name: string): string | undefined;
}

/**
 * What a {@link NestMiddleware} receives as `res`: it sets headers and learns the status once
 * the response is ready (`res.on("finish", ...)`). It cannot answer by itself: throw an
 * `HttpException` to answer with an error instead.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface NestMiddlewareResponse {
  /** The response's status: `200` until it is known (in a `"finish"` listener). */
  readonly statusCode: number;
  /** Adds a header to the response, whatever it is. */
  setHeader(name: string, value: string): this;
  /** `listener` runs once the response is ready (`"finish"` and `"close"` alike). */
  on(event: "finish" | "close", listener: () => void): this;
}

/**
 * NestJS's `NestMiddleware`: `use(req, res, next)`, applied with a module's
 * `configure(consumer)`. The request goes on when `next()` is called; `next(error)`, a thrown
 * error or a rejected Promise answers with that error (an `HttpException`'s status, else 500).
 *
 * @since 0.1.0
 * @category middleware
 */
export interface NestMiddleware {
  /** Handles the request NestJS's way: `(req, res, next)`, calling `next()` to go on. */
  use(
    req: NestMiddlewareRequest,
    res: NestMiddlewareResponse,
    next: (error?: unknown) => void,
  ): unknown;
}

/** A functional NestJS middleware: `(req, res, next) => ...`. @since 0.1.0 @category middleware */
export type NestMiddlewareFunction = NestMiddleware["use"];

/**
 * The `req` of `context`'s request, shared by its NestJS middleware: its own properties are
 * only those middleware add (the request's own are on its prototype), which the handler's
 * `@Req()` receives.
 */
const requestOf = (context: MiddlewareContext): NestMiddlewareRequest => {
  const shared = middlewareRequestOf(context.request);
  if (shared !== undefined) return shared as NestMiddlewareRequest;
  const base: NestMiddlewareRequest = {
    method: context.method,
    url: context.url,
    originalUrl: context.url,
    path: context.path,
    headers: context.headers,
    get: (name) => context.headers[name.toLowerCase()],
  };
  const req = Object.create(base) as NestMiddlewareRequest;
  shareMiddlewareRequest(context.request, req);
  return req;
};

/** The {@link StrataMiddleware} running a NestJS middleware's `use(req, res, next)`. */
export const fromNestMiddleware = (
  use: NestMiddlewareFunction,
  self?: unknown,
): StrataMiddleware => ({
  use(context: MiddlewareContext, next: MiddlewareNext): Promise<void> {
    const listeners: Array<() => void> = [];
    const req = requestOf(context);
    const res: NestMiddlewareResponse = {
      get statusCode() {
        return context.status ?? 200;
      },
      setHeader(name, value) {
        context.setHeader(name, value);
        return this;
      },
      on(_event, listener) {
        listeners.push(listener);
        return this;
      },
    };
    return new Promise<void>((resolve, reject) => {
      const proceed = (error?: unknown) => {
        if (error !== undefined && error !== null) return reject(error);
        next().then(() => {
          for (const listener of listeners) listener();
          resolve();
        }, reject);
      };
      try {
        const result: unknown = use.call(self, req, res, proceed);
        if (result instanceof Promise) result.catch(reject);
      } catch (error) {
        reject(error);
      }
    });
  },
});
