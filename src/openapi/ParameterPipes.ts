import * as Schema from "effect/Schema";
import type { ParamScan } from "../compiler/ControllerScan.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import { DefaultValuePipe } from "../pipes/DefaultValuePipe.js";
import { ParseBoolPipe } from "../pipes/ParseBoolPipe.js";
import { ParseFloatPipe } from "../pipes/ParseFloatPipe.js";
import { ParseIntPipe } from "../pipes/ParseIntPipe.js";
import { ParseUUIDPipe } from "../pipes/ParseUUIDPipe.js";
import { ValidationPipe } from "../pipes/ValidationPipe.js";
import { isClassDto } from "./ClassSchema.js";
import type { JsonSchema } from "./OpenApiDocument.js";

/** What a body, query or path argument is validated against: its decorator's Schema, else its TypeScript type's. */
export const declaredSchema = (param: ParamScan): Schema.Schema.Any | undefined =>
  Schema.isSchema(param.metatype) ? param.metatype : undefined;

/** The class DTO (class-validator or `@ApiProperty` decorated) an argument is declared as, if any. */
export const declaredClassDto = (param: ParamScan): Function | undefined =>
  isClassDto(param.metatype) ? param.metatype : undefined;

/** The Schema a `ValidationPipe({ schema })` among `pipes` validates arguments against. */
export const pipeSchema = (pipes: ReadonlyArray<PipeLike>): Schema.Schema.Any | undefined => {
  for (let i = pipes.length - 1; i >= 0; i--) {
    const pipe = pipes[i];
    if (pipe instanceof ValidationPipe && pipe.options.schema !== undefined) {
      return pipe.options.schema;
    }
  }
  return undefined;
};

/** The type the built-in parse pipes among `pipes` make of a parameter (the last one wins). */
export const pipeType = (pipes: ReadonlyArray<PipeLike>): JsonSchema | undefined => {
  for (let i = pipes.length - 1; i >= 0; i--) {
    const pipe = pipes[i];
    const is = (cls: Function) => pipe === cls || pipe instanceof cls;
    if (is(ParseIntPipe)) return { type: "integer" } as JsonSchema;
    if (is(ParseFloatPipe)) return { type: "number" } as JsonSchema;
    if (is(ParseBoolPipe)) return { type: "boolean" } as JsonSchema;
    if (is(ParseUUIDPipe)) return { type: "string", format: "uuid" } as JsonSchema;
  }
  return undefined;
};

/** `ParseIntPipe` refuses an absent value (the other parse pipes may be `optional`). */
export const isParseInt = (pipe: PipeLike): boolean =>
  pipe === ParseIntPipe || pipe instanceof ParseIntPipe;

/** The value a `DefaultValuePipe` among `pipes` gives an absent parameter. */
export const pipeDefault = (
  pipes: ReadonlyArray<PipeLike>,
): { readonly value: unknown } | undefined => {
  const found = pipes.find((pipe): pipe is DefaultValuePipe => pipe instanceof DefaultValuePipe);
  return found === undefined ? undefined : { value: found.defaultValue };
};

/** `true` when a `ValidationPipe` is among `pipes` (a class DTO is then validated). */
export const hasValidationPipe = (pipes: ReadonlyArray<PipeLike>): boolean =>
  pipes.some((pipe) => pipe === ValidationPipe || pipe instanceof ValidationPipe);
