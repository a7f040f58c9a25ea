import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { expect as effectExpect, layer } from "@effect/vitest";
import { IsString } from "class-validator";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { describe, expect, it } from "vitest";
import { JsonDepth, Validation } from "../../src/effect/index.js";
import { exceedsJsonDepth } from "../../src/http/internal/jsonDepth.js";
import { DEFAULT_JSON_DEPTH_LIMIT } from "../../src/http/JsonDepth.js";
import {
  Body,
  Controller,
  Get,
  Module,
  ParseArrayPipe,
  Post,
  Query,
  ValidationPipe,
} from "../../src/index.js";
import { request, serveTest } from "../../src/testing/index.js";
import { capturingLogger, startedApps } from "../support/started.js";

/** `{"name":"cat","nested":[[...]]}` nesting arrays and objects `depth` levels deep in all. */
const nestedBody = (depth: number) =>
  `{"name":"cat","nested":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;

/** The 400 of a body nested deeper than `limit`. */
const tooDeep = (limit: number) => ({
  statusCode: 400,
  message: `JSON body nested deeper than ${limit} levels`,
});

class CatDto {
  @IsString()
  name!: string;
}

class SchemaCat extends Schema.Class<SchemaCat>("SchemaCat")({ name: Schema.String }) {}

@Controller("cats")
class CatsController {
  /** class-validator: class-transformer and the `__proto__` strip walk the body. */
  @Post("class")
  classDto(@Body(new ValidationPipe()) cat: CatDto) {
    return { name: cat.name };
  }

  @Post("schema")
  schemaDto(@Body() cat: SchemaCat) {
    return { name: cat.name };
  }

  /** Raw JSON, echoed: `JSON.stringify` recurses too. */
  @Post("raw")
  raw(@Body() body: unknown) {
    return body;
  }
}

@Module({ controllers: [CatsController] })
class AppModule {}

const json = { "content-type": "application/json" };

/**
 * SECURITY.md 44: a body within the size limit never drives framework code into a stack
 * overflow. 5000 levels take 30 kB, well within the 1 MB body limit.
 */
describe("check 44: JSON nested beyond the depth limit is a 400 (classic face)", () => {
  const start = startedApps();

  it("every body path answers 400 in the standard shape, logs no error and stays up", async () => {
    const logs = capturingLogger();
    const app = await start(AppModule, { logger: logs.logger });
    const deep = nestedBody(5_000);
    expect(deep.length).toBeLessThan(30_000);
    for (const path of ["/cats/class", "/cats/schema", "/cats/raw"]) {
      const answer = await request(app, "POST", path, { headers: json, body: deep });
      expect([answer.status, answer.body], path).toEqual([400, tooDeep(DEFAULT_JSON_DEPTH_LIMIT)]);
      expect(answer.body, path).toEqual(tooDeep(DEFAULT_JSON_DEPTH_LIMIT));
    }
    expect(logs.lines.filter((line) => line.level === "ERROR")).toEqual([]);
    expect(logs.lines.map((line) => line.text).join("\n")).not.toContain("stack");
    // Still serving, and a body at the limit is read and validated as usual.
    for (const path of ["/cats/class", "/cats/schema"]) {
      const atLimit = await request(app, "POST", path, { headers: json, body: nestedBody(1_000) });
      expect(atLimit.status, path).toBe(201);
      expect(atLimit.body, path).toEqual({ name: "cat" });
      const invalid = await request(app, "POST", path, {
        headers: json,
        body: `{"name":1,"nested":${"[".repeat(998)}${"]".repeat(998)}}`,
      });
      expect(invalid.status, path).toBe(400);
      expect((invalid.body as { message: string }).message, path).not.toContain("nested deeper");
    }
  });

  it("the limit is the app's jsonDepthLimit option; brackets inside strings do not count", async () => {
    const app = await start(AppModule, { jsonDepthLimit: 10 });
    const over = await request(app, "POST", "/cats/raw", { headers: json, body: nestedBody(11) });
    expect(over.status).toBe(400);
    expect(over.body).toEqual(tooDeep(10));
    const at = await request(app, "POST", "/cats/raw", { headers: json, body: nestedBody(10) });
    expect(at.status).toBe(201);
    const text = `{"name":"${"[{".repeat(50)}\\"[[[[[[[[[[[[\\\\","other":"]]]"}`;
    const inStrings = await request(app, "POST", "/cats/raw", { headers: json, body: text });
    expect(inStrings.status).toBe(201);
    expect(inStrings.body).toEqual(JSON.parse(text));
  });
});

class Item {
  @IsString()
  name!: string;
}

@Controller("items")
class ItemsController {
  /** Items of a query parsed as JSON, then validated through class-transformer. */
  @Get()
  list(@Query("ids", new ParseArrayPipe({ items: Item, separator: ";" })) ids: Array<Item>) {
    return { count: ids.length };
  }
}

@Module({ controllers: [ItemsController] })
class ItemsModule {}

describe("check 44: query items parsed as JSON (ParseArrayPipe)", () => {
  const start = startedApps();

  it("an item nested beyond 1000 levels is a 400, not a stack overflow", async () => {
    const logs = capturingLogger();
    const app = await start(ItemsModule, { logger: logs.logger });
    // `[` and `]` stay as they are in a query: 2 characters a level, 3000 levels in 6 kB.
    const answer = await request(app, "GET", `/items?ids=${"[".repeat(3_000)}${"]".repeat(3_000)}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      statusCode: 400,
      message: `[0] item nested deeper than ${DEFAULT_JSON_DEPTH_LIMIT} levels`,
    });
    expect(logs.lines.filter((line) => line.level === "ERROR")).toEqual([]);
    const fine = await request(
      app,
      "GET",
      `/items?ids=${encodeURIComponent('{"name":"a"};{"name":"b"}')}`,
    );
    expect(fine.body).toEqual({ count: 2 });
  });
});

/** The Effect face: `Validation.body`, `request.json` (`HttpApi` payloads, `schemaBodyJson`). */
const Cat = Schema.Struct({ name: Schema.String });
const EffectRoutes = Layer.mergeAll(
  HttpLayerRouter.add(
    "POST",
    "/validated",
    Effect.map(Validation.body(Cat), (cat) => HttpServerResponse.unsafeJson(cat)),
  ),
  HttpLayerRouter.add(
    "POST",
    "/schema-json",
    Effect.map(HttpServerRequest.schemaBodyJson(Cat), (cat) => HttpServerResponse.unsafeJson(cat)),
  ),
  HttpLayerRouter.add(
    "POST",
    "/raw",
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.map(request.json, (body) => HttpServerResponse.unsafeJson(body)),
    ),
  ),
  HttpLayerRouter.add(
    "POST",
    "/shallow",
    JsonDepth.withJsonDepthLimit(
      Effect.map(Validation.body(Cat), (cat) => HttpServerResponse.unsafeJson(cat)),
      5,
    ),
  ),
);

layer(serveTest(EffectRoutes))("check 44: the Effect face", (it) => {
  const post = (path: string, text: string) =>
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.bodyText(text, "application/json"),
      HttpClient.execute,
      Effect.flatMap((response) =>
        Effect.map(response.json, (body) => ({ status: response.status, body })),
      ),
    );

  it.effect("Validation.body, schemaBodyJson and request.json refuse 5000 levels with 400", () =>
    Effect.gen(function* () {
      effectExpect(yield* post("/validated", nestedBody(5_000))).toEqual({
        status: 400,
        body: tooDeep(DEFAULT_JSON_DEPTH_LIMIT),
      });
      for (const path of ["/schema-json", "/raw"]) {
        const answer = yield* post(path, nestedBody(5_000));
        effectExpect(answer.status, path).toBe(400);
        effectExpect(answer.body, path).toEqual({ statusCode: 400, message: "Bad Request" });
      }
      for (const path of ["/validated", "/schema-json"]) {
        effectExpect(yield* post(path, nestedBody(1_000)), path).toEqual({
          status: 200,
          body: { name: "cat" },
        });
      }
    }),
  );

  it.effect("withJsonDepthLimit sets the limit of what it wraps", () =>
    Effect.gen(function* () {
      effectExpect(yield* post("/shallow", nestedBody(6))).toEqual({
        status: 400,
        body: tooDeep(5),
      });
      effectExpect(yield* post("/shallow", nestedBody(5))).toEqual({
        status: 200,
        body: { name: "cat" },
      });
    }),
  );
});

describe("exceedsJsonDepth", () => {
  it("counts arrays and objects, not what strings hold, and walks a million levels without recursing", () => {
    expect(exceedsJsonDepth(JSON.parse(nestedBody(3)), 3)).toBe(false);
    expect(exceedsJsonDepth(JSON.parse(nestedBody(4)), 3)).toBe(true);
    expect(exceedsJsonDepth(JSON.parse(`{"a":"[[[[[[","b":{"__proto__":{}}}`), 3)).toBe(false);
    expect(exceedsJsonDepth(JSON.parse(`{"b":{"__proto__":{"c":[]}}}`), 3)).toBe(true);
    expect(exceedsJsonDepth("[[[[", 1)).toBe(false);
    const million = 1_000_000;
    const deep = JSON.parse("[".repeat(million) + "]".repeat(million));
    expect(exceedsJsonDepth(deep, 1000)).toBe(true);
    expect(exceedsJsonDepth(deep, million)).toBe(false);
  });
});
