/**
 * A failure that names its own answer: an error status, a stable `error` code and a public
 * message (every OAuth failure, every accounts failure).
 *
 * @since 0.1.0
 */
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { jsonResponse } from "./TextResponse.js";

/**
 * A failure with its own status, stable `error` code and public message.
 *
 * @since 0.1.0
 * @category errors
 */
export interface CodedFailure {
  readonly httpStatus: number;
  readonly code: string;
  readonly publicMessage: string;
}

const CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * `true` for a {@link CodedFailure} with an error status (4xx, 5xx) and a code of lower-case
 * letters, digits and `_`.
 *
 * @since 0.1.0
 * @category errors
 */
export const isCodedFailure = (u: unknown): u is CodedFailure => {
  if (typeof u !== "object" || u === null) return false;
  const { httpStatus, code, publicMessage } = u as Partial<CodedFailure>;
  return (
    Number.isInteger(httpStatus) &&
    (httpStatus as number) >= 400 &&
    (httpStatus as number) <= 599 &&
    typeof code === "string" &&
    CODE.test(code) &&
    typeof publicMessage === "string"
  );
};

/**
 * The JSON answer of `failure`: the standard error shape plus its stable `error` code, with its
 * status.
 *
 * @since 0.1.0
 * @category errors
 */
export const codedFailureResponse = (
  failure: CodedFailure,
): HttpServerResponse.HttpServerResponse =>
  jsonResponse(
    { statusCode: failure.httpStatus, message: failure.publicMessage, error: failure.code },
    { status: failure.httpStatus },
  );
