import type { PipeLike } from "../pipes/PipeTransform.js";
import { appendToList, type ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";
import { MetadataKey } from "./metadata.js";

/**
 * Pipes for every body, query, path-parameter and uploaded-file argument of a controller's
 * routes or of one handler. Per argument, pipes run global, then controller, then method,
 * then the argument's own (`@Param("id", ParseIntPipe)`), each in listed order.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UsePipes = (...pipes: ReadonlyArray<PipeLike>): ClassOrMethodDecorator =>
  appendToList(MetadataKey.pipes, pipes);
