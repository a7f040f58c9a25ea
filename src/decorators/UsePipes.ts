import { MetadataKey } from "../di/metadata.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import type { ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";
import { enhancerList } from "./enhancerList.js";

const UsePipesKind = {
  decorator: "UsePipes",
  noun: "a pipe",
  method: "transform",
  key: MetadataKey.pipes,
};

/**
 * Pipes for every body, query, path-parameter and uploaded-file argument of a controller's
 * routes or of one handler. Per argument, pipes run global, then controller, then method,
 * then the argument's own (`@Param("id", ParseIntPipe)`), each in listed order.
 *
 * An argument that is neither a class nor an object with `transform()` (`undefined` from an
 * import cycle, say) throws at decoration time, naming the class, the method and its position.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UsePipes = (...pipes: ReadonlyArray<PipeLike>): ClassOrMethodDecorator =>
  enhancerList(UsePipesKind, pipes);
