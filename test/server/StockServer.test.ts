import { createServer } from "node:http";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Respondable from "@effect/platform/HttpServerRespondable";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import { describe, expect, layer } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as LogLevel from "effect/LogLevel";
import * as Schema from "effect/Schema";
import { StrataServer } from "../../src/effect/index.js";
import { withErrorResponses } from "../../src/http/ErrorResponse.js";
import {
  Body,
  ConflictError,
  Controller,
  type ErrorBody,
  Get,
  Module,
  NotFoundError,
  Param,
  ParseIntPipe,
  Post,
  StrataApp,
  UseGuards,
} from "../../src/index.js";
import { baseUrlOf } from "../support/baseUrl.js";

class CreateThing extends Schema.Class<CreateThing>("CreateThing")({
  name: Schema.String,
  qty: Schema.Number,
}) {}

/** A failure of the app's own that answers for itself, as any respondable does. */
class Teapot extends Schema.TaggedError<Teapot>()("Teapot", {}) {
  [Respondable.symbol]() {
    return Effect.succeed(HttpServerResponse.text("short and stout", { status: 418 }));
  }
}

@Controller("things")
class ThingsController {
  @Get(":id")
  one(@Param("id", ParseIntPipe) id: number) {
    if (id === 0) throw new NotFoundError("No thing 0");
    return { id };
  }

  @Post()
  create(@Body(CreateThing) thing: CreateThing) {
    return { name: thing.name };
  }

  @Get("locked/room")
  @UseGuards({ canActivate: () => false })
  locked() {
    return "never";
  }

  @Get("boom/defect")
  defect() {
    return Effect.die(new Error("secret defect detail"));
  }

  @Get("boom/plain")
  plain() {
    throw new Error("secret plain detail");
  }
}

@Module({ controllers: [ThingsController] })
class AppModule {}

/** The classic app, and Effect routes failing with typed errors. */
const app = Layer.mergeAll(
  StrataApp.layer(AppModule),
  HttpLayerRouter.add(
    "GET",
    "/effect/conflict",
    Effect.gen(function* () {
      return yield* new ConflictError("Already there");
    }),
  ),
  HttpLayerRouter.add("GET", "/effect/teapot", Effect.fail(new Teapot())),
);

const listen = { port: 0, host: "127.0.0.1" } as const;

/**
 * Strata's error mapper as router middleware (typed as failing with anything: the platform's
 * types expect global middleware to pass failures on).
 */
const strataMapper = (
  effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>,
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => withErrorResponses(effect);

/** The base URL of each server the app is served on. */
class Servers extends Context.Tag("test/Servers")<
  Servers,
  { readonly strata: string; readonly stock: string; readonly stockWithMapper: string }
>() {}

const servers = Layer.scoped(
  Servers,
  Effect.all({
    // Strata's own server.
    strata: baseUrlOf(
      StrataServer.serve(app).pipe(Layer.provideMerge(StrataServer.layerNode(listen))),
    ),
    // `@effect/platform`'s router on `@effect/platform-node`'s server, nothing of Strata's added.
    stock: baseUrlOf(
      HttpLayerRouter.serve(app).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, listen)),
      ),
    ),
    // The same, with Strata's error mapper as global router middleware.
    stockWithMapper: baseUrlOf(
      HttpLayerRouter.serve(
        Layer.merge(app, HttpLayerRouter.middleware(strataMapper, { global: true })),
      ).pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, listen))),
    ),
  }),
).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None)));

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

const send = (base: string, method: string, path: string, body?: unknown) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      text: await response.text(),
    };
  });

const json = (value: ErrorBody): Answer => ({
  status: value.statusCode,
  contentType: "application/json",
  text: JSON.stringify(value),
});

interface Row {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  /** Strata's answer, byte for byte. */
  readonly strata: Answer;
}

const rows: ReadonlyArray<Row> = [
  {
    name: "an unknown route",
    method: "GET",
    path: "/nowhere",
    strata: json({ statusCode: 404, message: "Not Found" }),
  },
  {
    name: "a ParseIntPipe refusal",
    method: "GET",
    path: "/things/abc",
    strata: json({ statusCode: 400, message: "Validation failed (numeric string is expected)" }),
  },
  {
    name: "a Schema body refusal",
    method: "POST",
    path: "/things",
    body: { name: 1 },
    strata: json({
      statusCode: 400,
      message: "Validation failed",
      errors: ["name: Expected string, actual 1", "qty: is missing"],
    }),
  },
  {
    name: "a guard refusal",
    method: "GET",
    path: "/things/locked/room",
    strata: json({ statusCode: 403, message: "Forbidden" }),
  },
  {
    name: "a NotFoundError thrown by a classic handler",
    method: "GET",
    path: "/things/0",
    strata: json({ statusCode: 404, message: "No thing 0" }),
  },
  {
    name: "a ConflictError yielded by an Effect route",
    method: "GET",
    path: "/effect/conflict",
    strata: json({ statusCode: 409, message: "Already there" }),
  },
  {
    name: "a respondable failure of the app's own",
    method: "GET",
    path: "/effect/teapot",
    strata: { status: 418, contentType: "text/plain", text: "short and stout" },
  },
  {
    name: "check 20: a defect",
    method: "GET",
    path: "/things/boom/defect",
    strata: json({ statusCode: 500, message: "Internal Server Error" }),
  },
  {
    name: "check 20: a thrown plain Error",
    method: "GET",
    path: "/things/boom/plain",
    strata: json({ statusCode: 500, message: "Internal Server Error" }),
  },
];

const withoutCharset = (answer: Answer): Answer => ({
  ...answer,
  contentType: answer.contentType?.split(";")[0] ?? null,
});

describe("Strata's failures on any @effect/platform server", () => {
  layer(servers, { excludeTestServices: true })("StrataApp.layer served three ways", (it) => {
    it.effect.each(rows)("$name: the same answer on Strata's and the stock server", (row) =>
      Effect.gen(function* () {
        const bases = yield* Servers;
        const answer = (base: string) =>
          Effect.map(send(base, row.method, row.path, row.body), withoutCharset);
        const strata = yield* answer(bases.strata);
        const stock = yield* answer(bases.stock);
        const stockWithMapper = yield* answer(bases.stockWithMapper);
        expect(strata).toEqual(row.strata);
        // Strata's failures answer for themselves, and the app maps unknown routes and defects
        // on a router that is not Strata's: the stock server answers exactly as Strata's.
        expect(stock).toEqual(row.strata);
        // With Strata's mapper as global router middleware, every answer is Strata's.
        expect(stockWithMapper).toEqual(row.strata);
        for (const { text } of [strata, stock, stockWithMapper]) {
          expect(text).not.toMatch(/secret|stack|\bat /);
        }
      }),
    );
  });
});
