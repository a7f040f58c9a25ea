import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type { UploadedFile } from "./UploadedFile.js";

/** The authenticated user a guard may attach to a request. @since 0.1.0 @category request */
export interface RequestUser {
  readonly id: number;
  readonly username: string;
  readonly role: string;
}

/**
 * What a classic handler, pipe or guard sees of a request (and what `@Req()` injects).
 * Query values repeated in the URL stay visible as arrays, so nothing is silently dropped.
 *
 * @since 0.1.0
 * @category request
 */
export interface RequestContext {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>;
  readonly body: unknown;
  readonly dtoType?: unknown;
  user?: RequestUser;
  /** The files of an upload route's `multipart/form-data` request, once parsed. */
  readonly files?: ReadonlyArray<UploadedFile>;
  /**
   * The body's bytes as they arrived, when the app has `rawBody: true` (NestJS's
   * `req.rawBody`); `undefined` otherwise and on requests without a body.
   */
  readonly rawBody?: Buffer;
  /** The underlying `@effect/platform` request. */
  readonly req?: HttpServerRequest.HttpServerRequest;
}

/**
 * NestJS's `RawBodyRequest<T>`: a request with the {@link RequestContext.rawBody} the app's
 * `rawBody: true` keeps.
 *
 * @since 0.1.0
 * @category request
 */
export type RawBodyRequest<T> = T & { readonly rawBody?: Buffer };
