// What the OpenAPI tests share: an app listening with the docs on, its document over HTTP, and
// the OpenAPI 3.1 validator.
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterEach, expect } from "vitest";
import { type RootModule, StrataApp, type StrataAppOptions } from "../../src/index.js";
import type { OpenApiDocument } from "../../src/openapi/OpenApiDocument.js";

/** Apps started in a test, closed after each. */
export const appsClosedAfterEach = () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  return async (module: RootModule, options: StrataAppOptions = { openapi: {} }) => {
    const app = new StrataApp(module, { shutdown: { signals: false }, ...options });
    apps.push(app);
    await app.listen(0);
    return app;
  };
};

/** `GET <path>` of a listening app, as JSON, checked to be a 200. */
export const fetchDocument = async (
  base: string,
  path = "/openapi.json",
): Promise<OpenApiDocument> => {
  const response = await fetch(`${base}${path}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  return (await response.json()) as OpenApiDocument;
};

/**
 * Validates `document` against the OpenAPI 3.1 schema (`@seriousme/openapi-schema-validator`)
 * and resolves every `$ref` in it (a dangling one throws).
 */
export const expectValidOpenApi = async (document: unknown): Promise<void> => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
  expect(() => validator.resolveRefs()).not.toThrow();
};
