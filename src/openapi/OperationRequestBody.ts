import type { ParamScan } from "../compiler/ControllerScan.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import type { DescribedRoute } from "./DescribedRoute.js";
import type { JsonSchema, Operation } from "./OpenApiDocument.js";
import {
  declaredClassDto,
  declaredSchema,
  hasValidationPipe,
  pipeSchema,
} from "./ParameterPipes.js";
import { acceptsUndefined, jsonContent, resolveRef } from "./SchemaJson.js";

interface BodyEntry {
  readonly schema: JsonSchema | undefined;
  readonly required: boolean;
}

interface FileField {
  readonly name: string | undefined;
  readonly many: boolean;
}

type JsonObject = {
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: ReadonlyArray<string>;
};

const binary: JsonSchema = { type: "string", format: "binary" } as JsonSchema;

/**
 * The request body of one operation, as its `@Body`, `@UploadedFile(s)` arguments and pipes
 * declare it: JSON (the body's Schema or class DTO, or an object of the `@Body("key")`
 * properties), or `multipart/form-data` for an upload (its files and text fields).
 */
export interface OperationRequestBody {
  /** Describes a `@Body` argument; `true` when it is validated. */
  readonly addBody: (param: ParamScan, pipes: ReadonlyArray<PipeLike>) => boolean;
  /** Describes an `@UploadedFile` / `@UploadedFiles` argument. */
  readonly addFile: (param: ParamScan) => void;
  /** The body described, if any. */
  readonly requestBody: () => Operation["requestBody"];
  /** `true` for a `multipart/form-data` body. */
  readonly isUpload: () => boolean;
  /** `true` when the route reads a body (JSON or multipart). */
  readonly readsBody: () => boolean;
}

/** The `multipart/form-data` body of an upload: its files, and the text fields of `fields`. */
const multipart = (
  described: DescribedRoute,
  fields: JsonSchema,
  files: ReadonlyArray<FileField>,
): Operation["requestBody"] => {
  const resolved = resolveRef(described.registry, fields) as JsonObject;
  const properties: Record<string, JsonSchema> = { ...(resolved?.properties ?? {}) };
  let anyFile = false;
  for (const file of files) {
    if (file.name === undefined) anyFile = true;
    else
      properties[file.name] = file.many ? ({ type: "array", items: binary } as JsonSchema) : binary;
  }
  return {
    required: true,
    content: {
      "multipart/form-data": {
        schema: {
          type: "object",
          properties,
          ...(resolved?.required === undefined ? {} : { required: resolved.required }),
          ...(anyFile ? { additionalProperties: binary } : {}),
        } as JsonSchema,
      },
    },
  };
};

/** `@Body("name")` arguments without a whole `@Body()`: properties of the body object. */
const ofProperties = (properties: ReadonlyMap<string, BodyEntry>): BodyEntry => ({
  required: true,
  schema: {
    type: "object",
    properties: Object.fromEntries(
      [...properties].map(([name, entry]) => [name, entry.schema ?? {}]),
    ),
    required: [...properties].filter(([, entry]) => entry.required).map(([name]) => name),
  } as JsonSchema,
});

/** The request body of `described`'s route, filled in argument by argument. */
export const operationRequestBody = (described: DescribedRoute): OperationRequestBody => {
  const { registry, route } = described;
  let whole: BodyEntry | undefined;
  const properties = new Map<string, BodyEntry>();
  const files: Array<FileField> = [];
  const body = () =>
    whole === undefined && properties.size > 0 ? ofProperties(properties) : whole;

  const addBody = (param: ParamScan, pipes: ReadonlyArray<PipeLike>): boolean => {
    const declared = declaredSchema(param) ?? pipeSchema(pipes);
    const dto = declared === undefined ? declaredClassDto(param) : undefined;
    const what =
      param.name === undefined
        ? "the body (@Body)"
        : `the body property ${JSON.stringify(param.name)}`;
    const entry = {
      schema:
        declared !== undefined
          ? registry.convert(declared, route.where, what)
          : dto !== undefined
            ? described.dtoRef(dto)
            : undefined,
      required: dto !== undefined || (declared !== undefined && !acceptsUndefined(declared)),
    };
    if (param.name === undefined) whole = entry;
    else properties.set(param.name, entry);
    return declared !== undefined || (dto !== undefined && hasValidationPipe(pipes));
  };

  const requestBody = (): Operation["requestBody"] => {
    const json = body();
    if (files.length > 0) return multipart(described, json?.schema ?? ({} as JsonSchema), files);
    if (json === undefined) return undefined;
    return { required: json.required, content: jsonContent(json.schema ?? ({} as JsonSchema)) };
  };

  return {
    addBody,
    addFile: (param) => {
      files.push({ name: param.name, many: param.source === "files" });
    },
    requestBody,
    isUpload: () => files.length > 0,
    readsBody: () => body() !== undefined || files.length > 0,
  };
};
