/**
 * What the built-in routes' OpenAPI document needs beside their Schemas: the response headers
 * (the redirect, the cookie, no caching), and no `HttpApiDecodeError`, which these routes never
 * answer.
 *
 * @since 0.1.0
 */

const secured = { schema: { type: "string" } } as const;

/** Response headers OpenAPI cannot take from the Schemas: the redirect, the cookie, no caching. */
export const withHeaders =
  (cookie: string) =>
  (operation: Record<string, unknown>): Record<string, unknown> => {
    const responses = operation.responses as Record<string, Record<string, unknown>>;
    const headers = {
      "Cache-Control": { ...secured, description: "no-store" },
      "Referrer-Policy": { ...secured, description: "no-referrer" },
    };
    const described = Object.fromEntries(
      Object.entries(responses).map(([status, response]) => [
        status,
        {
          ...response,
          headers: {
            ...headers,
            ...(status === "302" ? { Location: { ...secured, description: "Where to go" } } : {}),
            "Set-Cookie": { ...secured, description: cookie },
          },
        },
      ]),
    );
    return { ...operation, responses: described };
  };

/**
 * The document less `HttpApiDecodeError`, which every `HttpApi` declares but these routes never
 * answer (a bad redirect parameter is their 400).
 */
interface SpecShape {
  readonly paths: Record<
    string,
    Record<
      string,
      {
        readonly responses: Record<
          string,
          {
            readonly content?: Record<
              string,
              { schema?: { readonly anyOf?: ReadonlyArray<unknown>; readonly $ref?: string } }
            >;
          }
        >;
      }
    >
  >;
  readonly components: { readonly schemas: Record<string, unknown> };
}

const decodeError = "#/components/schemas/HttpApiDecodeError";

const isDecodeError = (schema: unknown): boolean =>
  (schema as { readonly $ref?: string } | undefined)?.$ref === decodeError;

export const withoutDecodeErrors = <Spec extends object>(input: Spec): Spec => {
  const spec = input as unknown as SpecShape;
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      const content = operation.responses["400"]?.content?.["application/json"];
      if (content === undefined) continue;
      // The 400 of a route that has none of its own is the decode error alone.
      if (isDecodeError(content.schema)) {
        delete operation.responses["400"];
        continue;
      }
      const rest = (content.schema?.anyOf ?? []).filter((schema) => !isDecodeError(schema));
      if (content.schema?.anyOf !== undefined) {
        content.schema = (rest.length === 1 ? rest[0] : { anyOf: rest }) as typeof content.schema;
      }
    }
  }
  const {
    HttpApiDecodeError: _,
    Issue: __,
    PropertyKey: ___,
    ...schemas
  } = spec.components.schemas;
  return { ...spec, components: { ...spec.components, schemas } } as unknown as Spec;
};
