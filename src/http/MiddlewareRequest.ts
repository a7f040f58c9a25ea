import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";

/**
 * Where the `req` NestJS middleware share for one request is kept: on the platform request
 * itself, so that every middleware of the request gets the same object (as Express's `req`),
 * and the handler's `@Req()` sees what they added. A request no NestJS middleware ran for has
 * none, and the route only pays one missed property read.
 */
const Key: unique symbol = Symbol.for("effect-strata/MiddlewareRequest");

type Holder = { [Key]?: object };

/** The `req` NestJS middleware already share for `request`, if one ran. */
export const middlewareRequestOf = (
  request: HttpServerRequest.HttpServerRequest,
): object | undefined => (request as Holder)[Key];

/** Makes `req` the object every NestJS middleware of `request` receives. */
export const shareMiddlewareRequest = (
  request: HttpServerRequest.HttpServerRequest,
  req: object,
): void => {
  Object.defineProperty(request, Key, { value: req, configurable: true });
};

/**
 * Copies onto `target` (the handler's request) what middleware added to their `req`: every own
 * property `target` does not already have, and `user` (an authentication middleware's, as
 * Passport sets it) unless a guard already set one. Run once per request, only for a request
 * some NestJS middleware ran for.
 */
export const copyMiddlewareProperties = (from: object, target: object): void => {
  for (const key of Reflect.ownKeys(from)) {
    if (key in target && (key !== "user" || Reflect.get(target, key) !== undefined)) continue;
    Reflect.set(target, key, Reflect.get(from, key));
  }
};
