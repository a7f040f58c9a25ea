import { readMetadata } from "../di/metadata.js";
import { type ApiPropertyOptions, apiProperties } from "./ApiProperty.js";
import { transformedType, type ValidationMetadata, validationMetadata } from "./DtoMetadata.js";
import type { JsonSchema } from "./OpenApiDocument.js";

type Json = Record<string, unknown>;

/** Constructors that are not DTOs: a design type of these says a primitive, or nothing. */
const notDtos = new Set<unknown>([Object, String, Number, Boolean, Date, Array, Promise, Function]);

/**
 * `true` for a class DTO the document describes: a class with class-validator decorators or
 * `@ApiProperty` ones (an Effect Schema is described by effect's own conversion).
 */
export const isClassDto = (u: unknown): u is Function =>
  typeof u === "function" &&
  !notDtos.has(u) &&
  (validationMetadata(u).length > 0 || apiProperties(u).size > 0);

/** A constructor as JSON Schema: a primitive, a date, an array, a DTO (`$ref`), or nothing. */
const ofConstructor = (type: unknown, ref: (cls: Function) => JsonSchema): Json => {
  if (type === String) return { type: "string" };
  if (type === Number) return { type: "number" };
  if (type === Boolean) return { type: "boolean" };
  if (type === Date) return { type: "string", format: "date-time" };
  if (type === Array) return { type: "array" };
  if (isClassDto(type)) return ref(type) as unknown as Json;
  return {};
};

/** The values of a list, or of a TypeScript `enum` object (without its numeric reverse keys). */
const enumValues = (values: unknown): ReadonlyArray<unknown> => {
  if (Array.isArray(values)) return values;
  if (typeof values !== "object" || values === null) return [];
  const record = values as Readonly<Record<string, unknown>>;
  return Object.keys(record)
    .filter((key) => typeof record[record[key] as string] !== "number")
    .map((key) => record[key]);
};

/** What one class-validator decorator says of a value, as JSON Schema keywords. */
const keywords = (m: ValidationMetadata): Json => {
  const [first, second] = m.constraints ?? [];
  switch (m.name) {
    case "isString":
      return { type: "string" };
    case "isNumber":
    case "isNumberString":
      return m.name === "isNumber" ? { type: "number" } : { type: "string", format: "numeric" };
    case "isInt":
      return { type: "integer" };
    case "isBoolean":
      return { type: "boolean" };
    case "isDate":
    case "isDateString":
    case "isISO8601":
      return { type: "string", format: "date-time" };
    case "isEmail":
      return { type: "string", format: "email" };
    case "isUrl":
      return { type: "string", format: "uri" };
    case "isUUID":
      return { type: "string", format: "uuid" };
    case "isEnum":
    case "isIn":
      return { enum: enumValues(first) };
    case "min":
      return { minimum: first };
    case "max":
      return { maximum: first };
    case "isPositive":
      return { exclusiveMinimum: 0 };
    case "isNegative":
      return { exclusiveMaximum: 0 };
    case "minLength":
      return { minLength: first };
    case "maxLength":
      return { maxLength: first };
    case "length":
      return second === undefined ? { minLength: first } : { minLength: first, maxLength: second };
    case "isNotEmpty":
      return { minLength: 1 };
    case "matches":
      return { pattern: first instanceof RegExp ? first.source : String(first) };
    case "isObject":
      return { type: "object" };
    default:
      return {};
  }
};

/** What the array-level decorators say (`@IsArray`, `@ArrayMinSize`...). */
const arrayKeywords = (m: ValidationMetadata): Json | undefined => {
  const [first] = m.constraints ?? [];
  switch (m.name) {
    case "isArray":
      return { type: "array" };
    case "arrayMinSize":
      return { minItems: first };
    case "arrayMaxSize":
      return { maxItems: first };
    case "arrayUnique":
      return { uniqueItems: true };
    default:
      return undefined;
  }
};

/** `@ApiProperty`'s options as JSON Schema keywords. */
const fromApiProperty = (options: ApiPropertyOptions, ref: (cls: Function) => JsonSchema): Json => {
  const out: Json = {};
  const type = options.type;
  if (type !== undefined) {
    // A thunk (an arrow function) has no prototype; a class has.
    const single = type as Function;
    const [item, many] = Array.isArray(type)
      ? [(type as readonly [Function])[0], true]
      : [single.prototype === undefined ? (single as () => Function)() : single, false];
    const schema = ofConstructor(item, ref);
    Object.assign(
      out,
      many || options.isArray === true ? { type: "array", items: schema } : schema,
    );
  }
  const copied = [
    "description",
    "example",
    "default",
    "format",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "deprecated",
  ] as const;
  for (const key of copied) if (options[key] !== undefined) out[key] = options[key];
  if (options.enum !== undefined) out.enum = enumValues(options.enum);
  if (options.example !== undefined) out.examples = [options.example];
  delete out.example;
  return out;
};

/**
 * The JSON Schemas of class DTOs for one document: each class once, as a
 * `components.schemas` entry named after it (a `$ref` to it), from its TypeScript property
 * types, its class-validator decorators (as `@nestjs/swagger`'s plugin reads them: types,
 * formats, bounds, `@IsOptional` for not required, `@ValidateNested` with `@Type` for nested
 * DTOs) and its `@ApiProperty` / `@ApiPropertyOptional` options, which win.
 */
export const classDtoSchemas = (defs: Record<string, JsonSchema>) => {
  const names = new Map<Function, string>();
  const ref = (cls: Function): JsonSchema => {
    let name = names.get(cls);
    if (name === undefined) {
      name = cls.name || "Dto";
      for (let n = 2; defs[name] !== undefined; n++) name = `${cls.name}${n}`;
      names.set(cls, name);
      defs[name] = {} as JsonSchema; // taken, for a DTO that refers to itself
      defs[name] = describe(cls);
    }
    return { $ref: `#/components/schemas/${name}` } as JsonSchema;
  };
  const describe = (cls: Function): JsonSchema => {
    const byProperty = new Map<string, Array<ValidationMetadata>>();
    for (const m of validationMetadata(cls)) {
      byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
    }
    const documented = apiProperties(cls);
    const properties: Record<string, Json> = {};
    const required: Array<string> = [];
    for (const name of new Set([...byProperty.keys(), ...documented.keys()])) {
      const list = byProperty.get(name) ?? [];
      const designType = readMetadata<unknown>("design:type", cls.prototype as object, name);
      const nested = transformedType(cls, name);
      const many = designType === Array || list.some((m) => m.each === true);
      const value: Json = {};
      const array: Json = many ? { type: "array" } : {};
      if (!many) Object.assign(value, ofConstructor(designType, ref));
      for (const m of list) {
        const forArray = many ? arrayKeywords(m) : undefined;
        if (forArray !== undefined) Object.assign(array, forArray);
        else if (m.name !== "isArray") Object.assign(value, keywords(m));
      }
      if (nested !== undefined && isClassDto(nested)) {
        for (const key of Object.keys(value)) delete value[key];
        Object.assign(value, ref(nested));
      }
      let schema: Json = many ? { ...array, items: value } : value;
      const options = documented.get(name);
      if (options !== undefined) schema = { ...schema, ...fromApiProperty(options, ref) };
      if (options?.nullable === true) schema = { anyOf: [schema, { type: "null" }] };
      properties[name] = schema;
      const optional =
        list.some((m) => m.type === "conditionalValidation" && m.name === "isOptional") ||
        options?.required === false;
      if (!optional) required.push(name);
    }
    return {
      type: "object",
      properties,
      ...(required.length === 0 ? {} : { required }),
    } as unknown as JsonSchema;
  };
  return ref;
};
