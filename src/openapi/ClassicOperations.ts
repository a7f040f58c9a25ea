import * as Schema from "effect/Schema";
import { readList } from "../decorators/ClassOrMethodDecorator.js";
import type { ControllerMetadata } from "../decorators/Controller.js";
import type { ParamMetadata } from "../decorators/Params.js";
import type { RedirectMetadata } from "../decorators/ResponseDecorators.js";
import type { RouteMetadata } from "../decorators/Route.js";
import { MetadataKey, readMetadata } from "../di/metadata.js";
import { StartupError } from "../di/StartupError.js";
import { joinRoutePath } from "../http/RoutePath.js";
import type { GuardLike } from "../pipeline/CanActivate.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import {
  VERSION_NEUTRAL,
  type VersionId,
  type VersioningOptions,
  VersioningType,
  type VersionValue,
  versionList,
} from "../pipeline/Versioning.js";
import { DefaultValuePipe } from "../pipes/DefaultValuePipe.js";
import { ParseBoolPipe } from "../pipes/ParseBoolPipe.js";
import { ParseFloatPipe } from "../pipes/ParseFloatPipe.js";
import { ParseIntPipe } from "../pipes/ParseIntPipe.js";
import { ParseUUIDPipe } from "../pipes/ParseUUIDPipe.js";
import { ValidationPipe } from "../pipes/ValidationPipe.js";
import { classDtoSchemas, isClassDto } from "./ClassSchema.js";
import { ErrorBodySchema, ValidationErrorBodySchema } from "./ErrorBodies.js";
import type {
  JsonSchema,
  MediaType,
  MethodName,
  Operation,
  Parameter,
  Response,
  SecurityScheme,
} from "./OpenApiDocument.js";
import {
  OpenApiKey,
  type OperationMetadata,
  type ResponseMetadata,
  readOn,
  type SecurityMetadata,
} from "./OpenApiMetadata.js";
import { acceptsUndefined, type SchemaRegistry } from "./SchemaJson.js";

/** What describing the controllers of an app needs besides the controllers. */
export interface ClassicOptions {
  readonly versioning?: VersioningOptions;
  readonly globalGuards?: ReadonlyArray<GuardLike>;
  readonly globalPipes?: ReadonlyArray<PipeLike>;
  /**
   * Where the app serves a route its metadata places at `path` (`/v1/books/:id`): the same
   * path, or another once the app moved it (a global prefix). Default: `path`.
   */
  readonly servedPath?: (route: ServedRoute) => string;
}

/** A classic route as its metadata places it. */
export interface ServedRoute {
  readonly controller: string;
  readonly handler: string;
  readonly method: string;
  readonly path: string;
}

/** One described operation, at its OpenAPI path. */
export interface ClassicOperation {
  readonly path: string;
  readonly method: MethodName;
  readonly operation: Operation;
  /** Names the route in conflict messages (`BooksController.find`). */
  readonly where: string;
}

/** The classic routes of an app, described: operations, and the schemes they require. */
export interface ClassicDescription {
  readonly operations: ReadonlyArray<ClassicOperation>;
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
}

/** Header parameters OpenAPI describes otherwise (content negotiation, security) or not at all. */
const undescribedHeaders = new Set(["accept", "content-type", "authorization", "cookie"]);

const binary: JsonSchema = { type: "string", format: "binary" } as JsonSchema;

const jsonContent = (schema: JsonSchema): Readonly<Record<string, MediaType>> => ({
  "application/json": { schema },
});

const statusText: Readonly<Record<number, string>> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
};

const describeStatus = (status: number | "default"): string =>
  status === "default" ? "Error" : (statusText[status] ?? `Status ${status}`);

/** `/books/:id` as `/books/{id}` (a `:name(regexp)` parameter keeps its name only). */
const openApiPath = (path: string): string =>
  path.replace(/:(\w+)(\([^)]*\))?\??/g, "{$1}").replace(/\*$/, "{wildcard}");

const pathParameterNames = (path: string): ReadonlyArray<string> =>
  [...openApiPath(path).matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);

const classOf = (item: unknown): Function =>
  typeof item === "function" ? item : (item as object).constructor;

const isSchema = (u: unknown): u is Schema.Schema.Any => Schema.isSchema(u);

/** What a body, query or path argument is validated against: its decorator's Schema, else its TypeScript type's. */
const declaredSchema = (
  meta: ParamMetadata,
  designTypes: ReadonlyArray<unknown>,
): Schema.Schema.Any | undefined => {
  const declared = meta.dtoType ?? designTypes[meta.index];
  return isSchema(declared) ? declared : undefined;
};

interface BodyEntry {
  readonly schema: JsonSchema | undefined;
  readonly required: boolean;
}

/** The Schema a `ValidationPipe({ schema })` among `pipes` validates arguments against. */
const pipeSchema = (pipes: ReadonlyArray<PipeLike>): Schema.Schema.Any | undefined => {
  for (let i = pipes.length - 1; i >= 0; i--) {
    const pipe = pipes[i];
    if (pipe instanceof ValidationPipe && pipe.options.schema !== undefined) {
      return pipe.options.schema;
    }
  }
  return undefined;
};

/** The type the built-in parse pipes among `pipes` make of a parameter (the last one wins). */
const pipeType = (pipes: ReadonlyArray<PipeLike>): JsonSchema | undefined => {
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
const isParseInt = (pipe: PipeLike): boolean =>
  pipe === ParseIntPipe || pipe instanceof ParseIntPipe;

/** The value a `DefaultValuePipe` among `pipes` gives an absent parameter. */
const pipeDefault = (pipes: ReadonlyArray<PipeLike>): { readonly value: unknown } | undefined => {
  const found = pipes.find((pipe): pipe is DefaultValuePipe => pipe instanceof DefaultValuePipe);
  return found === undefined ? undefined : { value: found.defaultValue };
};

const controllerTag = (cls: Function): string =>
  cls.name.endsWith("Controller") && cls.name !== "Controller"
    ? cls.name.slice(0, -"Controller".length)
    : cls.name;

/** The versions an entry answers, as `versionedRoutes` assigns them. */
const entryVersions = (
  declared: ReadonlyArray<VersionId>,
  versioning: VersioningOptions | undefined,
): ReadonlyArray<VersionId> => {
  if (versioning === undefined) return [VERSION_NEUTRAL];
  if (declared.length > 0) return declared;
  const defaults = versionList(versioning.defaultVersion);
  return defaults.length > 0 ? defaults : [VERSION_NEUTRAL];
};

interface RouteContext {
  readonly cls: Function;
  readonly handler: string | symbol;
  readonly where: string;
  readonly registry: SchemaRegistry;
  /** A class DTO's JSON Schema (a `$ref` to its component). */
  readonly dtoRef: (cls: Function) => JsonSchema;
}

/** The class DTO (class-validator or `@ApiProperty` decorated) an argument is declared as, if any. */
const declaredClassDto = (
  meta: ParamMetadata,
  designTypes: ReadonlyArray<unknown>,
): Function | undefined => {
  const declared = meta.dtoType ?? designTypes[meta.index];
  return isClassDto(declared) ? declared : undefined;
};

/** `true` when a `ValidationPipe` is among `pipes` (a class DTO is then validated). */
const hasValidationPipe = (pipes: ReadonlyArray<PipeLike>): boolean =>
  pipes.some((pipe) => pipe === ValidationPipe || pipe instanceof ValidationPipe);

/** A response body Schema given to `@ApiResponse`, checked and converted. */
const responseContent = (
  meta: ResponseMetadata,
  route: RouteContext,
  mediaTypes: ReadonlyArray<string>,
): Readonly<Record<string, MediaType>> | undefined => {
  if (meta.type === undefined) return undefined;
  if (!isSchema(meta.type)) {
    throw new StartupError({
      message: `OpenAPI: ${route.where}: the type of @ApiResponse({ status: ${JSON.stringify(meta.status)} }) is not an Effect Schema.`,
    });
  }
  const schema = meta.isArray === true ? Schema.Array(meta.type) : meta.type;
  const json = route.registry.convert(schema, route.where, `the ${meta.status} response body`);
  return Object.fromEntries(mediaTypes.map((type) => [type, { schema: json }]));
};

/** A component's JSON Schema for a `$ref` to it, else `json` itself. */
const resolveRef = (registry: SchemaRegistry, json: JsonSchema): JsonSchema => {
  const ref = (json as { readonly $ref?: string }).$ref;
  return ref === undefined ? json : (registry.defs[ref.slice(ref.lastIndexOf("/") + 1)] ?? json);
};

/** The parameters and body a route's parameter decorators (and pipes) describe. */
const inputs = (
  route: RouteContext,
  path: string,
  params: ReadonlyArray<ParamMetadata>,
  routePipes: ReadonlyArray<PipeLike>,
) => {
  const { registry, where } = route;
  const designTypes =
    readMetadata<ReadonlyArray<unknown>>(
      "design:paramtypes",
      route.cls.prototype as object,
      route.handler,
    ) ?? [];
  const parameters = new Map<string, Parameter>();
  const add = (parameter: Parameter) => {
    const key = `${parameter.in} ${parameter.name}`;
    if (!parameters.has(key)) parameters.set(key, parameter);
  };
  const pathNames = new Set(pathParameterNames(path));
  /** The properties of an object Schema (or a class DTO's JSON Schema), each as a parameter `in`. */
  const fromObject = (
    schema: Schema.Schema.Any | JsonSchema,
    where_: Parameter["in"],
    what: string,
  ) => {
    const json = (isSchema(schema) ? registry.convert(schema, where, what, true) : schema) as {
      readonly properties?: Readonly<Record<string, JsonSchema>>;
      readonly required?: ReadonlyArray<string>;
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const description = (property as { readonly description?: string }).description;
      add({
        name,
        in: where_,
        schema: property,
        required: where_ === "path" || (json.required ?? []).includes(name),
        ...(description === undefined ? {} : { description }),
      });
    }
  };

  let body: BodyEntry | undefined;
  const bodyProperties = new Map<string, BodyEntry>();
  const files: Array<{ readonly name: string | undefined; readonly many: boolean }> = [];
  let validates = false;
  for (const meta of params) {
    const own = meta.pipes;
    const pipes = [...routePipes, ...own];
    switch (meta.source) {
      case "param":
      case "query": {
        const where_ = meta.source === "param" ? "path" : "query";
        const schema = declaredSchema(meta, designTypes);
        const parsed = pipeType(pipes);
        if (schema !== undefined || parsed !== undefined) validates = true;
        if (meta.name === undefined) {
          const what = `the ${where_} parameters (@${meta.source === "param" ? "Param" : "Query"})`;
          const dto = schema === undefined ? declaredClassDto(meta, designTypes) : undefined;
          if (schema !== undefined) fromObject(schema, where_, what);
          else if (dto !== undefined) {
            if (hasValidationPipe(pipes)) validates = true;
            fromObject(resolveRef(registry, route.dtoRef(dto)), where_, what);
          }
          break;
        }
        const what = `the ${where_} parameter ${JSON.stringify(meta.name)}`;
        const fallback = pipeDefault(pipes);
        const typed =
          schema !== undefined
            ? registry.convert(schema, where, what)
            : (parsed ?? ({ type: "string" } as JsonSchema));
        const json =
          fallback === undefined ? typed : ({ ...typed, default: fallback.value } as JsonSchema);
        const description = (json as { readonly description?: string }).description;
        add({
          name: meta.name,
          in: where_,
          schema: json,
          required:
            where_ === "path" ||
            (fallback === undefined &&
              (schema !== undefined ? !acceptsUndefined(schema) : pipes.some(isParseInt))),
          ...(description === undefined ? {} : { description }),
        });
        break;
      }
      case "headers":
        if (meta.name !== undefined && !undescribedHeaders.has(meta.name)) {
          add({
            name: meta.name,
            in: "header",
            schema: { type: "string" } as JsonSchema,
            required: false,
          });
        }
        break;
      case "body": {
        const declared = declaredSchema(meta, designTypes) ?? pipeSchema(pipes);
        const dto = declared === undefined ? declaredClassDto(meta, designTypes) : undefined;
        if (declared !== undefined || (dto !== undefined && hasValidationPipe(pipes))) {
          validates = true;
        }
        const what =
          meta.name === undefined
            ? "the body (@Body)"
            : `the body property ${JSON.stringify(meta.name)}`;
        const entry = {
          schema:
            declared !== undefined
              ? registry.convert(declared, where, what)
              : dto !== undefined
                ? route.dtoRef(dto)
                : undefined,
          required: dto !== undefined || (declared !== undefined && !acceptsUndefined(declared)),
        };
        if (meta.name === undefined) body = entry;
        else bodyProperties.set(meta.name, entry);
        break;
      }
      case "file":
      case "files":
        files.push({ name: meta.name, many: meta.source === "files" });
        break;
    }
  }
  if (body === undefined && bodyProperties.size > 0) {
    // `@Body("name")`: properties of the body object.
    body = {
      required: true,
      schema: {
        type: "object",
        properties: Object.fromEntries(
          [...bodyProperties].map(([name, entry]) => [name, entry.schema ?? {}]),
        ),
        required: [...bodyProperties].filter(([, entry]) => entry.required).map(([name]) => name),
      } as JsonSchema,
    };
  }
  // Every path parameter, typed by a decorator above or a string.
  for (const name of pathNames)
    add({ name, in: "path", schema: { type: "string" } as JsonSchema, required: true });
  const pathParameters = [...parameters.values()].filter((p) => p.in === "path");
  for (const parameter of pathParameters) {
    if (!pathNames.has(parameter.name)) {
      throw new StartupError({
        message: `OpenAPI: ${where}: the path parameter ${JSON.stringify(parameter.name)} is not in its path ${path}.`,
      });
    }
  }
  const ordered = [
    ...[...pathNames].map((name) => parameters.get(`path ${name}`) as Parameter),
    ...[...parameters.values()].filter((p) => p.in !== "path"),
  ];

  let requestBody: Operation["requestBody"];
  if (files.length > 0) {
    // An upload: its files, and the form's text fields (the body's Schema, if any).
    const fields = (body?.schema ?? {}) as {
      readonly properties?: Readonly<Record<string, JsonSchema>>;
      readonly required?: ReadonlyArray<string>;
      readonly $ref?: string;
    };
    const resolved = resolveRef(registry, fields as JsonSchema) as typeof fields;
    const properties: Record<string, JsonSchema> = { ...(resolved?.properties ?? {}) };
    let anyFile = false;
    for (const file of files) {
      if (file.name === undefined) anyFile = true;
      else
        properties[file.name] = file.many
          ? ({ type: "array", items: binary } as JsonSchema)
          : binary;
    }
    requestBody = {
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
  } else if (body !== undefined) {
    requestBody = {
      required: body.required,
      content: jsonContent(body.schema ?? ({} as JsonSchema)),
    };
  }
  return {
    parameters: ordered,
    requestBody,
    isUpload: files.length > 0,
    readsBody: body !== undefined || files.length > 0,
    validates,
  };
};

/** The security requirements of a route: `@ApiSecurity` on it, its controller and its guards. */
const securityOf = (
  cls: Function,
  handler: string | symbol,
  guards: ReadonlyArray<GuardLike>,
  schemes: Record<string, SecurityScheme>,
  where: string,
): ReadonlyArray<SecurityMetadata> => {
  const found = [
    ...guards.flatMap(
      (guard) => readOn<ReadonlyArray<SecurityMetadata>>(OpenApiKey.security, classOf(guard)) ?? [],
    ),
    ...(readOn<ReadonlyArray<SecurityMetadata>>(OpenApiKey.security, cls) ?? []),
    ...(readOn<ReadonlyArray<SecurityMetadata>>(OpenApiKey.security, cls, handler) ?? []),
  ];
  const unique = new Map<string, SecurityMetadata>();
  for (const requirement of found) {
    if (requirement.scheme !== undefined) {
      const known = schemes[requirement.name];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(requirement.scheme)) {
        throw new StartupError({
          message: `OpenAPI: ${where}: two different security schemes are named ${JSON.stringify(requirement.name)}.`,
        });
      }
      schemes[requirement.name] = requirement.scheme;
    }
    if (!unique.has(requirement.name)) unique.set(requirement.name, requirement);
  }
  return [...unique.values()];
};

/** An operation, with the header or media-type versions it answers. */
interface Described extends ClassicOperation {
  readonly versions: ReadonlyArray<string>;
}

/**
 * The operations sharing one method and path, as one: with header versioning, the first
 * describes them and the version header lists every version; with media-type versioning, each
 * version's responses are under its own media type.
 */
const combine = (
  group: ReadonlyArray<Described>,
  versioning: VersioningOptions | undefined,
): ClassicOperation => {
  const [first, ...rest] = group as [Described, ...Array<Described>];
  const { versions: _, ...entry } = first;
  const versions = [...new Set(group.flatMap((e) => e.versions))];
  if (versioning?.type === VersioningType.MEDIA_TYPE && rest.length > 0) {
    const responses: Record<string, Response> = { ...first.operation.responses };
    for (const other of rest) {
      for (const [code, response] of Object.entries(other.operation.responses)) {
        const before = responses[code];
        responses[code] =
          before === undefined || before.content === undefined || response.content === undefined
            ? (before ?? response)
            : { ...before, content: { ...before.content, ...response.content } };
      }
    }
    return { ...entry, operation: { ...first.operation, responses } };
  }
  if (versioning?.type !== VersioningType.HEADER || versions.length === 0) return entry;
  const defaults = versionList(versioning.defaultVersion).filter(
    (v): v is string => v !== VERSION_NEUTRAL,
  );
  const parameter: Parameter = {
    name: versioning.header ?? "X-API-Version",
    in: "header",
    required: false,
    description:
      defaults.length > 0 ? `The API version (default ${defaults.join(", ")})` : "The API version",
    schema: { type: "string", enum: versions } as JsonSchema,
  };
  return {
    ...entry,
    operation: {
      ...first.operation,
      parameters: [...(first.operation.parameters ?? []), parameter],
    },
  };
};

/**
 * Describes the routes of classic controllers, once, at startup: each route's method and path
 * (`:id` as `{id}`, with its URI version), parameters (path, query and headers, typed by their
 * Schemas or `ParseIntPipe`), body (`@Body(Dto)`, a `ValidationPipe({ schema })`, or a Schema
 * design type; `multipart/form-data` for uploads), version (URI path, header parameter or
 * vendor media type), security (`@ApiSecurity` on the route, its controller or its guards),
 * success response (`@HttpCode`, `@Redirect`, `@Header`) and error responses in the standard
 * shape, with what the `Api*` decorators add. A Schema JSON Schema cannot express fails with
 * a `StartupError` naming the route and the field.
 */
export const describeControllers = (
  controllers: ReadonlyArray<Function>,
  options: ClassicOptions,
  registry: SchemaRegistry,
  knownSchemes: Readonly<Record<string, SecurityScheme>>,
): ClassicDescription => {
  const securitySchemes: Record<string, SecurityScheme> = {};
  const described: Array<Described> = [];
  const dtoRef = classDtoSchemas(registry.defs);
  const versioning = options.versioning;
  const vendor = versioning?.vendor ?? "strata";
  const prefix = versioning?.prefix ?? "v";
  for (const cls of controllers) {
    if (readOn<boolean>(OpenApiKey.exclude, cls) === true) continue;
    const controller = readMetadata<ControllerMetadata>(MetadataKey.controller, cls) ?? {
      path: "",
    };
    const routes = readMetadata<ReadonlyArray<RouteMetadata>>(MetadataKey.routes, cls) ?? [];
    const classVersion = readMetadata<VersionValue>(MetadataKey.version, cls) ?? controller.version;
    const classGuards = readList<GuardLike>(MetadataKey.guards, cls);
    const classPipes = readList<PipeLike>(MetadataKey.pipes, cls);
    const classResponses = readOn<ReadonlyArray<ResponseMetadata>>(OpenApiKey.responses, cls) ?? [];
    const classTags = readOn<ReadonlyArray<string>>(OpenApiKey.tags, cls) ?? [];
    const prototype = cls.prototype as object;
    for (const route of routes) {
      const handler = route.handler;
      if (readOn<boolean>(OpenApiKey.exclude, cls, handler) === true) continue;
      const where = `${cls.name}.${String(handler)}`;
      const context: RouteContext = { cls, handler, where, registry, dtoRef };
      const basePath = joinRoutePath(controller.path, route.path);
      const params = [
        ...(readMetadata<ReadonlyArray<ParamMetadata>>(MetadataKey.params, prototype, handler) ??
          []),
      ].sort((a, b) => a.index - b.index);
      const routePipes = [
        ...(options.globalPipes ?? []),
        ...classPipes,
        ...readList<PipeLike>(MetadataKey.pipes, cls, handler),
      ];
      const input = inputs(context, basePath, params, routePipes);
      const guards = [
        ...(options.globalGuards ?? []),
        ...classGuards,
        ...readList<GuardLike>(MetadataKey.guards, cls, handler),
      ];
      const security = securityOf(cls, handler, guards, securitySchemes, where);
      for (const requirement of security) {
        if (
          securitySchemes[requirement.name] === undefined &&
          knownSchemes[requirement.name] === undefined
        ) {
          throw new StartupError({
            message: `OpenAPI: ${where}: the security requirement ${JSON.stringify(requirement.name)} has no scheme: give one to @ApiSecurity or to openapi.securitySchemes.`,
          });
        }
      }
      const meta = readOn<OperationMetadata>(OpenApiKey.operation, cls, handler) ?? {};
      const redirect = readMetadata<RedirectMetadata>(MetadataKey.redirect, prototype, handler);
      const status =
        redirect?.statusCode ??
        readMetadata<number>(MetadataKey.httpCode, prototype, handler) ??
        (route.method === "POST" ? 201 : 200);
      const headerPairs =
        readMetadata<ReadonlyArray<readonly [string, string]>>(
          MetadataKey.headers,
          prototype,
          handler,
        ) ?? [];
      const declared = versionList(
        readMetadata<VersionValue>(MetadataKey.version, prototype, handler) ?? classVersion,
      );
      const versions = entryVersions(declared, versioning);
      const named = versions.filter((v): v is string => v !== VERSION_NEUTRAL);
      const mediaTypes =
        versioning?.type === VersioningType.MEDIA_TYPE && named.length > 0
          ? named.map((v) => `application/vnd.${vendor}.v${v}+json`)
          : ["application/json"];

      const responses: Record<string, Response> = {};
      const successHeaders: Record<string, { readonly schema: JsonSchema }> = {};
      if (redirect !== undefined) {
        successHeaders.location = {
          schema: { type: "string", examples: [redirect.url] } as JsonSchema,
        };
      }
      for (const [name, value] of headerPairs) {
        successHeaders[name.toLowerCase()] = {
          schema: { type: "string", const: value } as JsonSchema,
        };
      }
      responses[String(status)] = {
        description: describeStatus(status),
        ...(Object.keys(successHeaders).length === 0 ? {} : { headers: successHeaders }),
      };
      const errorContent = jsonContent(registry.convert(ErrorBodySchema, where, "the error body"));
      if (input.validates || input.readsBody) {
        responses["400"] = {
          description: input.isUpload
            ? "Not multipart/form-data, malformed, or refused by validation"
            : input.validates
              ? "Validation failed"
              : "Malformed body",
          content: jsonContent(
            registry.convert(ValidationErrorBodySchema, where, "the error body"),
          ),
        };
      }
      if (security.length > 0) {
        responses["401"] = { description: "Unauthorized", content: errorContent };
      }
      if (guards.length > 0) {
        responses["403"] = { description: "Forbidden (a guard refused)", content: errorContent };
      }
      if (input.readsBody) {
        responses["413"] = { description: "Payload Too Large", content: errorContent };
      }
      responses.default = {
        description: "Any other failure, in the standard error shape",
        content: errorContent,
      };
      const ownResponses =
        readOn<ReadonlyArray<ResponseMetadata>>(OpenApiKey.responses, cls, handler) ?? [];
      for (const response of [...classResponses, ...ownResponses]) {
        const key = String(response.status);
        const content = responseContent(
          response,
          context,
          typeof response.status === "number" && response.status < 300
            ? mediaTypes
            : ["application/json"],
        );
        const previous = responses[key];
        responses[key] = {
          ...previous,
          description:
            response.description ?? previous?.description ?? describeStatus(response.status),
          ...(content === undefined ? {} : { content }),
        };
      }
      if (
        mediaTypes[0] !== "application/json" &&
        responses[String(status)]?.content === undefined
      ) {
        // A media-type version is the response's type even when its body is not described.
        responses[String(status)] = {
          ...responses[String(status)],
          content: Object.fromEntries(
            mediaTypes.map((type) => [type, { schema: {} as JsonSchema }]),
          ),
        } as Response;
      }

      const tags = [
        ...new Set([
          ...classTags,
          ...(readOn<ReadonlyArray<string>>(OpenApiKey.tags, cls, handler) ?? []),
          ...(meta.tags ?? []),
        ]),
      ];
      const method = route.method.toLowerCase() as MethodName;
      const served = (path: string) =>
        options.servedPath?.({
          controller: cls.name,
          handler: String(handler),
          method: route.method,
          path,
        }) ?? path;
      const baseOperation: Operation = {
        operationId: meta.operationId ?? `${cls.name}.${String(handler)}`,
        ...(meta.summary === undefined ? {} : { summary: meta.summary }),
        ...(meta.description === undefined ? {} : { description: meta.description }),
        tags: tags.length > 0 ? tags : [controllerTag(cls)],
        ...(meta.deprecated === true ? { deprecated: true } : {}),
        ...(input.parameters.length === 0 ? {} : { parameters: input.parameters }),
        ...(input.requestBody === undefined ? {} : { requestBody: input.requestBody }),
        responses,
        ...(security.length === 0
          ? {}
          : { security: security.map((s) => ({ [s.name]: [...s.scopes] })) }),
      };

      if (versioning?.type === VersioningType.URI) {
        for (const version of versions) {
          const path =
            version === VERSION_NEUTRAL ? basePath : joinRoutePath(`${prefix}${version}`, basePath);
          described.push({
            path: openApiPath(served(path)),
            method,
            where,
            versions: [],
            operation:
              version === VERSION_NEUTRAL || versions.length === 1
                ? baseOperation
                : { ...baseOperation, operationId: `${baseOperation.operationId}.v${version}` },
          });
        }
      } else {
        described.push({
          path: openApiPath(served(basePath)),
          method,
          where,
          versions: named,
          operation: baseOperation,
        });
      }
    }
  }
  // Header and media-type versions of a path share its operation.
  const groups = new Map<string, Array<Described>>();
  for (const entry of described) {
    const key = `${entry.method} ${entry.path}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const operations = [...groups.values()].map((group) => combine(group, versioning));
  return { operations, securitySchemes };
};
