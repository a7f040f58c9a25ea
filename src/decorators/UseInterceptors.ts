import { MetadataKey } from "../di/metadata.js";
import type { InterceptorLike } from "../pipeline/Interceptor.js";
import type { ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";
import { enhancerList } from "./enhancerList.js";

const UseInterceptorsKind = {
  decorator: "UseInterceptors",
  noun: "an interceptor",
  method: "intercept",
  key: MetadataKey.interceptors,
};

/**
 * Interceptors around a controller's routes or one handler. They nest global, then
 * controller, then method, the first listed outermost: it sees the request first and the
 * result last.
 *
 * An argument that is neither a class nor an object with `intercept()` (`undefined` from an
 * import cycle, say) throws at decoration time, naming the class, the method and its position.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UseInterceptors = (
  ...interceptors: ReadonlyArray<InterceptorLike>
): ClassOrMethodDecorator => enhancerList(UseInterceptorsKind, interceptors);
