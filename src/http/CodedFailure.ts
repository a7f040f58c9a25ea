/**
 * A failure that names its own answer: an error status, a stable `error` code and a public
 * message (every OAuth failure, every accounts and session failure), and the one factory of
 * their classes, {@link CodedError}.
 *
 * @since 0.1.0
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as Respondable from "@effect/platform/HttpServerRespondable";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type { YieldableError } from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
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

/**
 * What a class of coded failures answers: `status` (also its `HttpApiSchema` status
 * annotation, for API descriptions), its stable `code`, and its public message, fixed or read
 * from the failure's fields (`Fields`, their types). `statusOf` gives the status of a failure whose status depends on
 * its fields (the annotation stays `status`).
 *
 * @since 0.1.0
 * @category errors
 */
export interface CodedAnswer<Fields> {
  readonly status: number;
  readonly code: string;
  readonly message: string | ((failure: Fields) => string);
  readonly statusOf?: (failure: Fields) => number;
}

/** A failure that answers for itself on any `@effect/platform` server (a method, overridable). */
interface AnswersItself {
  /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
  [Respondable.symbol](): Effect.Effect<HttpServerResponse.HttpServerResponse>;
}

/**
 * A `Schema.TaggedError` class whose failures are {@link CodedFailure}s that answer for
 * themselves on any `@effect/platform` server (`HttpServerRespondable`).
 *
 * @since 0.1.0
 * @category errors
 */
export interface CodedErrorClass<Self, Tag extends string, Fields extends Schema.Struct.Fields>
  extends Schema.Class<
    Self,
    { readonly _tag: Schema.tag<Tag> } & Fields,
    Schema.Struct.Encoded<{ readonly _tag: Schema.tag<Tag> } & Fields>,
    Schema.Struct.Context<{ readonly _tag: Schema.tag<Tag> } & Fields>,
    Schema.Struct.Constructor<Fields>,
    {},
    YieldableError & CodedFailure & AnswersItself
  > {
  readonly _tag: Tag;
}

/**
 * The one way a failure gets its answer: a `Schema.TaggedError` of `tag` and `fields` with its
 * status as an `HttpApiSchema` annotation, its `httpStatus`, `code` and `publicMessage` from
 * `answer`, and its status and body (the standard shape plus `error`) on any server.
 *
 * @example
 * class LastAccount extends CodedError<LastAccount>("my-app/LastAccount")(
 *   "LastAccount",
 *   { provider: Schema.String },
 *   { status: 409, code: "last_account", message: "The last linked account cannot be unlinked" },
 * ) {}
 *
 * @since 0.1.0
 * @category errors
 */
export const CodedError =
  <Self>(identifier?: string) =>
  <const Tag extends string, Fields extends Schema.Struct.Fields>(
    tag: Tag,
    fields: Fields,
    answer: CodedAnswer<Schema.Struct.Type<Fields>>,
  ): CodedErrorClass<Self, Tag, Fields> => {
    const { status, code, message, statusOf } = answer;
    const Base = Schema.TaggedError<{ readonly _tag: Tag }>(identifier)(
      tag,
      fields,
      HttpApiSchema.annotations({ status }),
    ) as unknown as new (
      props: unknown,
      disableValidation?: boolean,
    ) => object;
    class Coded extends Base {
      /** The HTTP status it is answered with. */
      get httpStatus(): number {
        return statusOf === undefined
          ? status
          : statusOf(this as unknown as Schema.Struct.Type<Fields>);
      }
      /** The stable `error` code of the response body. */
      get code(): string {
        return code;
      }
      /** The public message of the response body. */
      get publicMessage(): string {
        return typeof message === "string"
          ? message
          : message(this as unknown as Schema.Struct.Type<Fields>);
      }
      /** Its status and body (the standard shape plus `error`), on any `@effect/platform` server. */
      [Respondable.symbol](): Effect.Effect<HttpServerResponse.HttpServerResponse> {
        return Effect.succeed(codedFailureResponse(this));
      }
    }
    return Coded as unknown as CodedErrorClass<Self, Tag, Fields>;
  };
