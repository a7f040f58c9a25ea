import type { InterceptorLike } from "../pipeline/Interceptor.js";
import { appendToList, type ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";
import { MetadataKey } from "./metadata.js";

/**
 * Interceptors around a controller's routes or one handler. They nest global, then
 * controller, then method, the first listed outermost: it sees the request first and the
 * result last.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UseInterceptors = (
  ...interceptors: ReadonlyArray<InterceptorLike>
): ClassOrMethodDecorator => appendToList(MetadataKey.interceptors, interceptors);
