/**
 * NestJS's `RequestMethod`: the HTTP methods a `MiddlewareConsumer` route (`{ path, method }`)
 * may name; `ALL` is any.
 *
 * @since 0.1.0
 * @category middleware
 */
export enum RequestMethod {
  GET = 0,
  POST = 1,
  PUT = 2,
  DELETE = 3,
  PATCH = 4,
  ALL = 5,
  OPTIONS = 6,
  HEAD = 7,
  SEARCH = 8,
}

/** The method name of a {@link RequestMethod}, `undefined` for `ALL`. */
export const methodName = (method: RequestMethod | undefined): string | undefined =>
  method === undefined || method === RequestMethod.ALL ? undefined : RequestMethod[method];
