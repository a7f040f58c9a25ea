import { PipeTransform } from "../pipeline/PipeTransform.js";
import { isNil, type ParsePipeOptions, rejection } from "./ParsePipeOptions.js";

/**
 * Converts `"true"` / `"false"` (or a boolean) to a boolean; anything else fails with 400
 * `Validation failed (boolean string is expected)`, as NestJS's.
 *
 * @since 0.1.0
 * @category pipes
 */
export class ParseBoolPipe extends PipeTransform<unknown, boolean> {
  private readonly optional: boolean;
  private readonly rejected: () => unknown;

  constructor(options: ParsePipeOptions = {}) {
    super();
    this.optional = options.optional === true;
    this.rejected = rejection(options, "Validation failed (boolean string is expected)");
  }

  transform(value: unknown): boolean {
    if (value === true || value === "true") return true;
    if (value === false || value === "false") return false;
    if (this.optional && isNil(value)) return value as unknown as boolean;
    throw this.rejected();
  }
}
