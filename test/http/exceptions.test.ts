import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import {
  type ArgumentsHost,
  BadGatewayException,
  BadRequestError,
  BadRequestException,
  Catch,
  Controller,
  type ExceptionFilter,
  ForbiddenException,
  GatewayTimeoutError,
  GatewayTimeoutException,
  Get,
  GoneException,
  HttpError,
  HttpException,
  HttpStatus,
  HttpVersionNotSupportedException,
  ImATeapotException,
  MethodNotAllowedException,
  Module,
  NotAcceptableException,
  NotFoundError,
  NotFoundException,
  NotImplementedException,
  Param,
  PreconditionFailedException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
  UseFilters,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { listen } = appsClosedAfterEach();

/** Serves `make()`'s error, thrown by a handler, and returns the response. */
const answer = async (make: () => unknown) => {
  @Controller()
  class Throwing {
    @Get("fail")
    fail() {
      throw make();
    }
  }
  @Module({ controllers: [Throwing] })
  class App {}
  return request(await listen(App), "GET", "/fail");
};

describe("HttpException, NestJS's arguments", () => {
  it("new HttpException('msg', 502) answers 502 { statusCode, message } (was a 500 ERR_HTTP_INVALID_STATUS_CODE)", async () => {
    const response = await answer(() => new HttpException("Upstream down", HttpStatus.BAD_GATEWAY));
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ statusCode: 502, message: "Upstream down" });
  });

  it("an object response is the whole body, sent as it is", async () => {
    const response = await answer(
      () => new HttpException({ status: 403, error: "This is a custom message" }, 403),
    );
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 403, error: "This is a custom message" });
  });

  it("keeps Strata's (status, message, errors) form: a number first", async () => {
    const response = await answer(() => new HttpException(418, "Short and stout", ["spout"]));
    expect(response.status).toBe(418);
    expect(response.body).toEqual({
      statusCode: 418,
      message: "Short and stout",
      errors: ["spout"],
    });
  });

  it("getStatus, getResponse, message and cause as NestJS gives them; the cause is never sent", async () => {
    const cause = new Error("secret upstream detail");
    const text = new HttpException("Bad thing", 400, { cause });
    expect([text.getStatus(), text.getResponse(), text.message, text.cause]).toEqual([
      400,
      "Bad thing",
      "Bad thing",
      cause,
    ]);
    const object = new HttpException({ message: "From object", code: 7 }, 409);
    expect([object.getStatus(), object.getResponse(), object.message]).toEqual([
      409,
      { message: "From object", code: 7 },
      "From object",
    ]);
    expect(new NotFoundError("x").getResponse()).toEqual({ statusCode: 404, message: "x" });
    expect(new NotFoundError("x").getStatus()).toBe(404);
    const response = await answer(() => new HttpException("Bad thing", 400, { cause }));
    expect(response.body).toEqual({ statusCode: 400, message: "Bad thing" });
    expect(response.text).not.toContain("secret");
  });

  it("every HTTP error is an HttpException and an HttpError, whatever its spelling", () => {
    for (const error of [
      new NotFoundError(),
      new NotFoundException(),
      new HttpException("x", 500),
    ]) {
      expect(error).toBeInstanceOf(HttpException);
      expect(error).toBeInstanceOf(HttpError);
    }
    expect(new NotFoundError()).toBeInstanceOf(NotFoundException);
    expect(new NotFoundException()).toBeInstanceOf(NotFoundError);
    expect(new NotFoundException()._tag).toBe("NotFoundError");
    expect(new BadRequestError()).not.toBeInstanceOf(NotFoundException);
    expect(new Error("plain")).not.toBeInstanceOf(HttpException);
  });
});

describe("NestJS's built-in exceptions", () => {
  const cases = [
    [MethodNotAllowedException, 405, "Method Not Allowed"],
    [NotAcceptableException, 406, "Not Acceptable"],
    [GoneException, 410, "Gone"],
    [PreconditionFailedException, 412, "Precondition Failed"],
    [UnsupportedMediaTypeException, 415, "Unsupported Media Type"],
    [ImATeapotException, 418, "I'm a teapot"],
    [UnprocessableEntityException, 422, "Unprocessable Entity"],
    [NotImplementedException, 501, "Not Implemented"],
    [BadGatewayException, 502, "Bad Gateway"],
    [GatewayTimeoutException, 504, "Gateway Timeout"],
    [HttpVersionNotSupportedException, 505, "HTTP Version Not Supported"],
  ] as const;

  it.each(cases)(
    "%o: its status; { statusCode, message } bare, + error (the reason phrase) with a message",
    async (Exception, status, reason) => {
      const bare = await answer(() => new Exception());
      expect(bare.status).toBe(status);
      expect(bare.body).toEqual({ statusCode: status, message: reason });
      const withMessage = await answer(() => new Exception("Try later"));
      expect(withMessage.status).toBe(status);
      expect(withMessage.body).toEqual({ statusCode: status, message: "Try later", error: reason });
    },
  );

  it("takes a description, options, messages, or an object body, as NestJS does", () => {
    expect(new BadRequestException("x", "Custom").getResponse()).toEqual({
      statusCode: 400,
      message: "x",
      error: "Custom",
    });
    const cause = new Error("why");
    const withOptions = new BadRequestException("x", { cause, description: "Described" });
    expect(withOptions.getResponse()).toEqual({
      statusCode: 400,
      message: "x",
      error: "Described",
    });
    expect(withOptions.cause).toBe(cause);
    expect(new BadRequestException(["a is bad", "b is bad"]).getResponse()).toEqual({
      statusCode: 400,
      message: ["a is bad", "b is bad"],
      error: "Bad Request",
    });
    expect(new ForbiddenException({ reason: "banned" }).getResponse()).toEqual({
      reason: "banned",
    });
    expect(new ForbiddenException().message).toBe("Forbidden");
  });

  it("the Strata spelling keeps Strata's body: no error field", async () => {
    const response = await answer(() => new GatewayTimeoutError("Too slow"));
    expect(response.status).toBe(504);
    expect(response.body).toEqual({ statusCode: 504, message: "Too slow" });
  });

  it("keeps its Strata Schema: encoded and decoded as the Strata class", () => {
    const encoded = Schema.encodeSync(NotFoundError)(new NotFoundException("gone"));
    expect(encoded).toEqual({ _tag: "NotFoundError", statusCode: 404, message: "gone" });
  });
});

describe("filters written the NestJS way", () => {
  it("@Catch(HttpException) catches Strata's errors too and reads getStatus/getResponse", async () => {
    @Catch(HttpException)
    class Wrapping implements ExceptionFilter<HttpException> {
      catch(exception: HttpException, host: ArgumentsHost) {
        const response = host.switchToHttp().getResponse();
        response.status(exception.getStatus()).json({ wrapped: exception.getResponse() });
      }
    }
    @Controller("cats")
    @UseFilters(Wrapping)
    class Cats {
      @Get(":id")
      find(@Param("id") id: string) {
        if (id === "nest") throw new NotFoundException(`No cat ${id}`);
        throw new NotFoundError(`No cat ${id}`);
      }
    }
    @Module({ controllers: [Cats] })
    class App {}
    const app = await listen(App);
    const strata = await request(app, "GET", "/cats/strata");
    expect(strata.status).toBe(404);
    expect(strata.body).toEqual({ wrapped: { statusCode: 404, message: "No cat strata" } });
    const nest = await request(app, "GET", "/cats/nest");
    expect(nest.status).toBe(404);
    expect(nest.body).toEqual({
      wrapped: { statusCode: 404, message: "No cat nest", error: "Not Found" },
    });
  });
});

describe("HttpStatus", () => {
  it("names NestJS's statuses", () => {
    expect([
      HttpStatus.OK,
      HttpStatus.NOT_FOUND,
      HttpStatus.I_AM_A_TEAPOT,
      HttpStatus.GATEWAY_TIMEOUT,
    ]).toEqual([200, 404, 418, 504]);
    const status: HttpStatus = HttpStatus.CREATED;
    expect(status).toBe(201);
  });
});
