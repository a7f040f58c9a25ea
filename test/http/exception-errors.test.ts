import { describe, expect, it } from "vitest";
import {
  BadGatewayException,
  BadRequestError,
  BadRequestException,
  ConflictException,
  Controller,
  ForbiddenException,
  GatewayTimeoutException,
  Get,
  GoneException,
  HttpVersionNotSupportedException,
  ImATeapotException,
  InternalServerErrorException,
  MethodNotAllowedException,
  MisdirectedException,
  Module,
  NotAcceptableException,
  NotFoundException,
  NotImplementedException,
  Param,
  PayloadTooLargeException,
  PreconditionFailedException,
  RequestTimeoutException,
  ServiceUnavailableException,
  TooManyRequestsException,
  UnauthorizedException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from "../../src/index.js";
import { startedApps } from "../support/started.js";

/** Every NestJS exception alias, by status. */
const aliases = {
  400: BadRequestException,
  401: UnauthorizedException,
  403: ForbiddenException,
  404: NotFoundException,
  405: MethodNotAllowedException,
  406: NotAcceptableException,
  408: RequestTimeoutException,
  409: ConflictException,
  410: GoneException,
  412: PreconditionFailedException,
  413: PayloadTooLargeException,
  415: UnsupportedMediaTypeException,
  418: ImATeapotException,
  421: MisdirectedException,
  422: UnprocessableEntityException,
  429: TooManyRequestsException,
  500: InternalServerErrorException,
  501: NotImplementedException,
  502: BadGatewayException,
  503: ServiceUnavailableException,
  504: GatewayTimeoutException,
  505: HttpVersionNotSupportedException,
} as const;

@Controller("fail")
class FailController {
  @Get("strata/:status")
  strata(@Param("status") status: string) {
    const Alias = aliases[Number(status) as keyof typeof aliases];
    throw new Alias("bad", ["field a is wrong", "field b is missing"]);
  }

  @Get("nest/:status")
  nest(@Param("status") status: string) {
    const Alias = aliases[Number(status) as keyof typeof aliases];
    throw new Alias("bad", "Custom description");
  }
}

@Module({ controllers: [FailController] })
class AppModule {}

describe("the NestJS exception aliases take the seed spec's (message, errors) too", () => {
  const start = startedApps();

  it("an array second is Strata's errors, for every alias: the standard body over HTTP", async () => {
    const app = await start(AppModule);
    const base = await app.getUrl();
    for (const status of Object.keys(aliases)) {
      const response = await fetch(`${base}/fail/strata/${status}`);
      expect(response.status).toBe(Number(status));
      expect(await response.json()).toEqual({
        statusCode: Number(status),
        message: "bad",
        errors: ["field a is wrong", "field b is missing"],
      });
    }
  });

  it("a string second is still NestJS's description", async () => {
    const app = await start(AppModule);
    const response = await fetch(`${await app.getUrl()}/fail/nest/409`);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      statusCode: 409,
      message: "bad",
      error: "Custom description",
    });
  });

  it("the error is the Strata class's, errors and all", () => {
    const error = new BadRequestException("bad", ["field a is wrong"]);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.errors).toEqual(["field a is wrong"]);
    expect(error.message).toBe("bad");
    expect(error.getResponse()).toEqual({
      statusCode: 400,
      message: "bad",
      errors: ["field a is wrong"],
    });
  });
});
