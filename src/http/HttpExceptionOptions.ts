import { STATUS_CODES } from "node:http";
import { NestResponse } from "./ErrorBody.js";

/**
 * NestJS's exception options: the `cause` (kept on the error as `error.cause`, never sent) and
 * the `description` (the `error` field of the body, the reason phrase by default).
 *
 * @since 0.1.0
 * @category errors
 */
export interface HttpExceptionOptions {
  readonly cause?: unknown;
  readonly description?: string;
}

/** The reason phrase of a status (`404`: `Not Found`). */
export const reasonPhrase = (status: number): string => STATUS_CODES[status] ?? "Error";

/**
 * The `message` of an error built from a NestJS response: the string, or the object's string
 * `message`, else `fallback`.
 */
export const messageOf = (response: unknown, fallback: string): string => {
  if (typeof response === "string" && response !== "") return response;
  if (typeof response === "object" && response !== null && !Array.isArray(response)) {
    const message: unknown = (response as { readonly message?: unknown }).message;
    if (typeof message === "string") return message;
  }
  return fallback;
};

/** Gives an error its NestJS response and cause, neither enumerable (not part of its Schema). */
export const attachResponse = (error: object, response: string | object, cause: unknown): void => {
  Object.defineProperty(error, NestResponse, { value: response });
  if (cause !== undefined) {
    Object.defineProperty(error, "cause", { value: cause, writable: true, configurable: true });
  }
};
