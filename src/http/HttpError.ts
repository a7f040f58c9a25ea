import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as Respondable from "@effect/platform/HttpServerRespondable";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import { hasProperty } from "effect/Predicate";
import * as Schema from "effect/Schema";
import { direct, directIsExact } from "./DirectConstruction.js";
import { errorResponse, responseOf } from "./ErrorBody.js";

const TypeId: unique symbol = Symbol.for("effect-strata/HttpError");

/** The optional detail lines of every HTTP error: one Schema for all ~20 classes built at import. */
const errorsField = Schema.optional(Schema.Array(Schema.String));

/** The fields of an HTTP error, beside its `_tag`: they are its response body. */
const bodyFields = <S extends Schema.Schema.AnyNoContext>(statusCode: S) => ({
  statusCode,
  message: Schema.String,
  errors: errorsField,
});

/** What an HTTP error class's Schema decodes (and its constructor takes from the Schema). */
type HttpErrorProps = {
  readonly statusCode: number;
  readonly message: string;
  readonly errors?: ReadonlyArray<string>;
  readonly _tag?: string;
};

/** An error's fields, its `_tag` last (where the Schema's constructor puts it). */
const propsOf = (
  statusCode: number,
  message: string,
  errors: ReadonlyArray<string> | undefined,
  _tag: string,
): HttpErrorProps =>
  errors === undefined ? { statusCode, message, _tag } : { statusCode, message, errors, _tag };

export { directIsExact } from "./DirectConstruction.js";

/**
 * An HTTP failure with a status, a message and optional detail lines.
 *
 * It is a `Schema.TaggedError`: classic code `throw`s it, Effect code `yield*`s it and recovers
 * with `Effect.catchTag`, and it implements `HttpServerRespondable`, so any `@effect/platform`
 * server (Strata's or `@effect/platform-node`'s) answers it with its status and the standard
 * body `{ statusCode, message, errors? }`. Its Schema encodes those fields plus `_tag`.
 *
 * Each subclass below is a `Schema.TaggedError` of its own, with its own `_tag` and its status
 * as an `HttpApiSchema` annotation; `instanceof HttpError` holds for all of them (and for
 * classes that extend `HttpError` directly).
 *
 * @example
 * throw new HttpError(418, "I'm a teapot");
 *
 * @since 0.1.0
 * @category errors
 */
export class HttpError extends Schema.TaggedError<HttpError>()<
  string,
  ReturnType<typeof bodyFields<typeof Schema.Number>>
>("HttpError", bodyFields(Schema.Number)) {
  constructor(statusCode: number, message: string, errors?: ReadonlyArray<string>);
  // The Schema's decoder passes the decoded fields instead.
  // biome-ignore lint/correctness/noUnreachableSuper: `direct` builds the instance instead
  constructor(
    statusCode: number | HttpErrorProps,
    message?: string | boolean,
    errors?: ReadonlyArray<string>,
  ) {
    const props =
      typeof statusCode === "number"
        ? propsOf(statusCode, message as string, errors, "HttpError")
        : statusCode;
    // biome-ignore lint/correctness/noConstructorReturn: the same error, built without the Schema's copy of its fields
    if (directIsExact && props !== statusCode) return direct(new.target, props);
    super(props, true);
  }

  /**
   * `instanceof HttpError` is `true` for every HTTP error, the fixed-status classes included
   * (each a `Schema.TaggedError` of its own); for a class extending `HttpError`, `instanceof`
   * is the usual prototype check.
   */
  static override [Symbol.hasInstance]<T>(
    this: abstract new (
      ...args: ReadonlyArray<never>
    ) => T,
    u: unknown,
  ): u is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` was asked about
    return isInstance(this, u);
  }

  override get name(): string {
    return this._tag;
  }

  /** @internal */
  get [TypeId](): typeof TypeId {
    return TypeId;
  }

  /** Its status and the standard body, on any `@effect/platform` server. */
  [Respondable.symbol](): Effect.Effect<HttpServerResponse.HttpServerResponse> {
    return Effect.succeed(errorResponse(this));
  }

  /** Its status (NestJS's `getStatus()`). */
  getStatus(): number {
    return this.statusCode;
  }

  /**
   * What it answers with (NestJS's `getResponse()`): the response given to NestJS's
   * constructor forms (a string, or the object that is the body), else the standard body.
   */
  getResponse(): string | object {
    return responseOf(this);
  }
}

/** `true` for any {@link HttpError}, whatever its class. @since 0.1.0 @category errors */
export const isHttpError = (u: unknown): u is HttpError => hasProperty(u, TypeId);

const ordinaryInstanceOf = Function.prototype[Symbol.hasInstance];

/** `instanceof` for `HttpError` and the classes that extend it. */
const isInstance = (cls: Function, u: unknown): boolean =>
  cls === HttpError ? isHttpError(u) : ordinaryInstanceOf.call(cls, u);

/**
 * An {@link HttpError} of a class with a fixed status.
 *
 * @since 0.1.0
 * @category errors
 */
export interface TaggedHttpError<Tag extends string, Status extends number> extends HttpError {
  readonly _tag: Tag;
  readonly statusCode: Status;
}

/**
 * A class of {@link HttpError}s with a fixed status: constructed from a message (its default
 * when omitted) and detail lines, and a Schema whose `fields` are the response body plus
 * `_tag`, with the status as an `HttpApiSchema` annotation (for API descriptions).
 *
 * @since 0.1.0
 * @category errors
 */
export interface HttpErrorClass<Self, Tag extends string, Status extends number>
  extends Schema.Schema<
    Self,
    {
      readonly _tag: Tag;
      readonly statusCode: Status;
      readonly message: string;
      readonly errors?: ReadonlyArray<string>;
    }
  > {
  new (message?: string, errors?: ReadonlyArray<string>): TaggedHttpError<Tag, Status>;
  readonly fields: { readonly _tag: Schema.tag<Tag> } & ReturnType<
    typeof bodyFields<Schema.Literal<[Status]>>
  >;
}

/** The members of {@link HttpError} each class with a fixed status shares (defined once, there). */
const sharedMembers = [TypeId, Respondable.symbol, "getStatus", "getResponse"] as const;

/** The base of each class with a fixed status (the same members as {@link HttpError}). */
const httpErrorClass =
  <Self>() =>
  <const Tag extends string, const Status extends number>(
    tag: Tag,
    status: Status,
    defaultMessage: string,
  ): HttpErrorClass<Self, Tag, Status> => {
    class FixedStatus extends Schema.TaggedError<HttpError>()(
      tag,
      bodyFields(Schema.Literal(status)),
      HttpApiSchema.annotations({ status, description: defaultMessage }),
    ) {
      // biome-ignore lint/correctness/noUnreachableSuper: `direct` builds the instance instead
      constructor(
        message: string | HttpErrorProps = defaultMessage,
        errors?: ReadonlyArray<string>,
      ) {
        const props = typeof message === "string" ? propsOf(status, message, errors, tag) : message;
        // biome-ignore lint/correctness/noConstructorReturn: the same error, built without the Schema's copy of its fields
        if (directIsExact && props !== message) return direct(new.target, props);
        super(props as { readonly statusCode: Status; readonly message: string }, true);
      }
    }
    for (const key of sharedMembers) {
      const member = Object.getOwnPropertyDescriptor(HttpError.prototype, key);
      if (member !== undefined) Object.defineProperty(FixedStatus.prototype, key, member);
    }
    return FixedStatus as unknown as HttpErrorClass<Self, Tag, Status>;
  };

/** 400, default message `Bad Request`. @since 0.1.0 @category errors */
export class BadRequestError extends httpErrorClass<BadRequestError>()(
  "BadRequestError",
  400,
  "Bad Request",
) {}

/** 401, default message `Unauthorized`. @since 0.1.0 @category errors */
export class UnauthorizedError extends httpErrorClass<UnauthorizedError>()(
  "UnauthorizedError",
  401,
  "Unauthorized",
) {}

/** 403, default message `Forbidden`. @since 0.1.0 @category errors */
export class ForbiddenError extends httpErrorClass<ForbiddenError>()(
  "ForbiddenError",
  403,
  "Forbidden",
) {}

/** 404, default message `Not Found`. @since 0.1.0 @category errors */
export class NotFoundError extends httpErrorClass<NotFoundError>()(
  "NotFoundError",
  404,
  "Not Found",
) {}

/** 409, default message `Conflict`. @since 0.1.0 @category errors */
export class ConflictError extends httpErrorClass<ConflictError>()(
  "ConflictError",
  409,
  "Conflict",
) {}

/** 413, default message `Payload Too Large`: a body over the configured limit. @since 0.1.0 @category errors */
export class PayloadTooLargeError extends httpErrorClass<PayloadTooLargeError>()(
  "PayloadTooLargeError",
  413,
  "Payload Too Large",
) {}

/** 408, default message `Request Timeout`: the handler did not answer in time. @since 0.1.0 @category errors */
export class RequestTimeoutError extends httpErrorClass<RequestTimeoutError>()(
  "RequestTimeoutError",
  408,
  "Request Timeout",
) {}

/** 429, default message `Too Many Requests`: over the rate limit. @since 0.1.0 @category errors */
export class TooManyRequestsError extends httpErrorClass<TooManyRequestsError>()(
  "TooManyRequestsError",
  429,
  "Too Many Requests",
) {}

/** 503, default message `Service Unavailable`: a dependency the request needs is down. @since 0.1.0 @category errors */
export class ServiceUnavailableError extends httpErrorClass<ServiceUnavailableError>()(
  "ServiceUnavailableError",
  503,
  "Service Unavailable",
) {}

/** 500, default message `Internal Server Error`. @since 0.1.0 @category errors */
export class InternalServerError extends httpErrorClass<InternalServerError>()(
  "InternalServerError",
  500,
  "Internal Server Error",
) {}

/** 405, default message `Method Not Allowed`. @since 0.1.0 @category errors */
export class MethodNotAllowedError extends httpErrorClass<MethodNotAllowedError>()(
  "MethodNotAllowedError",
  405,
  "Method Not Allowed",
) {}

/** 406, default message `Not Acceptable`. @since 0.1.0 @category errors */
export class NotAcceptableError extends httpErrorClass<NotAcceptableError>()(
  "NotAcceptableError",
  406,
  "Not Acceptable",
) {}

/** 410, default message `Gone`. @since 0.1.0 @category errors */
export class GoneError extends httpErrorClass<GoneError>()("GoneError", 410, "Gone") {}

/** 412, default message `Precondition Failed`. @since 0.1.0 @category errors */
export class PreconditionFailedError extends httpErrorClass<PreconditionFailedError>()(
  "PreconditionFailedError",
  412,
  "Precondition Failed",
) {}

/** 415, default message `Unsupported Media Type`. @since 0.1.0 @category errors */
export class UnsupportedMediaTypeError extends httpErrorClass<UnsupportedMediaTypeError>()(
  "UnsupportedMediaTypeError",
  415,
  "Unsupported Media Type",
) {}

/** 418, default message `I'm a teapot`. @since 0.1.0 @category errors */
export class ImATeapotError extends httpErrorClass<ImATeapotError>()(
  "ImATeapotError",
  418,
  "I'm a teapot",
) {}

/** 421, default message `Misdirected`. @since 0.1.0 @category errors */
export class MisdirectedError extends httpErrorClass<MisdirectedError>()(
  "MisdirectedError",
  421,
  "Misdirected",
) {}

/** 422, default message `Unprocessable Entity`. @since 0.1.0 @category errors */
export class UnprocessableEntityError extends httpErrorClass<UnprocessableEntityError>()(
  "UnprocessableEntityError",
  422,
  "Unprocessable Entity",
) {}

/** 501, default message `Not Implemented`. @since 0.1.0 @category errors */
export class NotImplementedError extends httpErrorClass<NotImplementedError>()(
  "NotImplementedError",
  501,
  "Not Implemented",
) {}

/** 502, default message `Bad Gateway`. @since 0.1.0 @category errors */
export class BadGatewayError extends httpErrorClass<BadGatewayError>()(
  "BadGatewayError",
  502,
  "Bad Gateway",
) {}

/** 504, default message `Gateway Timeout`. @since 0.1.0 @category errors */
export class GatewayTimeoutError extends httpErrorClass<GatewayTimeoutError>()(
  "GatewayTimeoutError",
  504,
  "Gateway Timeout",
) {}

/** 505, default message `HTTP Version Not Supported`. @since 0.1.0 @category errors */
export class HttpVersionNotSupportedError extends httpErrorClass<HttpVersionNotSupportedError>()(
  "HttpVersionNotSupportedError",
  505,
  "HTTP Version Not Supported",
) {}
