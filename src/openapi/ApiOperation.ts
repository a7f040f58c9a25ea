import { OpenApiKey, type OperationMetadata } from "../decorators/OpenApiMetadata.js";
import { writeMetadata } from "../di/metadata.js";

/**
 * Options of {@link ApiOperation}: what the route's types cannot say.
 *
 * @since 0.1.0
 * @category openapi
 */
export interface ApiOperationOptions extends OperationMetadata {}

/**
 * Describes a route in the API document: its summary, description, `operationId` (default
 * `Controller.method`), extra tags, and whether it is deprecated. Records metadata only.
 *
 * @example
 * @Controller("books")
 * class BooksController {
 *   @Get(":id")
 *   @ApiOperation({ summary: "One book", deprecated: true })
 *   find(@Param("id", ParseIntPipe) id: number) {
 *     return { id };
 *   }
 * }
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiOperation =
  (options: ApiOperationOptions): MethodDecorator =>
  (target, handler) => {
    writeMetadata(OpenApiKey.operation, options, target, handler);
  };
