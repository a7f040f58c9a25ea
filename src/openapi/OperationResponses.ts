import * as Schema from "effect/Schema";
import type { ControllerScan } from "../compiler/ControllerScan.js";
import type { ResponseMetadata } from "../decorators/OpenApiMetadata.js";
import { StartupError } from "../di/StartupError.js";
import type { DescribedRoute } from "./DescribedRoute.js";
import { ErrorBodySchema, ValidationErrorBodySchema } from "./ErrorBodies.js";
import type { JsonSchema, MediaType, Response } from "./OpenApiDocument.js";
import type { OperationInputs } from "./OperationInputs.js";
import { jsonContent } from "./SchemaJson.js";

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

/** What a route's responses depend on besides its scan. */
export interface ResponseFacts {
  readonly inputs: OperationInputs;
  /** The route requires a security scheme (a 401 may answer). */
  readonly secured: boolean;
  /** The route has guards (a 403 may answer). */
  readonly guarded: boolean;
  /** The media types of its successful bodies (a vendor one per media-type version). */
  readonly mediaTypes: ReadonlyArray<string>;
}

/** The success response: `@HttpCode` or `@Redirect`'s status, its `Location` and `@Header`s. */
const success = ({ route }: DescribedRoute): readonly [string, Response] => {
  const { redirect, headers, status } = route.response;
  const headerSchemas: Record<string, { readonly schema: JsonSchema }> = {};
  if (redirect !== undefined) {
    headerSchemas.location = { schema: { type: "string", examples: [redirect.url] } as JsonSchema };
  }
  for (const [name, value] of headers) {
    headerSchemas[name.toLowerCase()] = { schema: { type: "string", const: value } as JsonSchema };
  }
  const code = redirect?.statusCode ?? status;
  return [
    String(code),
    {
      description: describeStatus(code),
      ...(Object.keys(headerSchemas).length === 0 ? {} : { headers: headerSchemas }),
    },
  ];
};

/** The failures any such route may answer, in the standard error shape. */
const failures = (
  { registry, route }: DescribedRoute,
  facts: ResponseFacts,
): Record<string, Response> => {
  const { inputs } = facts;
  const errorContent = jsonContent(
    registry.convert(ErrorBodySchema, route.where, "the error body"),
  );
  const responses: Record<string, Response> = {};
  if (inputs.validates || inputs.readsBody) {
    responses["400"] = {
      description: inputs.isUpload
        ? "Not multipart/form-data, malformed, or refused by validation"
        : inputs.validates
          ? "Validation failed"
          : "Malformed body",
      content: jsonContent(
        registry.convert(ValidationErrorBodySchema, route.where, "the error body"),
      ),
    };
  }
  if (facts.secured) responses["401"] = { description: "Unauthorized", content: errorContent };
  if (facts.guarded) {
    responses["403"] = { description: "Forbidden (a guard refused)", content: errorContent };
  }
  if (inputs.readsBody) {
    responses["413"] = { description: "Payload Too Large", content: errorContent };
  }
  responses.default = {
    description: "Any other failure, in the standard error shape",
    content: errorContent,
  };
  return responses;
};

/** A response body Schema given to `@ApiResponse`, checked and converted. */
const declaredContent = (
  { registry, route }: DescribedRoute,
  meta: ResponseMetadata,
  mediaTypes: ReadonlyArray<string>,
): Readonly<Record<string, MediaType>> | undefined => {
  if (meta.type === undefined) return undefined;
  if (!Schema.isSchema(meta.type)) {
    throw new StartupError({
      message: `OpenAPI: ${route.where}: the type of @ApiResponse({ status: ${JSON.stringify(meta.status)} }) is not an Effect Schema.`,
    });
  }
  const schema = meta.isArray === true ? Schema.Array(meta.type) : meta.type;
  const json = registry.convert(schema, route.where, `the ${meta.status} response body`);
  return Object.fromEntries(mediaTypes.map((type) => [type, { schema: json }]));
};

/**
 * The responses of a route: its success (status, `Location`, headers), the failures its inputs,
 * security and guards may answer, then the `@ApiResponse`s of its controller and its own, which
 * win. A success under a media-type version has that media type even when its body is not
 * described.
 */
export const operationResponses = (
  scan: ControllerScan,
  described: DescribedRoute,
  facts: ResponseFacts,
): Record<string, Response> => {
  const [code, response] = success(described);
  const responses: Record<string, Response> = {
    [code]: response,
    ...failures(described, facts),
  };
  for (const declared of [...scan.api.responses, ...described.route.api.responses]) {
    const key = String(declared.status);
    const content = declaredContent(
      described,
      declared,
      typeof declared.status === "number" && declared.status < 300
        ? facts.mediaTypes
        : ["application/json"],
    );
    const previous = responses[key];
    responses[key] = {
      ...previous,
      description: declared.description ?? previous?.description ?? describeStatus(declared.status),
      ...(content === undefined ? {} : { content }),
    };
  }
  if (facts.mediaTypes[0] !== "application/json" && responses[code]?.content === undefined) {
    responses[code] = {
      ...responses[code],
      content: Object.fromEntries(
        facts.mediaTypes.map((type) => [type, { schema: {} as JsonSchema }]),
      ),
    } as Response;
  }
  return responses;
};
