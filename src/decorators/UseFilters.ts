import type { FilterLike } from "../pipeline/ExceptionFilter.js";
import { appendToList, type ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";
import { MetadataKey } from "./metadata.js";

/**
 * Exception filters for a controller's routes or one handler. On a failure the first
 * matching filter (see `@Catch`) handles it, looking at the method's, then the controller's,
 * then the global ones, each level in listed order.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UseFilters = (...filters: ReadonlyArray<FilterLike>): ClassOrMethodDecorator =>
  appendToList(MetadataKey.filters, filters);
