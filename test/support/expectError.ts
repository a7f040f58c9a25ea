import { expect } from "vitest";
import type { TestResponse } from "../../src/testing/index.js";

/**
 * Asserts an error response: its status, and a body in the standard shape with exactly this
 * message and these detail lines (and at most the status's reason phrase as `error`), nothing else.
 */
export const expectError = (
  res: TestResponse,
  status: number,
  message: string,
  errors?: ReadonlyArray<string>,
): void => {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const { error: _reason, ...body } = res.body as Record<string, unknown>;
  expect(body).toEqual(
    errors === undefined
      ? { statusCode: status, message }
      : { statusCode: status, message, errors },
  );
};
