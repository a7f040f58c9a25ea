import { Type } from "class-transformer";
import { IsEmail, IsInt, IsString, Max, Min, ValidateNested } from "class-validator";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import {
  ApiProperty,
  Body,
  Controller,
  IntersectionType,
  Module,
  OmitType,
  PartialType,
  Patch,
  PickType,
  Post,
  ValidationPipe,
} from "../../src/index.js";
import { startedApps } from "../support/started.js";

class Address {
  @IsString()
  city!: string;
}

class CreateUserDto {
  @ApiProperty({ description: "The user's name" })
  @IsString()
  name!: string;

  @IsEmail()
  email!: string;

  @IsInt()
  @Min(13)
  @Max(130)
  age!: number;

  @IsString()
  role = "member";

  @ValidateNested()
  @Type(() => Address)
  address!: Address;
}

class UpdateUserDto extends PartialType(CreateUserDto) {}
class ContactDto extends PickType(CreateUserDto, ["email"] as const) {}
class PublicUserDto extends OmitType(CreateUserDto, ["email", "address"] as const) {}

class Tracking {
  @IsString()
  source!: string;
}
class SignupDto extends IntersectionType(ContactDto, Tracking) {}

@Controller("users")
class UsersController {
  @Patch()
  update(@Body() dto: UpdateUserDto) {
    return { dto, isInstance: dto instanceof UpdateUserDto };
  }

  @Post("contact")
  contact(@Body() dto: ContactDto) {
    return dto;
  }

  @Post("public")
  publicUser(@Body() dto: PublicUserDto) {
    return dto;
  }

  @Post("signup")
  signup(@Body() dto: SignupDto) {
    return dto;
  }
}

@Module({ controllers: [UsersController] })
class AppModule {}

const send = async (base: string, method: string, path: string, body: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

describe("PartialType, PickType, OmitType, IntersectionType", () => {
  const start = startedApps();
  const app = () =>
    start(AppModule, {}, (a) =>
      a.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true })),
    );

  it("PartialType: every property optional, each still validated when present (nested too)", async () => {
    const base = await (await app()).getUrl();
    const empty = await send(base, "PATCH", "/users", {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ dto: { role: "member" }, isInstance: true });
    const partial = await send(base, "PATCH", "/users", { age: 40 });
    expect(partial).toEqual({
      status: 200,
      body: { dto: { age: 40, role: "member" }, isInstance: true },
    });
    const bad = await send(base, "PATCH", "/users", {
      age: 7,
      email: "nope",
      address: { city: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      statusCode: 400,
      message: "Validation failed",
      errors: expect.arrayContaining([
        "email must be an email",
        "age must not be less than 13",
        "address.city must be a string",
      ]),
    });
  });

  it("PickType keeps only the picked properties and their validation; whitelist strips the rest", async () => {
    const base = await (await app()).getUrl();
    expect(await send(base, "POST", "/users/contact", { email: "a@b.example", name: "x" })).toEqual(
      {
        status: 201,
        body: { email: "a@b.example" },
      },
    );
    const missing = await send(base, "POST", "/users/contact", {});
    expect(missing.status).toBe(400);
    expect((missing.body as { errors: Array<string> }).errors).toEqual(["email must be an email"]);
  });

  it("OmitType keeps every other property, required as before", async () => {
    const base = await (await app()).getUrl();
    const ok = await send(base, "POST", "/users/public", {
      name: "Ada",
      age: 36,
      email: "dropped",
    });
    expect(ok).toEqual({ status: 201, body: { name: "Ada", age: 36, role: "member" } });
    const bad = await send(base, "POST", "/users/public", { name: "Ada" });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: Array<string> }).errors).toEqual(
      expect.arrayContaining(["age must be an integer number"]),
    );
  });

  it("IntersectionType has the properties of both, each validated", async () => {
    const base = await (await app()).getUrl();
    expect(
      await send(base, "POST", "/users/signup", { email: "a@b.example", source: "ad" }),
    ).toEqual({ status: 201, body: { email: "a@b.example", source: "ad" } });
    const bad = await send(base, "POST", "/users/signup", { email: "a@b.example" });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: Array<string> }).errors).toEqual(["source must be a string"]);
  });

  it("an Effect Schema is refused, naming what to use instead", () => {
    class Point extends Schema.Class<Point>("Point")({ x: Schema.Number }) {}
    expect(() => PartialType(Point)).toThrow(
      /an Effect Schema is not a class DTO; use Schema's own/,
    );
  });
});
