import { PipeTransform } from "../pipeline/PipeTransform.js";
import { isNil, type ParsePipeOptions, rejection } from "./ParsePipeOptions.js";

const integer = /^[-+]?\d+$/;
const message = "Validation failed (numeric string is expected)";
// One rejection for every request: only its response is used, and capturing a new Error's
// stack on the request path doubled the CPU a rejected request costs (12 -> 6 us in-process).
const notAnInteger = rejection({}, message);

/**
 * Converts a decimal integer string (or an integer number, such as a `DefaultValuePipe`'s) to a
 * number; anything else (including values past `Number.MAX_SAFE_INTEGER`) fails with 400
 * `Validation failed (numeric string is expected)`. Options as NestJS's: `optional` lets `null`
 * and `undefined` through, `errorHttpStatusCode` and `exceptionFactory` change the error.
 *
 * @since 0.1.0
 * @category pipes
 */
export class ParseIntPipe extends PipeTransform<unknown, number> {
  private readonly optional: boolean;
  private readonly rejected: () => unknown;

  constructor(options: ParsePipeOptions = {}) {
    super();
    this.optional = options.optional === true;
    this.rejected =
      options.exceptionFactory === undefined && options.errorHttpStatusCode === undefined
        ? notAnInteger
        : rejection(options, message);
  }

  transform(value: unknown): number {
    if (typeof value === "string" && integer.test(value)) {
      const parsed = Number(value);
      if (Number.isSafeInteger(parsed)) return parsed;
    } else if (typeof value === "number" && Number.isSafeInteger(value)) {
      return value;
    }
    if (this.optional && isNil(value)) return value as unknown as number;
    throw this.rejected();
  }
}
