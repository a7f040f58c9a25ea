import { MetadataKey } from "../di/metadata.js";
import type { FilterLike } from "../pipeline/ExceptionFilter.js";
import type { ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";
import { enhancerList } from "./enhancerList.js";

const UseFiltersKind = {
  decorator: "UseFilters",
  noun: "an exception filter",
  method: "catch",
  key: MetadataKey.filters,
};

/**
 * Exception filters for a controller's routes or one handler. On a failure the first
 * matching filter (see `@Catch`) handles it, looking at the method's, then the controller's,
 * then the global ones, each level in listed order.
 *
 * An argument that is neither a class nor an object with `catch()` (`undefined` from an
 * import cycle, say) throws at decoration time, naming the class, the method and its position.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UseFilters = (...filters: ReadonlyArray<FilterLike>): ClassOrMethodDecorator =>
  enhancerList(UseFiltersKind, filters);
