// effect-strata/testing's HTTP helpers: `serveTest`'s client and redirects, `TestResponse.json`.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, layer } from "@effect/vitest";
import { Effect, Layer, Schema } from "effect";
import { Controller, Get, Module, type StrataApp } from "effect-strata";
import { request, serveTest, Test } from "effect-strata/testing";
import { afterAll, beforeAll, it } from "vitest";

const Routes = Layer.mergeAll(
  HttpLayerRouter.add("GET", "/old", HttpServerResponse.redirect("/new", { status: 302 })),
  HttpLayerRouter.add("GET", "/new", HttpServerResponse.text("moved here")),
);

layer(serveTest(Routes))("serveTest: redirects are not followed by default", (it) => {
  it.effect("a 302 comes back as is, with its Location", () =>
    Effect.gen(function* () {
      const response = yield* HttpClient.get("/old");
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe("/new");
    }),
  );

  it.effect("a request may still ask to follow", () =>
    Effect.gen(function* () {
      const response = yield* HttpClient.get("/old").pipe(
        Effect.provideService(FetchHttpClient.RequestInit, { redirect: "follow" }),
      );
      expect(response.status).toBe(200);
      expect(yield* response.text).toBe("moved here");
    }),
  );
});

layer(serveTest(Routes, { followRedirects: true }))("serveTest: followRedirects: true", (it) => {
  it.effect("the client follows the 302 to its target", () =>
    Effect.gen(function* () {
      const response = yield* HttpClient.get("/old");
      expect(response.status).toBe(200);
      expect(yield* response.text).toBe("moved here");
    }),
  );
});

@Controller("users")
class UsersController {
  @Get(":id") find() {
    return { id: 1, name: "Ada", tags: ["admin"] };
  }
  @Get("") list() {
    return "not json";
  }
}

@Module({ controllers: [UsersController] })
class AppModule {}

const User = Schema.Struct({ id: Schema.Number, name: Schema.String });

describe("TestResponse.json(schema)", () => {
  let app: StrataApp;
  beforeAll(async () => {
    const module = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = module.createStrataApp();
    await app.listen(0);
  });
  afterAll(() => app.close());

  it("decodes the body with the schema, typed", async () => {
    const response = await request(app, "GET", "/users/1");
    const user: { readonly id: number; readonly name: string } = response.json(User);
    expect(user).toEqual({ id: 1, name: "Ada" });
  });

  it("a body that does not match throws naming the status, every mismatched field and the body", async () => {
    const response = await request(app, "GET", "/users/1");
    const Wrong = Schema.Struct({ id: Schema.String, name: Schema.Number });
    expect(() => response.json(Wrong)).toThrowError(
      /^The response body \(status 200\) does not match the schema:\n[\s\S]*\["id"\][\s\S]*Expected string, actual 1[\s\S]*\["name"\][\s\S]*Expected number, actual "Ada"[\s\S]*Body: "\{\\"id\\":1/,
    );
  });

  it("a body that is not JSON throws naming the status and quoting it", async () => {
    const response = await request(app, "GET", "/users");
    expect(() => response.json(User)).toThrowError(
      'The response body (status 200) is not JSON: "not json"',
    );
    const missing = await request(app, "GET", "/nowhere");
    expect(() => missing.json(User)).toThrowError(
      /^The response body \(status 404\) does not match/,
    );
  });
});
