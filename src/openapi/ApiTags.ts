import { appendToList } from "../decorators/ClassOrMethodDecorator.js";
import { OpenApiKey } from "../decorators/OpenApiMetadata.js";

/**
 * Tags of a controller's routes (on the class) or of one route. Without any, a route is
 * tagged with its controller's name less `Controller` (`BooksController` -> `Books`).
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiTags = (...tags: ReadonlyArray<string>) => appendToList(OpenApiKey.tags, tags);
