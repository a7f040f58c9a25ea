import type * as Schema from "effect/Schema";
import { appendToList } from "../decorators/ClassOrMethodDecorator.js";
import { OpenApiKey } from "../decorators/OpenApiMetadata.js";

/**
 * Options of {@link ApiResponse}: a status (or `"default"`), what it means, and the Schema of
 * its JSON body (`type`, as in NestJS; a `Schema.Class` DTO or any Schema; `isArray` for a list
 * of it).
 *
 * @since 0.1.0
 * @category openapi
 */
export interface ApiResponseOptions {
  readonly status: number | "default";
  readonly description?: string;
  readonly type?: Schema.Schema.All;
  readonly isArray?: boolean;
}

/**
 * Describes one response of a route (on a method) or of every route of a controller (on the
 * class; a method's own response for the same status wins). The default success response and
 * the standard error responses are described without it; this adds a body Schema or another
 * status. Records metadata only: the Schema is converted when the document is built.
 *
 * @example
 * class Book extends Schema.Class<Book>("Book")({ id: Schema.Number, title: Schema.String }) {}
 *
 * @Controller("books")
 * class BooksController {
 *   @Get(":id")
 *   @ApiResponse({ status: 200, type: Book })
 *   @ApiResponse({ status: 404, description: "No such book" })
 *   find(@Param("id", ParseIntPipe) id: number) {
 *     return new Book({ id, title: "Dune" });
 *   }
 * }
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiResponse = (options: ApiResponseOptions) =>
  appendToList(OpenApiKey.responses, [options]);

/** {@link ApiResponse} with status 200. @since 0.1.0 @category openapi */
export const ApiOkResponse = (options: Omit<ApiResponseOptions, "status"> = {}) =>
  ApiResponse({ ...options, status: 200 });

/** {@link ApiResponse} with status 201. @since 0.1.0 @category openapi */
export const ApiCreatedResponse = (options: Omit<ApiResponseOptions, "status"> = {}) =>
  ApiResponse({ ...options, status: 201 });
