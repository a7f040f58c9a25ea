import { appendMetadata, MetadataKey, writeMetadata } from "../di/metadata.js";

/** A `@Redirect` recorded on a handler. */
export interface RedirectMetadata {
  readonly url: string;
  readonly statusCode: number;
}

/**
 * Sets the status of the handler's successful response (default: 201 for POST, else 200).
 *
 * @since 0.1.0
 * @category decorators
 */
export const HttpCode =
  (statusCode: number): MethodDecorator =>
  (target, handler) => {
    writeMetadata(MetadataKey.httpCode, statusCode, target, handler);
  };

/**
 * Sets a response header on the handler's successful response; repeatable.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Header =
  (name: string, value: string): MethodDecorator =>
  (target, handler) => {
    appendMetadata(MetadataKey.headers, [name, value] as const, target, handler);
  };

/**
 * Redirects to `url` (status 302 by default). A handler returning `{ url, statusCode? }`
 * overrides either for that request.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Redirect =
  (url: string, statusCode = 302): MethodDecorator =>
  (target, handler) => {
    const metadata: RedirectMetadata = { url, statusCode };
    writeMetadata(MetadataKey.redirect, metadata, target, handler);
  };
