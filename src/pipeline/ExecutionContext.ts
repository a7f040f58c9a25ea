import type { RequestContext } from "../http/RequestContext.js";
import type { StrataResponse } from "../http/StrataResponse.js";

/**
 * The HTTP side of an {@link ArgumentsHost}: the request and the response of the call.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface HttpArgumentsHost {
  /**
   * The {@link RequestContext} (the object `@Req()` injects; a guard may set its `user`). As in
   * NestJS, a type argument says what the app knows is on it
   * (`getRequest<RequestContext & { tenant: string }>()`); it is not checked.
   */
  getRequest<T = RequestContext>(): T;
  /**
   * The {@link StrataResponse} of the request (the one `@Res()` injects). An exception filter
   * sends its response through it; headers set on it by a guard or an interceptor are added
   * to the handler's response. A type argument is taken as NestJS takes it, unchecked.
   */
  getResponse<T = StrataResponse>(): T;
}

/**
 * What an exception filter receives besides the exception (and what guards, interceptors and
 * custom parameter decorators get, as an {@link ExecutionContext}).
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface ArgumentsHost {
  /** The HTTP view of the request: its request and response objects. */
  switchToHttp(): HttpArgumentsHost;
  /** Always `"http"`: the only transport Strata serves. */
  getType(): "http";
  /** The handler's arguments as NestJS's HTTP adapters list them: `[request, response]`. */
  getArgs(): [RequestContext, StrataResponse];
  /** One of {@link getArgs}: 0 the request, 1 the response (else `undefined`). */
  getArgByIndex<T = RequestContext | StrataResponse>(index: number): T;
}

/**
 * What guards and interceptors receive: an {@link ArgumentsHost} that is also the request's
 * {@link RequestContext} (so `context.headers` and `context.switchToHttp().getRequest().headers`
 * are the same), plus the controller class and handler method the request is routed to (to
 * read metadata a custom decorator wrote).
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface ExecutionContext extends ArgumentsHost, RequestContext {
  /** The controller class of the handler being run. */
  getClass(): Function;
  /** The handler (the controller's method) being run. */
  getHandler(): Function;
}
