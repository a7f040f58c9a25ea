import { isHttpError } from "../http/HttpError.js";
import { DEFAULT_JSON_DEPTH_LIMIT, exceedsJsonDepth } from "../http/internal/jsonDepth.js";
import { isThenable } from "../http/UserCode.js";
import { isSchema } from "../pipeline/internal/schemaValidator.js";
import {
  type ArgumentMetadata,
  type PipeContext,
  PipeTransform,
} from "../pipeline/PipeTransform.js";
import type { DtoSchema } from "../pipeline/Validation.js";
import { httpError, isNil } from "./ParsePipeOptions.js";
import { ValidationPipe, type ValidationPipeOptions } from "./ValidationPipe.js";

/**
 * Options of {@link ParseArrayPipe}: the type of the items (`Number`, `String`, `Boolean`, a
 * class-validator DTO or a Schema), the separator of a string (default `,`), `optional`, and a
 * `ValidationPipe`'s options for DTO items. With `stopAtFirstError: false` every failing item is
 * reported (`[index] message`), else the first.
 *
 * @since 0.1.0
 * @category pipes
 */
export interface ParseArrayOptions
  extends Omit<
    ValidationPipeOptions,
    "transform" | "validateCustomDecorators" | "exceptionFactory"
  > {
  readonly items?: Function | DtoSchema;
  readonly separator?: string;
  readonly optional?: boolean;
  /** Makes the error thrown on a rejection, from its message (several, with `stopAtFirstError: false`). */
  readonly exceptionFactory?: (error: string | ReadonlyArray<string>) => unknown;
}

const message = "Validation failed (parsable array expected)";

/**
 * Turns a query value into an array, as NestJS's: a repeated key (`?id=1&id=2`) is one
 * already, a string is split on `separator` (`?ids=1,2,3`); anything else, or nothing, fails
 * with 400 `Validation failed (parsable array expected)`. With `items`, each item is converted
 * and checked: `Number` (`[1] item must be a number`), `Boolean` (`true`/`false`, as JSON),
 * `String`, or a DTO (a JSON object validated by a `ValidationPipe` with `transform: true`; a
 * Schema decodes the item as it comes).
 *
 * @example
 * @Controller("users")
 * class UsersController {
 *   @Get()
 *   find(@Query("ids", new ParseArrayPipe({ items: Number })) ids: ReadonlyArray<number>) {
 *     return ids; // ?ids=1,2,3 is [1, 2, 3]
 *   }
 * }
 *
 * @since 0.1.0
 * @category pipes
 */
export class ParseArrayPipe extends PipeTransform<unknown, ReadonlyArray<unknown>> {
  private readonly validation: ValidationPipe | undefined;
  private readonly itemArgument: ArgumentMetadata;

  constructor(readonly options: ParseArrayOptions = {}) {
    super();
    const { items, separator: _s, optional: _o, exceptionFactory: _e, ...validation } = options;
    this.itemArgument = { type: "query", metatype: items };
    if (items === undefined || items === Number || items === String || items === Boolean) return;
    this.validation = new ValidationPipe({
      ...validation,
      transform: true,
      validateCustomDecorators: true,
    });
    const problem = this.validation.prepare(this.itemArgument);
    if (problem !== undefined) throw new Error(`ParseArrayPipe: ${problem}`);
  }

  transform(
    value: unknown,
    context: PipeContext,
  ): ReadonlyArray<unknown> | Promise<ReadonlyArray<unknown>> {
    if (!value && this.options.optional !== true) throw this.reject(message);
    if (isNil(value)) return value as unknown as ReadonlyArray<unknown>;
    let list: ReadonlyArray<unknown>;
    if (Array.isArray(value)) list = value;
    else if (typeof value === "string") list = value.trim().split(this.options.separator ?? ",");
    else throw this.reject(message);
    if (this.options.items === undefined) return list;
    if (this.options.stopAtFirstError === false) return this.everyItem(list, context);
    const converted = list.map((item, index) => this.item(item, context, index));
    return converted.some(isThenable) ? Promise.all(converted) : converted;
  }

  /** Converts every item, reporting every failure (`[index] message`). */
  private everyItem(
    list: ReadonlyArray<unknown>,
    context: PipeContext,
  ): ReadonlyArray<unknown> | Promise<ReadonlyArray<unknown>> {
    const failures: Array<string> = [];
    const converted = list.map((item, index) => {
      const prefix = (text: string) => `[${index}] ${text}`;
      const record = (error: unknown) => {
        if (!isHttpError(error)) throw error;
        failures.push(...(error.errors ?? [error.message]).map(prefix));
      };
      try {
        const result = this.item(item, context, undefined);
        return isThenable(result) ? Promise.resolve(result).catch(record) : result;
      } catch (error) {
        record(error);
        return undefined;
      }
    });
    const settle = () => {
      if (failures.length > 0) throw this.reject(failures);
      return converted;
    };
    return converted.some(isThenable)
      ? Promise.all(converted).then((all) => {
          settle();
          return all;
        })
      : settle();
  }

  /** One item, converted to `items` (its index, if any, prefixes a rejection's message). */
  private item(raw: unknown, context: PipeContext, index: number | undefined): unknown {
    const { items } = this.options;
    const at = index === undefined ? "" : `[${index}] `;
    let item = raw;
    if (items !== String && !isSchema(items) && typeof item === "string") {
      try {
        item = JSON.parse(item);
      } catch {
        // Not JSON: the item as it is.
      }
      // Refused before the validation pipe's class-transformer recurses into it (SECURITY.md 44).
      if (exceedsJsonDepth(item, DEFAULT_JSON_DEPTH_LIMIT)) {
        throw this.reject(`${at}item nested deeper than ${DEFAULT_JSON_DEPTH_LIMIT} levels`);
      }
    }
    if (items === Number) {
      const number = item !== null && item !== "" ? Number(item) : Number.NaN;
      if (Number.isNaN(number)) throw this.reject(`${at}item must be a number`);
      return number;
    }
    if (items === String) return typeof item === "string" ? item : `${item}`;
    if (items === Boolean) {
      if (typeof item !== "boolean") throw this.reject(`${at}item must be a boolean value`);
      return item;
    }
    return (this.validation as ValidationPipe).transform(item, context, this.itemArgument);
  }

  /** The error for one message, or for every failure (`Validation failed` with them as `errors`). */
  private reject(failure: string | ReadonlyArray<string>): unknown {
    const { exceptionFactory, errorHttpStatusCode = 400 } = this.options;
    if (exceptionFactory !== undefined) return exceptionFactory(failure);
    return typeof failure === "string"
      ? httpError(errorHttpStatusCode, failure)
      : httpError(errorHttpStatusCode, "Validation failed", failure);
  }
}
