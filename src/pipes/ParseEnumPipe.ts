import { PipeTransform } from "../pipeline/PipeTransform.js";
import { isNil, type ParsePipeOptions, rejection } from "./ParsePipeOptions.js";

/**
 * Passes a value of `enumType` (a TypeScript enum or an object of values) unchanged; anything
 * else fails with 400 `Validation failed (enum string is expected)`, as NestJS's. Values are
 * compared as they are: a query string `"1"` is not the numeric member `1`.
 *
 * @example
 * enum Sort {
 *   Newest = "newest",
 *   Oldest = "oldest",
 * }
 *
 * @Controller("posts")
 * class PostsController {
 *   @Get()
 *   list(@Query("sort", new ParseEnumPipe(Sort)) sort: Sort) {
 *     return { sort };
 *   }
 * }
 *
 * @since 0.1.0
 * @category pipes
 */
export class ParseEnumPipe<T extends object> extends PipeTransform<unknown, T[keyof T]> {
  private readonly values: ReadonlySet<unknown>;
  private readonly optional: boolean;
  private readonly rejected: () => unknown;

  constructor(enumType: T, options: ParsePipeOptions = {}) {
    super();
    if (typeof enumType !== "object" || enumType === null) {
      throw new Error(
        "ParseEnumPipe needs the enum to check values against: new ParseEnumPipe(MyEnum).",
      );
    }
    this.values = new Set(Object.values(enumType));
    this.optional = options.optional === true;
    this.rejected = rejection(options, "Validation failed (enum string is expected)");
  }

  transform(value: unknown): T[keyof T] {
    if (this.values.has(value)) return value as T[keyof T];
    if (this.optional && isNil(value)) return value as T[keyof T];
    throw this.rejected();
  }
}
