/**
 * Validation of class-validator DTOs, for `ValidationPipe`: class-transformer makes the
 * instance, class-validator checks it, as NestJS's `ValidationPipe` does. Both packages are
 * optional peer dependencies, loaded on first use only (an app that does not use them neither
 * pays for them nor needs them installed).
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module";

/**
 * class-validator's options, passed on to its `validate` (NestJS's `ValidatorOptions`).
 *
 * @since 0.1.0
 * @category validation
 */
export interface ClassValidatorOptions {
  /** Strips the properties that have no validation decorator (for a Schema DTO: unknown keys). */
  readonly whitelist?: boolean;
  /** With `whitelist`: such properties are an error instead. */
  readonly forbidNonWhitelisted?: boolean;
  readonly skipMissingProperties?: boolean;
  readonly skipNullProperties?: boolean;
  readonly skipUndefinedProperties?: boolean;
  readonly groups?: ReadonlyArray<string>;
  readonly always?: boolean;
  readonly strictGroups?: boolean;
  readonly dismissDefaultMessages?: boolean;
  readonly validationError?: { readonly target?: boolean; readonly value?: boolean };
  /** `false` unless set (as in NestJS): an object with no validation metadata passes. */
  readonly forbidUnknownValues?: boolean;
  readonly stopAtFirstError?: boolean;
}

/**
 * class-transformer's options, passed on to `plainToInstance` and `instanceToPlain`
 * (NestJS's `ClassTransformOptions`).
 *
 * @since 0.1.0
 * @category validation
 */
export interface ClassTransformOptions {
  readonly strategy?: "excludeAll" | "exposeAll";
  readonly excludeExtraneousValues?: boolean;
  readonly groups?: ReadonlyArray<string>;
  readonly version?: number;
  readonly excludePrefixes?: ReadonlyArray<string>;
  readonly ignoreDecorators?: boolean;
  readonly enableCircularCheck?: boolean;
  readonly enableImplicitConversion?: boolean;
  readonly exposeDefaultValues?: boolean;
  readonly exposeUnsetFields?: boolean;
}

/**
 * One validation failure, in class-validator's shape: what a `ValidationPipe`'s
 * `exceptionFactory` receives (for a Schema DTO: one per failing path, its message under the
 * issue's kind in `constraints`).
 *
 * @since 0.1.0
 * @category validation
 */
export interface ValidationError {
  readonly property: string;
  readonly value?: unknown;
  readonly constraints?: Readonly<Record<string, string>>;
  readonly children?: ReadonlyArray<ValidationError>;
}

interface ClassValidator {
  validate(object: object, options: object): Promise<ReadonlyArray<ValidationError>>;
}

interface ClassTransformer {
  plainToInstance(cls: Function, plain: unknown, options?: ClassTransformOptions): unknown;
  instanceToPlain(object: unknown, options?: ClassTransformOptions): unknown;
}

/** A package, or `undefined` when it is not installed. */
const load = <T>(name: string): T | undefined => {
  try {
    return createRequire(import.meta.url)(name) as T;
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND") return undefined;
    throw error;
  }
};

/** `true` once a class-validator decorator has run in this process (its metadata store exists). */
export const usesClassValidator = (): boolean => "classValidatorMetadataStorage" in globalThis;

const missing = (name: string, dto: Function, why: string): string =>
  `${dto.name} ${why}, and the "${name}" package is not installed: run \`npm install ${name}\`, or declare the DTO as a Schema.Class.`;

/** The messages of class-validator errors, nested ones prefixed with their path, as NestJS lists them. */
export const errorMessages = (errors: ReadonlyArray<ValidationError>): ReadonlyArray<string> =>
  errors
    .flatMap((error) => withChildren(error, undefined))
    .flatMap((error) => Object.values(error.constraints ?? {}));

const withChildren = (
  error: ValidationError,
  parentPath: string | undefined,
): ReadonlyArray<ValidationError> => {
  if (error.children === undefined || error.children.length === 0) return [error];
  const path = parentPath === undefined ? error.property : `${parentPath}.${error.property}`;
  return error.children.flatMap((child) => [
    ...(child.children !== undefined && child.children.length > 0 ? withChildren(child, path) : []),
    { ...child, constraints: prefixed(child.constraints, path) },
  ]);
};

const prefixed = (
  constraints: ValidationError["constraints"],
  path: string,
): ValidationError["constraints"] =>
  constraints === undefined
    ? undefined
    : Object.fromEntries(
        Object.entries(constraints).map(([key, message]) => [key, `${path}.${message}`]),
      );

/**
 * Deletes `__proto__` keys a JSON body may carry, before class-transformer copies it: a walk
 * with a stack of its own, so no nesting of the body reaches the call stack.
 */
const stripProtoKeys = (root: unknown): void => {
  const pending: Array<unknown> = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    if (Object.hasOwn(value, "__proto__")) Reflect.deleteProperty(value, "__proto__");
    for (const key of Object.keys(value)) pending.push((value as Record<string, unknown>)[key]);
  }
};

/** How a class DTO is validated and what the handler receives. */
export interface ClassValidationOptions {
  readonly transform: boolean;
  readonly transformOptions: ClassTransformOptions | undefined;
  readonly validatorOptions: object;
  /** The failure to throw for these errors. */
  readonly failure: (errors: ReadonlyArray<ValidationError>) => unknown;
}

/**
 * A validator for `dto` through class-transformer and class-validator, as NestJS's
 * `ValidationPipe` runs them: the value becomes an instance, is validated (a failure throws
 * `failure(errors)`), and the handler gets the instance with `transform`, else the value
 * (made plain again when class-validator options such as `whitelist` changed it). A string
 * says which package is missing.
 */
export const classValidator = (
  dto: Function,
  options: ClassValidationOptions,
): ((value: unknown) => Promise<unknown>) | string => {
  const validator = load<ClassValidator>("class-validator");
  if (validator === undefined) return missing("class-validator", dto, "has validation decorators");
  const transformer = load<ClassTransformer>("class-transformer");
  if (transformer === undefined) {
    return missing("class-transformer", dto, "is validated by class-validator");
  }
  const validatorOptions = { forbidUnknownValues: false, ...options.validatorOptions };
  // More than NestJS's own `forbidUnknownValues` default: an option may have changed the instance.
  const toPlain = Object.keys(validatorOptions).length > 1;
  return async (value) => {
    const isNil = value === null || value === undefined;
    const input = isNil ? {} : value;
    const isPrimitive =
      typeof input === "string" || typeof input === "number" || typeof input === "boolean";
    stripProtoKeys(input);
    const instance = transformer.plainToInstance(dto, input, options.transformOptions) as {
      constructor: unknown;
    };
    let entity: object = instance;
    if (instance.constructor !== dto) {
      // A primitive (or an array) is validated as an empty instance of the DTO.
      if (isPrimitive) entity = { constructor: dto };
      else instance.constructor = dto;
    }
    const errors = await validator.validate(entity, validatorOptions);
    if (errors.length > 0) throw options.failure(errors);
    if (options.transform) return instance;
    if (isNil) return value;
    return toPlain ? transformer.instanceToPlain(instance, options.transformOptions) : value;
  };
};

/**
 * An instance of `dto` made by class-transformer (`ValidationPipe({ transform: true })` on a
 * class no class-validator decorator describes), or a string saying the package is missing.
 */
export const classInstance = (
  dto: Function,
  transformOptions: ClassTransformOptions | undefined,
): ((value: unknown) => unknown) | string => {
  const transformer = load<ClassTransformer>("class-transformer");
  if (transformer === undefined) {
    return missing("class-transformer", dto, "is to be made an instance (`transform: true`)");
  }
  return (value) =>
    value === null || value === undefined
      ? value
      : transformer.plainToInstance(dto, value, transformOptions);
};
