import * as Schema from "effect/Schema";
import type { ParamScan } from "../compiler/ControllerScan.js";
import { StartupError } from "../di/StartupError.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import type { DescribedRoute } from "./DescribedRoute.js";
import type { JsonSchema, Parameter } from "./OpenApiDocument.js";
import { pathParameterNames } from "./OpenApiPath.js";
import {
  declaredClassDto,
  declaredSchema,
  hasValidationPipe,
  isParseInt,
  pipeDefault,
  pipeType,
} from "./ParameterPipes.js";
import { acceptsUndefined, resolveRef } from "./SchemaJson.js";

/** Header parameters OpenAPI describes otherwise (content negotiation, security) or not at all. */
const undescribedHeaders = new Set(["accept", "content-type", "authorization", "cookie"]);

const descriptionOf = (json: JsonSchema): { readonly description?: string } => {
  const description = (json as { readonly description?: string }).description;
  return description === undefined ? {} : { description };
};

/**
 * The path, query and header parameters of one operation, each once (the first to describe a
 * name wins), as its parameter decorators and pipes declare them.
 */
export interface OperationParameters {
  /** Describes a `@Param`, `@Query` or `@Headers` argument; `true` when it is validated. */
  readonly add: (param: ParamScan, pipes: ReadonlyArray<PipeLike>) => boolean;
  /** Every path parameter in path order (a string when undeclared), then the others. */
  readonly list: () => ReadonlyArray<Parameter>;
}

/** The properties of an object Schema (or a class DTO's JSON Schema), each as a parameter `in`. */
const objectParameters = (
  { registry, route }: DescribedRoute,
  schema: Schema.Schema.Any | JsonSchema,
  location: Parameter["in"],
  what: string,
): ReadonlyArray<Parameter> => {
  const json = (
    Schema.isSchema(schema) ? registry.convert(schema, route.where, what, true) : schema
  ) as {
    readonly properties?: Readonly<Record<string, JsonSchema>>;
    readonly required?: ReadonlyArray<string>;
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    schema: property,
    required: location === "path" || (json.required ?? []).includes(name),
    ...descriptionOf(property),
  }));
};

/** `@Param()` / `@Query()` without a name: the properties of its Schema or class DTO. */
const wholeObject = (described: DescribedRoute, param: ParamScan): ReadonlyArray<Parameter> => {
  const location = param.source === "param" ? "path" : "query";
  const what = `the ${location} parameters (@${param.source === "param" ? "Param" : "Query"})`;
  const schema = declaredSchema(param);
  if (schema !== undefined) return objectParameters(described, schema, location, what);
  const dto = declaredClassDto(param);
  if (dto === undefined) return [];
  const json = resolveRef(described.registry, described.dtoRef(dto));
  return objectParameters(described, json, location, what);
};

/** `@Param("id")` / `@Query("q")`: typed by its Schema, else by its parse pipes. */
const namedParameter = (
  { registry, route }: DescribedRoute,
  param: ParamScan,
  name: string,
  pipes: ReadonlyArray<PipeLike>,
): Parameter => {
  const location = param.source === "param" ? "path" : "query";
  const schema = declaredSchema(param);
  const fallback = pipeDefault(pipes);
  const typed =
    schema !== undefined
      ? registry.convert(schema, route.where, `the ${location} parameter ${JSON.stringify(name)}`)
      : (pipeType(pipes) ?? ({ type: "string" } as JsonSchema));
  const json =
    fallback === undefined ? typed : ({ ...typed, default: fallback.value } as JsonSchema);
  return {
    name,
    in: location,
    schema: json,
    required:
      location === "path" ||
      (fallback === undefined &&
        (schema !== undefined ? !acceptsUndefined(schema) : pipes.some(isParseInt))),
    ...descriptionOf(json),
  };
};

/** `true` when a parameter is validated: by its Schema, a parse pipe, or a class DTO's `ValidationPipe`. */
const validated = (param: ParamScan, pipes: ReadonlyArray<PipeLike>): boolean =>
  declaredSchema(param) !== undefined ||
  pipeType(pipes) !== undefined ||
  (param.name === undefined && declaredClassDto(param) !== undefined && hasValidationPipe(pipes));

/** The parameters of `described`'s route at `path` (its path parameters named there). */
export const operationParameters = (
  described: DescribedRoute,
  path: string,
): OperationParameters => {
  const parameters = new Map<string, Parameter>();
  const put = (parameter: Parameter) => {
    const key = `${parameter.in} ${parameter.name}`;
    if (!parameters.has(key)) parameters.set(key, parameter);
  };
  const pathNames = new Set(pathParameterNames(path));

  const add = (param: ParamScan, pipes: ReadonlyArray<PipeLike>): boolean => {
    if (param.source === "headers") {
      if (param.name !== undefined && !undescribedHeaders.has(param.name)) {
        put({
          name: param.name,
          in: "header",
          schema: { type: "string" } as JsonSchema,
          required: false,
        });
      }
      return false;
    }
    if (param.name === undefined) wholeObject(described, param).forEach(put);
    else put(namedParameter(described, param, param.name, pipes));
    return validated(param, pipes);
  };

  const list = (): ReadonlyArray<Parameter> => {
    for (const name of pathNames) {
      put({ name, in: "path", schema: { type: "string" } as JsonSchema, required: true });
    }
    for (const parameter of parameters.values()) {
      if (parameter.in === "path" && !pathNames.has(parameter.name)) {
        throw new StartupError({
          message: `OpenAPI: ${described.route.where}: the path parameter ${JSON.stringify(parameter.name)} is not in its path ${path}.`,
        });
      }
    }
    return [
      ...[...pathNames].map((name) => parameters.get(`path ${name}`) as Parameter),
      ...[...parameters.values()].filter((p) => p.in !== "path"),
    ];
  };

  return { add, list };
};
