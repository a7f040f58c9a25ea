import { Type } from "class-transformer";
import {
  ArrayMinSize,
  IsEmail,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from "class-validator";
import { describe, expect, it } from "vitest";
import {
  ApiProperty,
  ApiPropertyOptional,
  Body,
  Controller,
  Get,
  Module,
  PartialType,
  Patch,
  Post,
  Query,
  ValidationPipe,
} from "../../src/index.js";
import { appsClosedAfterEach, expectValidOpenApi, fetchDocument } from "./support.js";

enum Color {
  Black = "black",
  Ginger = "ginger",
}

class Toy {
  @IsString()
  name!: string;
}

class CreateCatDto {
  @ApiProperty({ description: "The cat's name", example: "Tom" })
  @IsString()
  @MaxLength(40)
  name!: string;

  @IsInt()
  @Min(0)
  @Max(30)
  age!: number;

  @IsEnum(Color)
  color!: Color;

  @IsOptional()
  @IsEmail()
  ownerEmail?: string;

  @ValidateNested({ each: true })
  @ArrayMinSize(1)
  @Type(() => Toy)
  toys!: Array<Toy>;

  @ApiPropertyOptional({ description: "Free text", nullable: true })
  notes?: string;
}

class UpdateCatDto extends PartialType(CreateCatDto) {}

class ListQuery {
  @IsOptional()
  @IsInt()
  @Min(1)
  page?: number;

  @IsString()
  sort!: string;
}

@Controller("cats")
class CatsController {
  @Post()
  create(@Body() dto: CreateCatDto) {
    return dto;
  }

  @Patch()
  update(@Body() dto: UpdateCatDto) {
    return dto;
  }

  @Get()
  list(@Query() query: ListQuery) {
    return query;
  }
}

@Module({ controllers: [CatsController] })
class AppModule {}

describe("class-validator DTOs in the OpenAPI document", () => {
  const start = appsClosedAfterEach();

  it("describes a DTO from its class-validator decorators and @ApiProperty, not as {}", async () => {
    const app = await start(AppModule, { openapi: {} });
    const document = await fetchDocument(await app.getUrl());
    await expectValidOpenApi(document);
    const create = document.paths["/cats"]?.post;
    expect(create?.requestBody).toEqual({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/CreateCatDto" } } },
    });
    const schemas = document.components?.schemas ?? {};
    expect(schemas.CreateCatDto).toEqual({
      type: "object",
      properties: {
        name: {
          type: "string",
          maxLength: 40,
          description: "The cat's name",
          examples: ["Tom"],
        },
        age: { type: "integer", minimum: 0, maximum: 30 },
        color: { type: "string", enum: ["black", "ginger"] },
        ownerEmail: { type: "string", format: "email" },
        toys: { type: "array", minItems: 1, items: { $ref: "#/components/schemas/Toy" } },
        notes: { anyOf: [{ type: "string", description: "Free text" }, { type: "null" }] },
      },
      required: ["name", "age", "color", "toys"],
    });
    expect(schemas.Toy).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    });
  });

  it("a PartialType DTO has the same properties, none required", async () => {
    const app = await start(AppModule, { openapi: {} });
    const document = await fetchDocument(await app.getUrl());
    const schemas = document.components?.schemas ?? {};
    const update = schemas.UpdateCatDto as {
      properties: Record<string, unknown>;
      required?: unknown;
    };
    expect(Object.keys(update.properties)).toEqual([
      "name",
      "age",
      "color",
      "ownerEmail",
      "toys",
      "notes",
    ]);
    expect(update.required).toBeUndefined();
    expect(update.properties.age).toEqual({ type: "integer", minimum: 0, maximum: 30 });
  });

  it("a @Query() DTO is listed as query parameters; with a ValidationPipe, 400 is documented", async () => {
    const app = await start(AppModule, { openapi: {} });
    const document = await fetchDocument(await app.getUrl());
    const list = document.paths["/cats"]?.get;
    expect(list?.parameters).toEqual([
      { name: "page", in: "query", required: false, schema: { type: "integer", minimum: 1 } },
      { name: "sort", in: "query", required: true, schema: { type: "string" } },
    ]);
    expect(list?.responses["400"]).toBeUndefined();
    const validated = await start(AppModule, { openapi: {}, globalPipes: [new ValidationPipe()] });
    const again = await fetchDocument(await validated.getUrl());
    expect(again.paths["/cats"]?.get?.responses["400"]?.description).toBe("Validation failed");
  });
});
