import * as Either from "effect/Either";
import * as ParseResult from "effect/ParseResult";
import { validationError } from "../http/ErrorResponse.js";
import {
  type ClassTransformOptions,
  type ClassValidatorOptions,
  classInstance,
  classValidator,
  errorMessages,
  usesClassValidator,
  type ValidationError,
} from "../pipeline/ClassValidation.js";
import { isSchema } from "../pipeline/internal/schemaValidator.js";
import {
  type ArgumentMetadata,
  type PipeContext,
  PipeTransform,
} from "../pipeline/PipeTransform.js";
import type { DtoSchema, ValidationOptions } from "../pipeline/Validation.js";
import { httpError } from "./ParsePipeOptions.js";

/**
 * Options of {@link ValidationPipe}: Strata's (`schema`, `onExcessProperty`), NestJS's
 * (`whitelist`, `forbidNonWhitelisted`, `transform`, `transformOptions`, `errorHttpStatusCode`,
 * `disableErrorMessages`, `exceptionFactory`, `validateCustomDecorators`, `expectedType`) and
 * class-validator's, passed on to it for class-validator DTOs.
 *
 * @since 0.1.0
 * @category pipes
 */
export interface ValidationPipeOptions extends ValidationOptions, ClassValidatorOptions {
  /** Validates every argument against this Schema, instead of each argument's declared DTO. */
  readonly schema?: DtoSchema;
  /** Validates every argument against this DTO class or Schema, as `schema` does (NestJS's name). */
  readonly expectedType?: DtoSchema | Function;
  /**
   * What the handler receives: with `true`, the decoded value (a `Schema.Class` or class
   * instance, a path or query parameter converted to its `number`/`boolean`/`string` type);
   * with `false`, the value as sent. Unset: decoded for a Schema DTO (Strata's default), as
   * sent for a class-validator DTO (NestJS's).
   */
  readonly transform?: boolean;
  /** class-transformer's options (class DTOs). */
  readonly transformOptions?: ClassTransformOptions;
  /** The status of a validation failure (default 400). */
  readonly errorHttpStatusCode?: number;
  /** Leaves the per-field lines (`errors`) out of failures. */
  readonly disableErrorMessages?: boolean;
  /** Makes the error thrown on a failure, from the failures (class-validator's shape). */
  readonly exceptionFactory?: (errors: ReadonlyArray<ValidationError>) => unknown;
  /** Validates the arguments of `createParamDecorator` decorators too (off by default). */
  readonly validateCustomDecorators?: boolean;
}

/** The options of the pipe itself; the others are class-validator's. */
const pipeOptions = new Set<string>([
  "schema",
  "expectedType",
  "onExcessProperty",
  "transform",
  "transformOptions",
  "errorHttpStatusCode",
  "disableErrorMessages",
  "exceptionFactory",
  "validateCustomDecorators",
]);

/** Validates (and may convert) one argument. */
type Check = (value: unknown, argument: ArgumentMetadata) => unknown;

const plainTypes = new Set<unknown>([
  String,
  Boolean,
  Number,
  BigInt,
  Symbol,
  Array,
  Object,
  Function,
  Promise,
  Date,
  RegExp,
  Map,
  Set,
  Buffer,
]);

/**
 * `true` for a declared type that is not a DTO: a primitive's wrapper (`String`, `Number`...),
 * `Object` (what TypeScript records for interfaces, unions and `unknown`), or another built-in.
 */
export const isPlainType = (type: unknown): boolean => plainTypes.has(type);

/**
 * NestJS's `transform: true` on a named path or query parameter declared `number`, `boolean`
 * or `string`: the value converted to it, as NestJS converts it (`+value`, `"true"`, `String`).
 */
const transformPrimitive: Check = (value, { type, data, metatype }) => {
  if (data === undefined || data === "" || (type !== "param" && type !== "query")) return value;
  if (metatype === Number) return +(value as number);
  if (metatype === Boolean)
    return value === undefined ? undefined : value === true || value === "true";
  if (metatype === String) return value === undefined ? undefined : String(value);
  return value;
};

const unchanged: Check = (value) => value;

/** A Schema failure's issues, one per failing path, in class-validator's shape. */
const schemaErrors = (issue: ParseResult.ParseIssue): ReadonlyArray<ValidationError> =>
  ParseResult.ArrayFormatter.formatIssueSync(issue).map(({ _tag, path, message }) => ({
    property: path.map(String).join("."),
    constraints: { [_tag]: message },
  }));

/** The `errors` lines of a Schema failure (`path: message`), as `validationError` writes them. */
const schemaLines = (errors: ReadonlyArray<ValidationError>): ReadonlyArray<string> =>
  errors.flatMap(({ property, constraints }) =>
    Object.values(constraints ?? {}).map((message) =>
      property === "" ? message : `${property}: ${message}`,
    ),
  );

/**
 * Validates an argument against its declared DTO, as NestJS's `ValidationPipe` does with
 * `metatype`, for two kinds of DTOs:
 *
 * - an Effect Schema (a `Schema.Class` or any Schema) given to `@Body(Dto)`, `@Query(Schema)`,
 *   `@Param(name, Schema)`, or as the parameter's type (`@Body() dto: CreateUserDto`), validated
 *   with Schema: the decoded value reaches the handler (unless `transform: false`); unknown
 *   keys are dropped (`whitelist`), or refused with `whitelist` and `forbidNonWhitelisted`
 *   (or `onExcessProperty: "error"`);
 * - a class with class-validator decorators, validated through class-transformer and
 *   class-validator when the app has them installed (loaded on first use), with NestJS's
 *   options (`whitelist`, `forbidNonWhitelisted`, `transform`, `transformOptions`...).
 *
 * A failure is 400 `Validation failed` with one line per field in `errors`. Arguments declared
 * with a primitive type, an interface or no type pass unchanged (with `transform: true`, named
 * path and query parameters are converted to their `number`, `boolean` or `string` type).
 * Parameters of `createParamDecorator` decorators are validated only with
 * `validateCustomDecorators`. Each DTO is compiled once, when the app starts: a class DTO
 * whose packages are missing fails the start.
 *
 * An argument is validated against its declared DTO once: when several such pipes apply to it
 * (say, one global and one on the method), only the most specific runs; without any, Strata
 * validates declared Schemas itself, before the argument's own pipes.
 *
 * @example
 * declare const app: StrataApp;
 *
 * app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
 *
 * @since 0.1.0
 * @category pipes
 */
export class ValidationPipe extends PipeTransform {
  private readonly checks = new Map<unknown, Check>();
  private readonly problems = new Map<unknown, string>();
  /** The DTO validating every argument, when the options name one. */
  private readonly target: unknown;
  /** Strata's own 400 for Schema failures, unless an option changes the failure. */
  private readonly plainFailures: boolean;

  constructor(readonly options: ValidationPipeOptions = {}) {
    super();
    this.target = options.schema ?? options.expectedType;
    this.plainFailures =
      options.exceptionFactory === undefined &&
      options.disableErrorMessages !== true &&
      (options.errorHttpStatusCode ?? 400) === 400;
  }

  /**
   * Validates `value` against its argument's DTO. NestJS's call `transform(value, metadata)`
   * works too: the metadata is then read from the second argument.
   */
  transform(value: unknown, context: PipeContext, metadata?: ArgumentMetadata): unknown {
    const argument = metadata ?? context;
    if (this.skips(argument)) return value;
    const metatype = this.target ?? argument.metatype;
    return (this.checks.get(metatype) ?? this.compile(metatype))(value, argument);
  }

  /**
   * Compiles the check of an argument ahead of its first request (Strata calls it at startup
   * for every argument this pipe validates): what makes it impossible, else `undefined`.
   */
  prepare(argument: ArgumentMetadata): string | undefined {
    if (this.skips(argument)) return undefined;
    const metatype = this.target ?? argument.metatype;
    if (!this.checks.has(metatype)) this.compile(metatype);
    return this.problems.get(metatype);
  }

  private skips(argument: ArgumentMetadata): boolean {
    return argument.type === "custom" && this.options.validateCustomDecorators !== true;
  }

  private compile(metatype: unknown): Check {
    const compiled = this.checkOf(metatype);
    let check: Check;
    if (typeof compiled === "string") {
      this.problems.set(metatype, compiled);
      check = () => {
        throw new Error(`ValidationPipe: ${compiled}`);
      };
    } else {
      check = compiled;
    }
    this.checks.set(metatype, check);
    return check;
  }

  private checkOf(metatype: unknown): Check | string {
    const { transform, transformOptions } = this.options;
    if (isSchema(metatype)) return this.schemaCheck(metatype);
    if (typeof metatype !== "function" || isPlainType(metatype)) {
      return transform === true ? transformPrimitive : unchanged;
    }
    if (usesClassValidator()) {
      const validatorOptions = Object.fromEntries(
        Object.entries(this.options).filter(([key]) => !pipeOptions.has(key)),
      );
      return classValidator(metatype, {
        transform: transform === true,
        transformOptions,
        validatorOptions,
        failure: (errors) => this.failure(errorMessages(errors), errors),
      });
    }
    if (transform !== true) return unchanged;
    return classInstance(metatype, transformOptions);
  }

  private schemaCheck(schema: DtoSchema): Check {
    const { whitelist, forbidNonWhitelisted, onExcessProperty, transform } = this.options;
    const decode = ParseResult.decodeUnknownEither(schema, {
      errors: "all",
      onExcessProperty:
        onExcessProperty ??
        (whitelist === true && forbidNonWhitelisted === true ? "error" : "ignore"),
    });
    // `transform: false` gives the value as sent; with `whitelist`, without its unknown keys.
    const encode =
      transform === false && whitelist === true
        ? ParseResult.encodeEither(schema, { errors: "all" })
        : undefined;
    const fail = (issue: ParseResult.ParseIssue): unknown => {
      if (this.plainFailures) return validationError(issue);
      const errors = schemaErrors(issue);
      return this.failure(schemaLines(errors), errors);
    };
    return (value) => {
      const decoded = decode(value);
      if (Either.isLeft(decoded)) throw fail(decoded.left);
      if (transform !== false) return decoded.right;
      if (encode === undefined) return value;
      const plain = encode(decoded.right);
      if (Either.isLeft(plain)) throw fail(plain.left);
      return plain.right;
    };
  }

  /** The error a failure throws: the `exceptionFactory`'s, else `Validation failed` with `errors`. */
  private failure(lines: ReadonlyArray<string>, errors: ReadonlyArray<ValidationError>): unknown {
    const { exceptionFactory, errorHttpStatusCode = 400, disableErrorMessages } = this.options;
    if (exceptionFactory !== undefined) return exceptionFactory(errors);
    return httpError(
      errorHttpStatusCode,
      "Validation failed",
      disableErrorMessages === true ? undefined : lines,
    );
  }
}
