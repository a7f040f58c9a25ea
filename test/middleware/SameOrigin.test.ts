import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { expect as effectExpect, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import { describe, expect, it } from "vitest";
import { SameOrigin } from "../../src/effect/index.js";
import {
  Controller,
  Get,
  Module,
  Post,
  SameOriginGuard,
  SameOriginMiddleware,
  StartupError,
  StrataApp,
  UseGuards,
} from "../../src/index.js";
import { request, serveTest } from "../../src/testing/index.js";
import { startedApps } from "../support/started.js";

const FORBIDDEN = { statusCode: 403, message: "Forbidden" };
const SIBLING = "https://www.example.com";

/** What the handlers did, so a refused request is seen to have changed nothing. */
const writes: Array<string> = [];

@Controller("guarded")
@UseGuards(SameOriginGuard)
class GuardedController {
  @Get("page")
  page() {
    return { page: true };
  }
  @Post("save")
  save() {
    writes.push("guarded");
    return { saved: true };
  }
}

@Controller("trusting")
@UseGuards(new SameOriginGuard({ origins: [SIBLING] }))
class TrustingController {
  @Post("save")
  save() {
    writes.push("trusting");
    return { saved: true };
  }
}

@Controller("open")
class OpenController {
  @Post("save")
  save() {
    writes.push("open");
    return { saved: true };
  }
}

@Module({ controllers: [GuardedController, TrustingController, OpenController] })
class AppModule {}

/** Requests as browsers make them from another site, and as an old browser (no Sec-Fetch-Site). */
const crossSite: ReadonlyArray<Record<string, string>> = [
  { origin: "http://evil.example" },
  { origin: "null" },
  { origin: "http://evil.example", "sec-fetch-site": "cross-site" },
  { "sec-fetch-site": "cross-site" },
  { "sec-fetch-site": "same-site" },
  { origin: "null", "sec-fetch-site": "cross-site" },
];

/** Requests from the app's own pages, typed in, or from a client that is no browser page. */
const sameOrigin = (app: StrataApp): ReadonlyArray<Record<string, string>> => [
  { "sec-fetch-site": "same-origin" },
  { origin: "null", "sec-fetch-site": "same-origin" },
  { "sec-fetch-site": "none" },
  { origin: app.getUrl() }, // an old browser: Origin names the host it sent the request to
  {},
];

describe("SameOrigin, classic face", () => {
  const start = startedApps();

  it("SameOriginGuard: 403 in the standard shape for a cross-site POST, handler not run; same-origin passes", async () => {
    const app = await start(AppModule);
    writes.length = 0;
    for (const headers of crossSite) {
      const answer = await request(app, "POST", "/guarded/save", { headers });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body, JSON.stringify(headers)).toEqual(FORBIDDEN);
    }
    expect(writes).toEqual([]);
    for (const headers of sameOrigin(app)) {
      const answer = await request(app, "POST", "/guarded/save", { headers });
      expect(answer.status, JSON.stringify(headers)).toBe(201);
    }
    // Pages stay reachable from other sites' links: GET is never refused.
    const page = await request(app, "GET", "/guarded/page", { headers: crossSite[2] });
    expect(page.status).toBe(200);
  });

  it("SameOriginGuard({ origins }): a trusted sibling origin passes whatever Sec-Fetch-Site says", async () => {
    const app = await start(AppModule);
    writes.length = 0;
    const sibling = await request(app, "POST", "/trusting/save", {
      headers: { origin: SIBLING, "sec-fetch-site": "same-site" },
    });
    expect(sibling.status).toBe(201);
    const other = await request(app, "POST", "/trusting/save", {
      headers: { origin: "https://evil.example.com", "sec-fetch-site": "same-site" },
    });
    expect(other.status).toBe(403);
    expect(writes).toEqual(["trusting"]);
  });

  it("SameOriginMiddleware: every unsafe route of the app, GET left alone", async () => {
    const app = await start(AppModule, {}, (app) => app.use(new SameOriginMiddleware()));
    writes.length = 0;
    for (const headers of crossSite) {
      const answer = await request(app, "POST", "/open/save", { headers });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body).toEqual(FORBIDDEN);
    }
    expect(writes).toEqual([]);
    expect((await request(app, "POST", "/open/save", { headers: sameOrigin(app)[0] })).status).toBe(
      201,
    );
    expect((await request(app, "GET", "/guarded/page", { headers: crossSite[2] })).status).toBe(
      200,
    );
  });

  it("an origin that is not one is refused when the check is made, naming it", async () => {
    for (const origin of ["evil.example", "https://app.example/path", "https://u:p@app.example"]) {
      expect(() => new SameOriginGuard({ origins: [origin] }), origin).toThrow(StartupError);
      const exit = Effect.runSyncExit(SameOrigin.make({ origins: [origin] }));
      expect(Exit.isFailure(exit), origin).toBe(true);
      expect(String(Exit.isFailure(exit) ? exit.cause : ""), origin).toContain(origin);
    }
    const app = new StrataApp(AppModule);
    app.use(new SameOriginMiddleware({ origins: ["not an origin"] }));
    await expect(app.listen(0, "127.0.0.1")).rejects.toThrow(/not an origin/);
    await app.close();
  });
});

/** The Effect face: `SameOrigin.check` as a step of one route, `SameOrigin.make` around others. */
const effectWrites: Array<string> = [];
const Routes = Layer.mergeAll(
  HttpLayerRouter.add(
    "POST",
    "/unlink",
    Effect.zipRight(
      SameOrigin.check(),
      Effect.sync(() => {
        effectWrites.push("unlink");
        return HttpServerResponse.empty({ status: 204 });
      }),
    ),
  ),
  HttpLayerRouter.add(
    "GET",
    "/start",
    Effect.as(SameOrigin.check(), HttpServerResponse.empty({ status: 302 })),
  ),
);

layer(serveTest(Routes))("SameOrigin, Effect face", (it) => {
  const send = (method: "GET" | "POST", path: string, headers: Record<string, string>) =>
    HttpClient.execute(HttpClientRequest.make(method)(path, { headers })).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.text, (text) => ({
          status: response.status,
          body: text === "" ? undefined : JSON.parse(text),
        })),
      ),
    );

  it.effect("SameOrigin.check refuses a cross-site request whatever its method", () =>
    Effect.gen(function* () {
      for (const headers of crossSite) {
        effectExpect(yield* send("POST", "/unlink", headers), JSON.stringify(headers)).toEqual({
          status: 403,
          body: FORBIDDEN,
        });
        effectExpect((yield* send("GET", "/start", headers)).status).toBe(403);
      }
      effectExpect(effectWrites).toEqual([]);
      effectExpect(
        (yield* send("POST", "/unlink", { "sec-fetch-site": "same-origin" })).status,
      ).toBe(204);
      effectExpect((yield* send("GET", "/start", { "sec-fetch-site": "none" })).status).toBe(302);
      effectExpect(effectWrites).toEqual(["unlink"]);
    }),
  );
});

layer(
  serveTest(
    HttpLayerRouter.add(
      "POST",
      "/save",
      Effect.sync(() => HttpServerResponse.empty({ status: 204 })),
    ),
    { middleware: Effect.runSync(SameOrigin.make({ origins: [SIBLING] })) },
  ),
)("SameOrigin.make, the Effect face's middleware", (it) => {
  it.effect("refuses cross-site POSTs, takes same-origin ones and the trusted origin", () =>
    Effect.gen(function* () {
      const post = (headers: Record<string, string>) =>
        Effect.flatMap(HttpClient.post("/save", { headers }), (response) =>
          Effect.map(response.text, (text) => ({ status: response.status, text })),
        );
      effectExpect(yield* post({ "sec-fetch-site": "cross-site" })).toEqual({
        status: 403,
        text: JSON.stringify(FORBIDDEN),
      });
      effectExpect((yield* post({ "sec-fetch-site": "same-origin" })).status).toBe(204);
      effectExpect((yield* post({ origin: SIBLING, "sec-fetch-site": "same-site" })).status).toBe(
        204,
      );
    }),
  );
});
