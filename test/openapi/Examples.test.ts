// The documents of the examples validate against the OpenAPI 3.1 schema. (The social-login demo
// and effect-httpapi are checked as they run, in SocialLoginDemo.test.ts and EffectFace.test.ts;
// effect-hello and effect-api serve plain HttpLayerRouter routes, which an HttpApi or
// describeRoute would describe: they have none.)
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import { describe, expect, it } from "vitest";
import { AppModule as ApiModule } from "../../examples/classic-api/app.js";
import { AppModule as HelloModule } from "../../examples/classic-hello/app.js";
import { createAppModule as customFlow } from "../../examples/custom-flow/app.js";
import { BooksApi } from "../../examples/effect-httpapi/app.js";
import { appRoutesOptions, OAuthLive } from "../../examples/effect-social-login/app.js";
import { OpenApiDocs } from "../../src/effect/index.js";
import { VersioningType } from "../../src/index.js";
import { OAuthRoutes } from "../../src/oauth/index.js";
import { appsClosedAfterEach, expectValidOpenApi, fetchDocument } from "./support.js";

const credentials = (provider: string) => ({
  clientId: `${provider}-id`,
  clientSecret: `${provider}-secret`,
  redirectUri: `http://localhost:3000/auth/${provider}/callback`,
});

describe("the examples' documents", () => {
  const listen = appsClosedAfterEach();

  it("classic-hello", async () => {
    const app = await listen(HelloModule);
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(Object.keys(document.paths).sort()).toEqual(["/hello", "/users/{id}"]);
  });

  it("classic-api: URI versions, a guard, a filter, an upload", async () => {
    const app = await listen(ApiModule, {
      openapi: {},
      versioning: { type: VersioningType.URI },
      uploads: { fileSize: 2 * 1024 * 1024, files: 1 },
    });
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(Object.keys(document.paths)).toEqual([
      "/v1/books",
      "/v1/books/{id}",
      "/v1/books/{id}/cover",
      "/v2/books",
    ]);
  });

  it("custom-flow: its own login routes (the module's are off)", async () => {
    const app = await listen(
      customFlow({ providers: { google: credentials("google"), github: credentials("github") } }),
    );
    const document = await fetchDocument(app.getUrl());
    await expectValidOpenApi(document);
    expect(Object.keys(document.paths).some((path) => path.startsWith("/auth"))).toBe(false);
    expect(Object.keys(document.paths).every((path) => path.startsWith("/login"))).toBe(true);
  });

  it("effect-social-login: the OAuth routes, described by OAuthRoutes.api", async () => {
    const document = await Effect.runPromise(
      OpenApiDocs.document({
        apis: [OAuthRoutes.api(appRoutesOptions)],
      }).pipe(
        Effect.provide(
          Layer.orDie(
            OAuthLive(
              { providers: { github: credentials("github") } },
              Redacted.make("example-sealing-key-0123456789-abcdefghijkl"),
            ).pipe(Layer.provide(FetchHttpClient.layer)),
          ),
        ),
      ),
    );
    await expectValidOpenApi(document);
    expect(Object.keys(document.paths)).toEqual([
      "/auth/{provider}",
      "/auth/{provider}/callback",
      "/auth/session",
      "/auth/logout",
    ]);
    expect(document.paths["/auth/session"]?.get?.responses["200"]?.content).toMatchObject({
      "application/json": { schema: { description: "The app's session data" } },
    });
    expect(Object.keys(document.paths["/auth/logout"]?.post?.responses ?? {})).toEqual([
      "204",
      "403",
      "503",
    ]);
  });

  it("effect-httpapi, as OpenApiDocs.document builds it", async () => {
    const document = await Effect.runPromise(OpenApiDocs.document({ apis: [BooksApi] }));
    await expectValidOpenApi(document);
  });
});
