import { PipeTransform } from "../pipeline/PipeTransform.js";
import { isNil, type ParsePipeOptions, rejection } from "./ParsePipeOptions.js";

/**
 * Converts a numeric string (or a finite number) to a number with `parseFloat`; anything else
 * (`"abc"`, `""`, `"Infinity"`) fails with 400 `Validation failed (numeric string is expected)`,
 * as NestJS's.
 *
 * @since 0.1.0
 * @category pipes
 */
export class ParseFloatPipe extends PipeTransform<unknown, number> {
  private readonly optional: boolean;
  private readonly rejected: () => unknown;

  constructor(options: ParsePipeOptions = {}) {
    super();
    this.optional = options.optional === true;
    this.rejected = rejection(options, "Validation failed (numeric string is expected)");
  }

  transform(value: unknown): number {
    if (
      (typeof value === "string" || typeof value === "number") &&
      Number.isFinite(Number(value))
    ) {
      const parsed = Number.parseFloat(String(value));
      if (!Number.isNaN(parsed)) return parsed;
    }
    if (this.optional && isNil(value)) return value as unknown as number;
    throw this.rejected();
  }
}
