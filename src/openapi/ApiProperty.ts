import { appendMetadata, readMetadata } from "../di/metadata.js";

/** The metadata key of `@ApiProperty` (a list on the DTO class, inherited by subclasses). */
const PropertiesKey = "strata:openapi:properties";

/**
 * What `@ApiProperty` takes (a part of `@nestjs/swagger`'s options): what the property's JSON
 * Schema says beyond what its TypeScript type and class-validator decorators say.
 *
 * @since 0.1.0
 * @category openapi
 */
export interface ApiPropertyOptions {
  /**
   * The property's type when its TypeScript type does not say it (an array's items, a union):
   * `String`, `Number`, `Boolean`, `Date`, another DTO class, or a thunk of one
   * (`() => Author`, for classes declared later); `[Author]` for an array of them.
   */
  readonly type?: Function | readonly [Function] | (() => Function);
  /** The property is an array of `type`. */
  readonly isArray?: boolean;
  /** Whether the property must be present (default `true`; `@ApiPropertyOptional` is `false`). */
  readonly required?: boolean;
  readonly description?: string;
  readonly example?: unknown;
  readonly default?: unknown;
  /** The values allowed: a list, or a TypeScript `enum` object. */
  readonly enum?: ReadonlyArray<string | number> | Readonly<Record<string, string | number>>;
  readonly format?: string;
  readonly nullable?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly deprecated?: boolean;
}

/** One `@ApiProperty` of a DTO class. */
export interface ApiPropertyMetadata {
  readonly name: string;
  readonly options: ApiPropertyOptions;
}

/**
 * `@nestjs/swagger`'s `@ApiProperty(options?)`: describes a property of a class DTO in the
 * OpenAPI document (which also reads its TypeScript type and class-validator decorators).
 * Recorded only; nothing is validated by it.
 *
 * @example
 * import { IsString } from "class-validator";
 * import { ApiProperty } from "effect-strata";
 *
 * class CreateCatDto {
 *   @ApiProperty({ description: "The cat's name", example: "Tom" })
 *   @IsString()
 *   name!: string;
 * }
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiProperty =
  (options: ApiPropertyOptions = {}): PropertyDecorator =>
  (target, property) => {
    if (typeof property !== "string") return;
    appendMetadata<ApiPropertyMetadata>(
      PropertiesKey,
      { name: property, options },
      target.constructor,
    );
  };

/**
 * `@nestjs/swagger`'s `@ApiPropertyOptional(options?)`: `@ApiProperty` with `required: false`.
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiPropertyOptional = (options: ApiPropertyOptions = {}): PropertyDecorator =>
  ApiProperty({ ...options, required: false });

/** The `@ApiProperty` entries of `cls` (its parents' included), the last of each name winning. */
export const apiProperties = (cls: Function): ReadonlyMap<string, ApiPropertyOptions> => {
  const list = readMetadata<ReadonlyArray<ApiPropertyMetadata>>(PropertiesKey, cls) ?? [];
  const byName = new Map<string, ApiPropertyOptions>();
  for (const entry of list) byName.set(entry.name, { ...byName.get(entry.name), ...entry.options });
  return byName;
};

/** Gives `target` the `@ApiProperty` entries `entries` (a mapped type's). */
export const defineApiProperties = (
  target: Function,
  entries: ReadonlyArray<ApiPropertyMetadata>,
): void => {
  for (const entry of entries) appendMetadata(PropertiesKey, entry, target);
};
