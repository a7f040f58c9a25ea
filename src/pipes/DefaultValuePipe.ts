import { PipeTransform } from "../pipeline/PipeTransform.js";
import { isNil } from "./ParsePipeOptions.js";

/**
 * Replaces a missing value (`undefined`, `null`, or `NaN`) with `defaultValue`, as NestJS's;
 * put it before a parse pipe: `@Query("page", new DefaultValuePipe(1), ParseIntPipe)`.
 *
 * @since 0.1.0
 * @category pipes
 */
export class DefaultValuePipe<T = unknown, R = unknown> extends PipeTransform<
  T | null | undefined,
  T | R
> {
  constructor(readonly defaultValue: R) {
    super();
  }

  transform(value: T | null | undefined): T | R {
    if (isNil(value) || (typeof value === "number" && Number.isNaN(value)))
      return this.defaultValue;
    return value;
  }
}
