import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { expect as effectExpect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import { Versioning } from "../../src/effect/index.js";
import {
  Controller,
  Get,
  Module,
  Param,
  StrataApp,
  VERSION_NEUTRAL,
  Version,
  VersioningType,
} from "../../src/index.js";
import { request, serveTest } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

@Controller({ path: "users", version: "1" })
class UsersV1Controller {
  @Get()
  list() {
    return { v: 1 };
  }

  @Get(":id")
  one(@Param("id") id: string) {
    return { v: 1, id };
  }
}

@Controller("users")
@Version("2")
class UsersV2Controller {
  @Get()
  list() {
    return { v: 2 };
  }

  @Get("latest")
  @Version(["2", "3"])
  latest() {
    return { latest: true };
  }
}

@Controller({ path: "health", version: VERSION_NEUTRAL })
class HealthController {
  @Get()
  health() {
    return { ok: true };
  }
}

@Controller("plain")
class PlainController {
  @Get()
  plain() {
    return { plain: true };
  }
}

@Module({ controllers: [UsersV1Controller, UsersV2Controller, HealthController, PlainController] })
class AppModule {}

describe("versioning: URI", () => {
  const app = listeningApp(AppModule, { versioning: { type: VersioningType.URI } });

  it("routes /v1/... and /v2/... of the same path to different handlers", async () => {
    expect((await request(app, "GET", "/v1/users")).body).toEqual({ v: 1 });
    expect((await request(app, "GET", "/v2/users")).body).toEqual({ v: 2 });
    expect((await request(app, "GET", "/v1/users/7")).body).toEqual({ v: 1, id: "7" });
    expect((await request(app, "GET", "/v3/users/latest")).body).toEqual({ latest: true });
  });

  it("answers 404 for an unknown version or a missing one", async () => {
    for (const path of ["/v9/users", "/users", "/v3/users", "/v1/users/latest/x"]) {
      expect(await request(app, "GET", path)).toMatchObject({
        status: 404,
        body: { statusCode: 404, message: "Not Found" },
      });
    }
  });

  it("serves version-neutral and undeclared routes without a prefix", async () => {
    expect((await request(app, "GET", "/health")).body).toEqual({ ok: true });
    expect((await request(app, "GET", "/plain")).body).toEqual({ plain: true });
  });

  it("lists each route with its version", () => {
    expect(app.routes).toEqual(
      expect.arrayContaining([
        {
          method: "GET",
          path: "/v1/users",
          controller: "UsersV1Controller",
          handler: "list",
          version: "1",
        },
        {
          method: "GET",
          path: "/v3/users/latest",
          controller: "UsersV2Controller",
          handler: "latest",
          version: "3",
        },
        { method: "GET", path: "/health", controller: "HealthController", handler: "health" },
      ]),
    );
  });
});

describe("versioning: URI with a default version and prefix", () => {
  const app = listeningApp(AppModule, {
    versioning: { type: "uri", defaultVersion: "1", prefix: "version-" },
  });

  it("gives routes that declare no version the default one", async () => {
    expect((await request(app, "GET", "/version-1/plain")).body).toEqual({ plain: true });
    expect((await request(app, "GET", "/version-2/users")).body).toEqual({ v: 2 });
    expect((await request(app, "GET", "/plain")).status).toBe(404);
    expect((await request(app, "GET", "/health")).status).toBe(200);
  });
});

describe("versioning: HEADER", () => {
  const app = listeningApp(AppModule, {
    versioning: { type: VersioningType.HEADER, defaultVersion: "1" },
  });
  const get = (path: string, version?: string) =>
    request(app, "GET", path, {
      headers: version === undefined ? {} : { "X-API-Version": version },
    });

  it("routes by the X-API-Version header", async () => {
    expect((await get("/users", "1")).body).toEqual({ v: 1 });
    expect((await get("/users", "2")).body).toEqual({ v: 2 });
    expect((await get("/users/latest", "3")).body).toEqual({ latest: true });
  });

  it("reaches only version-neutral routes when the request names none, as NestJS", async () => {
    expect(await get("/users")).toMatchObject({ status: 404, body: { statusCode: 404 } });
    expect((await get("/plain")).status).toBe(404);
    expect((await get("/plain", "1")).body).toEqual({ plain: true });
    expect((await get("/health")).body).toEqual({ ok: true });
  });

  it("answers 404 for an unknown version", async () => {
    expect(await get("/users", "9")).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: "Not Found" },
    });
    expect((await get("/users/latest")).status).toBe(404);
    expect((await get("/plain", "2")).status).toBe(404);
  });

  it("answers any version on a version-neutral route", async () => {
    expect((await get("/health", "42")).body).toEqual({ ok: true });
    expect((await get("/health")).body).toEqual({ ok: true });
  });
});

describe("versioning: HEADER with a custom header", () => {
  const app = listeningApp(AppModule, { versioning: { type: "header", header: "Accept-Version" } });

  it("reads the configured header", async () => {
    const res = await request(app, "GET", "/users", { headers: { "accept-version": "2" } });
    expect(res.body).toEqual({ v: 2 });
    expect(
      (await request(app, "GET", "/users", { headers: { "x-api-version": "2" } })).status,
    ).toBe(404);
  });
});

describe("versioning: MEDIA_TYPE", () => {
  const app = listeningApp(AppModule, { versioning: { type: VersioningType.MEDIA_TYPE } });
  const get = (path: string, accept?: string) =>
    request(app, "GET", path, { headers: accept === undefined ? {} : { accept } });

  it("routes by the vendor media type in Accept", async () => {
    expect((await get("/users", "application/vnd.strata.v1+json")).body).toEqual({ v: 1 });
    expect((await get("/users", "application/vnd.strata.v2+json")).body).toEqual({ v: 2 });
    expect((await get("/users", "text/html, application/vnd.strata.v2+json;q=0.9")).body).toEqual({
      v: 2,
    });
  });

  it("routes by a v= media type parameter", async () => {
    expect((await get("/users", "application/json;v=1")).body).toEqual({ v: 1 });
    expect((await get("/users", "application/json; v=2")).body).toEqual({ v: 2 });
  });

  it("answers 404 for an unknown version, or none without a default", async () => {
    expect((await get("/users", "application/vnd.strata.v7+json")).status).toBe(404);
    expect((await get("/users", "application/json")).status).toBe(404);
    expect((await get("/health", "application/json")).body).toEqual({ ok: true });
  });
});

/** Controllers declaring a version and no path, as NestJS's versioning samples do. */
@Controller({ version: "1" })
class RootV1Controller {
  @Get()
  root() {
    return "Hello V1";
  }
}

@Controller({ version: "2" })
class RootV2Controller {
  @Get()
  root() {
    return "Hello V2";
  }
}

@Controller({ version: VERSION_NEUTRAL })
class RootNeutralController {
  @Get("neutral")
  neutral() {
    return "Neutral";
  }
}

@Module({ controllers: [RootV1Controller, RootV2Controller, RootNeutralController] })
class RootModule {}

describe("versioning: controllers with a version and no path", () => {
  const app = listeningApp(RootModule, { versioning: { type: VersioningType.URI } });

  it("route at the root of their version", async () => {
    expect(await request(app, "GET", "/v1")).toMatchObject({ status: 200, text: "Hello V1" });
    expect(await request(app, "GET", "/v2")).toMatchObject({ status: 200, text: "Hello V2" });
    expect(await request(app, "GET", "/neutral")).toMatchObject({ status: 200, text: "Neutral" });
    expect((await request(app, "GET", "/v3")).status).toBe(404);
  });
});

describe("versioning: CUSTOM", () => {
  /** NestJS's sample extractor: every `v<N>+json` of Accept, highest first. */
  const extractor = (req: { header(name: string): string | undefined }) =>
    (req.header("Accept") ?? "")
      .split(",")
      .map((range) => range.match(/v(\d+\.?\d*)\+json$/)?.[1])
      .filter((version): version is string => version !== undefined)
      .sort()
      .reverse();
  const app = listeningApp(AppModule, {
    versioning: { type: VersioningType.CUSTOM, extractor, defaultVersion: "1" },
  });
  const get = (path: string, accept?: string) =>
    request(app, "GET", path, { headers: accept === undefined ? {} : { accept } });

  it("routes by the versions the extractor reads, the first one served winning", async () => {
    expect((await get("/users", "application/foo.v1+json")).body).toEqual({ v: 1 });
    expect((await get("/users", "application/foo.v2+json")).body).toEqual({ v: 2 });
    expect((await get("/users", "application/foo.v2+json, application/foo.v9+json")).body).toEqual({
      v: 2,
    });
    expect((await get("/plain", "application/foo.v1+json")).body).toEqual({ plain: true });
  });

  it("answers 404 for an unknown version or none, but on a neutral route", async () => {
    expect(await get("/users", "application/foo.v9+json")).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: "Not Found" },
    });
    expect((await get("/users", "application/json")).status).toBe(404);
    expect((await get("/users")).status).toBe(404);
    expect((await get("/health")).body).toEqual({ ok: true });
  });

  it("refuses CUSTOM without an extractor at startup", async () => {
    await expect(
      new StrataApp(AppModule, { versioning: { type: VersioningType.CUSTOM } }).init(),
    ).rejects.toThrow("CUSTOM versioning needs an extractor");
  });
});

describe("versioning: startup errors", () => {
  it("refuses a declared version when versioning is off", async () => {
    await expect(new StrataApp(AppModule).init()).rejects.toThrow(
      'UsersV1Controller.list declares version "1", but versioning is not enabled: pass { versioning: { type } } to the app.',
    );
  });

  it("refuses two handlers for the same method, path and version", async () => {
    @Controller({ path: "users", version: "2" })
    class Duplicate {
      @Get()
      list() {
        return { duplicate: true };
      }
    }
    @Module({ controllers: [UsersV2Controller, Duplicate] })
    class DuplicateModule {}
    await expect(
      new StrataApp(DuplicateModule, { versioning: { type: "header" } }).init(),
    ).rejects.toThrow(
      'Duplicate.list and UsersV2Controller.list both answer GET /users version "2".',
    );
  });

  it("can be enabled with app.enableVersioning", async () => {
    const app = new StrataApp(AppModule).enableVersioning({ type: VersioningType.URI });
    await app.listen(0);
    try {
      expect((await request(app, "GET", "/v2/users")).body).toEqual({ v: 2 });
    } finally {
      await app.close();
    }
  });
});

const Users = Versioning.add(
  { type: VersioningType.HEADER, defaultVersion: "2" },
  "GET",
  "/users",
  {
    "1": HttpServerResponse.unsafeJson({ v: 1 }),
    "2": HttpServerResponse.unsafeJson({ v: 2 }),
    [VERSION_NEUTRAL]: HttpServerResponse.unsafeJson({ v: "neutral" }),
  },
);

layer(serveTest(Users))("versioning, Effect face", (it) => {
  const get = (version?: string) =>
    Effect.flatMap(
      HttpClient.get("/users", { headers: version ? { "x-api-version": version } : {} }),
      (response) => response.json,
    );
  it.effect("dispatches by version, then neutral (also for a request naming none)", () =>
    Effect.gen(function* () {
      effectExpect(yield* get("1")).toEqual({ v: 1 });
      effectExpect(yield* get()).toEqual({ v: "neutral" });
      effectExpect(yield* get("5")).toEqual({ v: "neutral" });
    }),
  );
});
