import * as HttpClient from "@effect/platform/HttpClient";
import { expect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { AppRoutes, Users } from "../../examples/effect-hello/app.js";
import { serveTest } from "../../src/testing/index.js";

const get = (path: string) =>
  Effect.flatMap(HttpClient.get(path), (response) =>
    Effect.map(response.json, (body) => ({ status: response.status, body })),
  );

layer(serveTest(AppRoutes).pipe(Layer.provide(Users.layer)))("examples/effect-hello", (it) => {
  it.effect("answers /hello", () =>
    Effect.gen(function* () {
      expect(yield* get("/hello")).toEqual({ status: 200, body: { hello: "world" } });
    }),
  );

  it.effect("finds a user, 404 for an unknown one", () =>
    Effect.gen(function* () {
      expect(yield* get("/users/1")).toEqual({ status: 200, body: { id: 1, name: "Ada" } });
      expect(yield* get("/users/7")).toEqual({
        status: 404,
        body: { statusCode: 404, message: "No user 7" },
      });
    }),
  );

  it.effect("rejects a non-numeric id with 400 and a per-field message", () =>
    Effect.gen(function* () {
      expect(yield* get("/users/x")).toEqual({
        status: 400,
        body: {
          statusCode: 400,
          message: "Validation failed",
          errors: ['id: Unable to decode "x" into a number'],
        },
      });
    }),
  );

  it.effect("answers 404 in the standard shape for an unknown route", () =>
    Effect.gen(function* () {
      expect(yield* get("/nope")).toEqual({
        status: 404,
        body: { statusCode: 404, message: "Not Found" },
      });
    }),
  );
});
