import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as Respondable from "@effect/platform/HttpServerRespondable";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Exit from "effect/Exit";
import * as Option from "effect/Option";
import * as ParseResult from "effect/ParseResult";
import * as Schema from "effect/Schema";
import { expectTypeOf } from "vitest";
import { errorBody, validationError } from "../../src/http/ErrorResponse.js";
import { directIsExact } from "../../src/http/HttpError.js";
import {
  BadRequestError,
  BadRequestException,
  ConflictError,
  ConflictException,
  ErrorBody,
  ForbiddenError,
  ForbiddenException,
  HttpError,
  InternalServerError,
  InternalServerErrorException,
  isHttpError,
  NotFoundError,
  NotFoundException,
  PayloadTooLargeError,
  PayloadTooLargeException,
  RequestTimeoutError,
  RequestTimeoutException,
  ServiceUnavailableError,
  ServiceUnavailableException,
  TooManyRequestsError,
  TooManyRequestsException,
  UnauthorizedError,
  UnauthorizedException,
} from "../../src/index.js";

const cases = [
  ["BadRequestError", BadRequestError, BadRequestException, 400, "Bad Request"],
  ["UnauthorizedError", UnauthorizedError, UnauthorizedException, 401, "Unauthorized"],
  ["ForbiddenError", ForbiddenError, ForbiddenException, 403, "Forbidden"],
  ["NotFoundError", NotFoundError, NotFoundException, 404, "Not Found"],
  ["ConflictError", ConflictError, ConflictException, 409, "Conflict"],
  [
    "InternalServerError",
    InternalServerError,
    InternalServerErrorException,
    500,
    "Internal Server Error",
  ],
] as const;

describe("HttpError classes", () => {
  it.each(cases)(
    "%s: status, default message, tag and alias",
    (tag, Cls, Alias, status, message) => {
      const error = new Cls();
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(Alias);
      expect(new Alias()).toBeInstanceOf(Cls);
      expect(new Alias()._tag).toBe(tag);
      expect(error.statusCode).toBe(status);
      expect(error.message).toBe(message);
      expect(error.errors).toBeUndefined();
      expect(error._tag).toBe(tag);
      expect(error.name).toBe(tag);
      expect(isHttpError(error)).toBe(true);
      expect(errorBody(error)).toEqual({ statusCode: status, message });
    },
  );

  it.each(cases)("%s: keeps a custom message and errors", (_tag, Cls, _alias, status) => {
    const error = new Cls("Custom", ["one", "two"]);
    expect(error.message).toBe("Custom");
    expect(error.errors).toEqual(["one", "two"]);
    expect(errorBody(error)).toEqual({
      statusCode: status,
      message: "Custom",
      errors: ["one", "two"],
    });
  });

  it("the base class takes a status, a message and errors", () => {
    const error = new HttpError(418, "I'm a teapot", ["short", "stout"]);
    expect(error.statusCode).toBe(418);
    expect(error.message).toBe("I'm a teapot");
    expect(error.errors).toEqual(["short", "stout"]);
    expect(error._tag).toBe("HttpError");
    expect(isHttpError(error)).toBe(true);
    const body: ErrorBody = errorBody(error);
    expect(body).toEqual({ statusCode: 418, message: "I'm a teapot", errors: ["short", "stout"] });
  });

  it("PayloadTooLargeError is 413", () => {
    const error = new PayloadTooLargeError();
    expect(error.statusCode).toBe(413);
    expect(error.message).toBe("Payload Too Large");
  });

  it("has a stack for the server log", () => {
    expect(new NotFoundError().stack).toContain("NotFoundError");
  });

  it("is catchable with try/catch as a thrown Error", () => {
    try {
      throw new ForbiddenError("nope");
    } catch (error) {
      expect(isHttpError(error)).toBe(true);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).statusCode).toBe(403);
    }
  });

  it("isHttpError is false for anything else", () => {
    expect(isHttpError(new Error("x"))).toBe(false);
    expect(isHttpError({ statusCode: 404, message: "Not Found", _tag: "NotFoundError" })).toBe(
      false,
    );
    expect(isHttpError("NotFoundError")).toBe(false);
    expect(isHttpError(undefined)).toBe(false);
    expect(isHttpError(null)).toBe(false);
  });
});

describe("HttpError as a Schema and a respondable", () => {
  const allCases = [
    ...cases,
    [
      "PayloadTooLargeError",
      PayloadTooLargeError,
      PayloadTooLargeException,
      413,
      "Payload Too Large",
    ],
    ["RequestTimeoutError", RequestTimeoutError, RequestTimeoutException, 408, "Request Timeout"],
    [
      "TooManyRequestsError",
      TooManyRequestsError,
      TooManyRequestsException,
      429,
      "Too Many Requests",
    ],
    [
      "ServiceUnavailableError",
      ServiceUnavailableError,
      ServiceUnavailableException,
      503,
      "Service Unavailable",
    ],
  ] as const;

  it.each(allCases)(
    "%s is a Schema annotated with its status",
    (tag, Cls, _alias, status, message) => {
      const schema: Schema.Schema.AnyNoContext = Cls;
      expect(Schema.isSchema(Cls)).toBe(true);
      expect(HttpApiSchema.getStatusError(Cls)).toBe(status);
      expect(Object.keys(Cls.fields)).toEqual(["_tag", "statusCode", "message", "errors"]);
      const encoded = Schema.encodeSync(schema)(new Cls("Custom", ["one"]));
      expect(encoded).toEqual({
        _tag: tag,
        statusCode: status,
        message: "Custom",
        errors: ["one"],
      });
      const decoded = Schema.decodeUnknownSync(schema)({ _tag: tag, statusCode: status, message });
      expect(decoded).toBeInstanceOf(Cls);
      expect(decoded).toBeInstanceOf(HttpError);
      expect(errorBody(decoded)).toEqual({ statusCode: status, message });
      expect(Schema.is(schema)(new Cls())).toBe(true);
      expect(
        Schema.decodeUnknownEither(schema)({ _tag: tag, statusCode: 200, message }),
      ).toMatchObject({ _tag: "Left" });
    },
  );

  it.each(allCases)(
    "%s answers for itself with its status and the standard body",
    (_tag, Cls, _alias, status) =>
      Effect.gen(function* () {
        const error = new Cls("Custom", ["one"]);
        expect(Respondable.isRespondable(error)).toBe(true);
        const response = yield* Respondable.toResponse(error);
        expect(response.status).toBe(status);
        const web = HttpServerResponse.toWeb(response);
        expect(web.headers.get("content-type")).toBe("application/json");
        expect(yield* Effect.promise(() => web.text())).toBe(
          JSON.stringify({ statusCode: status, message: "Custom", errors: ["one"] }),
        );
      }).pipe(Effect.runPromise),
  );

  it("a 413 also closes the connection", () =>
    Effect.gen(function* () {
      const response = yield* Respondable.toResponse(new PayloadTooLargeError());
      expect(response.headers.connection).toBe("close");
    }).pipe(Effect.runPromise));

  it("HttpError with any status is a respondable Schema too", () =>
    Effect.gen(function* () {
      const error = new HttpError(418, "I'm a teapot");
      const response = yield* Respondable.toResponse(error);
      expect(response.status).toBe(418);
      const encoded = Schema.encodeSync(HttpError)(error);
      expect(encoded).toEqual({ _tag: "HttpError", statusCode: 418, message: "I'm a teapot" });
      const decoded = Schema.decodeUnknownSync(HttpError)(encoded);
      expect(decoded).toBeInstanceOf(HttpError);
      expect(decoded.statusCode).toBe(418);
    }).pipe(Effect.runPromise));

  it("instanceof: every class is an HttpError, classes extending HttpError keep their own check", () => {
    class TeapotError extends HttpError {
      override readonly _tag = "TeapotError";
      readonly brewing = true;
      constructor() {
        super(418, "I'm a teapot");
      }
    }
    const teapot = new TeapotError();
    expect(teapot).toBeInstanceOf(HttpError);
    expect(teapot).toBeInstanceOf(TeapotError);
    expect(teapot.name).toBe("TeapotError");
    expect(isHttpError(teapot)).toBe(true);
    expect(new NotFoundError()).toBeInstanceOf(HttpError);
    expect(new NotFoundError()).not.toBeInstanceOf(TeapotError);
    expect(new NotFoundError()).not.toBeInstanceOf(ConflictError);
    expect(new HttpError(404, "Not Found")).not.toBeInstanceOf(NotFoundError);
    expect(new Error("x")).not.toBeInstanceOf(HttpError);
    expect({ statusCode: 404, message: "Not Found" }).not.toBeInstanceOf(HttpError);
    // The standard body leaves a subclass's own fields out.
    expect(errorBody(teapot)).toEqual({ statusCode: 418, message: "I'm a teapot" });
    const narrowed: unknown = teapot;
    if (narrowed instanceof TeapotError) expectTypeOf(narrowed).toEqualTypeOf<TeapotError>();
    if (narrowed instanceof HttpError) expectTypeOf(narrowed).toEqualTypeOf<HttpError>();
  });

  it("is built as its Schema's constructor builds it, without the constructor's cost", () => {
    // The constructor builds an error directly when a probe showed that gives the same object.
    expect(directIsExact).toBe(true);
    const own = (error: object) =>
      Reflect.ownKeys(error)
        .filter((key) => key !== "stack")
        .map((key) => [key, Reflect.get(error, key)]);
    const cases: ReadonlyArray<readonly [HttpError, HttpError]> = [
      [
        new NotFoundError("x", ["e"]),
        Schema.decodeUnknownSync(NotFoundError)({
          _tag: "NotFoundError",
          statusCode: 404,
          message: "x",
          errors: ["e"],
        }),
      ],
      [
        new HttpError(418, "tea"),
        Schema.decodeUnknownSync(HttpError)({ _tag: "HttpError", statusCode: 418, message: "tea" }),
      ],
    ];
    for (const [direct, decoded] of cases) {
      expect(Object.getPrototypeOf(direct)).toBe(Object.getPrototypeOf(decoded));
      expect(own(direct)).toEqual(own(decoded));
      expect(direct).toEqual(decoded);
      expect(direct.stack).toContain("HttpError.test.ts");
    }
  });

  it("a fixed-status class is an HttpError to the type checker", () => {
    const asHttpError: HttpError = new NotFoundError();
    expect(asHttpError.statusCode).toBe(404);
    expectTypeOf(new NotFoundError().statusCode).toEqualTypeOf<404>();
    expectTypeOf(new NotFoundError()._tag).toEqualTypeOf<"NotFoundError">();
  });
});

describe("HttpError in Effect code", () => {
  it.effect("yield* new NotFoundError() fails the effect with it", () =>
    Effect.gen(function* () {
      const program = Effect.gen(function* () {
        yield* new NotFoundError("missing");
        return "unreachable";
      });
      const exit = yield* Effect.exit(program);
      expect(Exit.isFailure(exit)).toBe(true);
      if (Exit.isFailure(exit)) {
        const failure = Cause.failureOption(exit.cause);
        expect(failure._tag).toBe("Some");
        if (failure._tag === "Some") {
          expect(failure.value).toBeInstanceOf(NotFoundError);
          expect(failure.value.message).toBe("missing");
          expect(failure.value.statusCode).toBe(404);
        }
      }
    }),
  );

  it.effect("Effect.flip gives the failure, typed", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(new ConflictError());
      expectTypeOf(error).toEqualTypeOf<ConflictError>();
      expect(error.statusCode).toBe(409);
      expect(error.message).toBe("Conflict");
    }),
  );

  it.effect("Effect.catchTag narrows to one class and leaves the others", () =>
    Effect.gen(function* () {
      const find = (id: number): Effect.Effect<string, NotFoundError | ConflictError> =>
        id === 1
          ? Effect.succeed("one")
          : id === 2
            ? Effect.fail(new NotFoundError(`No ${id}`))
            : Effect.fail(new ConflictError(`Clash ${id}`));

      const recovered = (id: number) =>
        find(id).pipe(
          Effect.catchTag("NotFoundError", (error) => {
            expectTypeOf(error).toEqualTypeOf<NotFoundError>();
            return Effect.succeed(`recovered: ${error.message} (${error.statusCode})`);
          }),
        );
      expectTypeOf(recovered).returns.toEqualTypeOf<Effect.Effect<string, ConflictError>>();

      expect(yield* recovered(1)).toBe("one");
      expect(yield* recovered(2)).toBe("recovered: No 2 (404)");
      const left = yield* Effect.flip(recovered(3));
      expect(left).toBeInstanceOf(ConflictError);
      expect(left._tag).toBe("ConflictError");
      expect(left.message).toBe("Clash 3");
    }),
  );

  it.effect("catchTag does not catch a different class", () =>
    Effect.gen(function* () {
      const program = Effect.fail(new ForbiddenError()) as Effect.Effect<
        never,
        ForbiddenError | UnauthorizedError
      >;
      const result = yield* program.pipe(
        Effect.catchTag("UnauthorizedError", () => Effect.succeed("caught")),
        Effect.flip,
      );
      expect(result).toBeInstanceOf(ForbiddenError);
    }),
  );

  it.effect("Effect.catchTags handles each class", () =>
    Effect.gen(function* () {
      const handle = (error: BadRequestError | UnauthorizedError) =>
        Effect.fail(error).pipe(
          Effect.catchTags({
            BadRequestError: (e) => Effect.succeed(`bad: ${e.statusCode}`),
            UnauthorizedError: (e) => Effect.succeed(`unauth: ${e.statusCode}`),
          }),
        );
      expect(yield* handle(new BadRequestError())).toBe("bad: 400");
      expect(yield* handle(new UnauthorizedError())).toBe("unauth: 401");
    }),
  );

  it.effect("Effect.catchIf(isHttpError) catches any subclass", () =>
    Effect.gen(function* () {
      const result = yield* Effect.fail(new InternalServerError("boom") as unknown).pipe(
        Effect.catchIf(isHttpError, (e) => Effect.succeed(e.statusCode)),
      );
      expect(result).toBe(500);
    }),
  );
});

describe("validationError", () => {
  const schema = Schema.Struct({ id: Schema.NumberFromString, name: Schema.String });
  const issueOf = (input: unknown) =>
    Either.getLeft(ParseResult.decodeUnknownEither(schema, { errors: "all" })(input)).pipe(
      Option.getOrThrow,
    );

  it("makes a 400 with a line per field, from a ParseError or its issue alike", () => {
    const issue = issueOf({ id: "x" });
    const fromIssue = validationError(issue);
    const fromError = validationError(new ParseResult.ParseError({ issue }));
    expect(fromIssue).toBeInstanceOf(BadRequestError);
    expect(errorBody(fromIssue)).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: ['id: Unable to decode "x" into a number', "name: is missing"],
    });
    expect(errorBody(fromError)).toEqual(errorBody(fromIssue));
  });

  it("captures no stack frames and leaves the process's stack trace limit as it was", () => {
    const limit = Error.stackTraceLimit;
    const error = validationError(issueOf({}));
    expect(error.stack?.split("\n").filter((line) => line.trim().startsWith("at "))).toEqual([]);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new BadRequestError().stack).toContain("    at ");
  });
});
