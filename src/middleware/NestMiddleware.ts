import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { middlewareRequestOf, shareMiddlewareRequest } from "../http/MiddlewareRequest.js";
import { makeMiddlewareResponse, type NestMiddlewareResponse } from "./NestMiddlewareResponse.js";
import type { MiddlewareContext, MiddlewareNext, StrataMiddleware } from "./StrataMiddleware.js";

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
 * NestJS's `NestMiddleware`: `use(req, res, next)`, applied with a module's
 * `configure(consumer)`. The request goes on when `next()` is called; answering with `res`
 * (`res.send(...)`, `res.status(201).json(...)`, `res.end()`) is the response instead, and the
 * handler does not run; `next(error)`, a thrown error or a rejected Promise answers with that
 * error (an `HttpException`'s status, else 500).
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

export type { NestMiddlewareResponse } from "./NestMiddlewareResponse.js";

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
  use(
    context: MiddlewareContext,
    next: MiddlewareNext,
  ): Promise<HttpServerResponse.HttpServerResponse | undefined> {
    const listeners: Array<() => void> = [];
    const req = requestOf(context);
    let finished = false;
    return new Promise((resolve, reject) => {
      const done = (response?: HttpServerResponse.HttpServerResponse) => {
        resolve(response);
        for (const listener of listeners) listener();
      };
      const res = makeMiddlewareResponse({
        context,
        answer: done,
        finished: () => finished,
        listeners,
      });
      const proceed = (error?: unknown) => {
        if (res.headersSent) return;
        if (error !== undefined && error !== null) return reject(error);
        next().then(() => {
          finished = true;
          done();
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
