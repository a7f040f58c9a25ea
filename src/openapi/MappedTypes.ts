import * as Schema from "effect/Schema";
import { readMetadata, writeMetadata } from "../di/metadata.js";
import type { Type } from "../di/Token.js";
import { apiProperties, defineApiProperties } from "./ApiProperty.js";
import { inheritDtoMetadata, validatedProperties } from "./DtoMetadata.js";

/** The properties a class DTO declares: its class-validator and `@ApiProperty` ones. */
const propertiesOf = (cls: Function): ReadonlyArray<string> => [
  ...new Set([...validatedProperties(cls), ...apiProperties(cls).keys()]),
];

const refuseSchema = (what: string, cls: Function): void => {
  if (Schema.isSchema(cls)) {
    throw new TypeError(
      `${what}(${cls.name || "a Schema"}): an Effect Schema is not a class DTO; use Schema's own (Schema.partial, Struct.pick, Struct.omit, Schema.extend)`,
    );
  }
  if (typeof cls !== "function") throw new TypeError(`${what}: a class DTO is expected`);
};

/**
 * A class whose properties are those of `sources` that `keep` accepts, with their validation
 * (class-validator), transformation (class-transformer) and API description (`@ApiProperty`),
 * each optional when `optional`; their initial values carry over too.
 */
const mapped = (
  name: string,
  sources: ReadonlyArray<Function>,
  keep: (property: string) => boolean,
  optional: boolean,
): Type<unknown> => {
  class Mapped {
    constructor() {
      // The sources' property initializers (`role = "user"`), as @nestjs/mapped-types does.
      for (const Source of sources) {
        let initial: object;
        try {
          initial = new (Source as new () => object)();
        } catch {
          continue;
        }
        for (const [key, value] of Object.entries(initial)) {
          if (keep(key) && value !== undefined && Reflect.get(this, key) === undefined) {
            Reflect.set(this, key, value);
          }
        }
      }
    }
  }
  Object.defineProperty(Mapped, "name", { value: name });
  for (const source of sources) {
    inheritDtoMetadata(source, Mapped, keep, optional);
    const properties = propertiesOf(source).filter(keep);
    for (const property of properties) {
      const designType = readMetadata<unknown>("design:type", source.prototype as object, property);
      if (designType !== undefined) {
        writeMetadata("design:type", designType, Mapped.prototype, property);
      }
    }
    defineApiProperties(
      Mapped,
      [...apiProperties(source)]
        .filter(([property]) => keep(property))
        .map(([property, options]) => ({
          name: property,
          options: optional ? { ...options, required: false } : options,
        })),
    );
  }
  return Mapped;
};

/**
 * NestJS's `PartialType(Dto)`: a class with every property of `Dto` optional, its validation
 * kept (each property also `@IsOptional()`), for `class UpdateCatDto extends
 * PartialType(CreateCatDto) {}`. Its API description marks them not required.
 *
 * @since 0.1.0
 * @category validation
 */
export const PartialType = <T>(classRef: Type<T>): Type<Partial<T>> => {
  refuseSchema("PartialType", classRef);
  return mapped(`Partial${classRef.name}`, [classRef], () => true, true) as Type<Partial<T>>;
};

/**
 * NestJS's `PickType(Dto, ["a", "b"])`: a class with only those properties of `Dto`, their
 * validation and API description kept.
 *
 * @since 0.1.0
 * @category validation
 */
export const PickType = <T, K extends keyof T>(
  classRef: Type<T>,
  keys: ReadonlyArray<K>,
): Type<Pick<T, (typeof keys)[number]>> => {
  refuseSchema("PickType", classRef);
  const picked = new Set<unknown>(keys);
  return mapped(`Pick${classRef.name}`, [classRef], (p) => picked.has(p), false) as Type<
    Pick<T, (typeof keys)[number]>
  >;
};

/**
 * NestJS's `OmitType(Dto, ["a"])`: a class with every property of `Dto` but those, their
 * validation and API description kept.
 *
 * @since 0.1.0
 * @category validation
 */
export const OmitType = <T, K extends keyof T>(
  classRef: Type<T>,
  keys: ReadonlyArray<K>,
): Type<Omit<T, (typeof keys)[number]>> => {
  refuseSchema("OmitType", classRef);
  const omitted = new Set<unknown>(keys);
  return mapped(`Omit${classRef.name}`, [classRef], (p) => !omitted.has(p), false) as Type<
    Omit<T, (typeof keys)[number]>
  >;
};

type Intersection<T extends ReadonlyArray<Type<unknown>>> = T extends readonly [
  Type<infer A>,
  ...infer Rest extends ReadonlyArray<Type<unknown>>,
]
  ? A & Intersection<Rest>
  : unknown;

/**
 * NestJS's `IntersectionType(A, B, ...)`: a class with the properties of every one of them,
 * their validation and API description kept.
 *
 * @since 0.1.0
 * @category validation
 */
export const IntersectionType = <T extends ReadonlyArray<Type<unknown>>>(
  ...classRefs: T
): Type<Intersection<T>> => {
  for (const classRef of classRefs) refuseSchema("IntersectionType", classRef);
  return mapped(classRefs.map((c) => c.name).join(""), classRefs, () => true, false) as Type<
    Intersection<T>
  >;
};
