// The demo (examples/social-login) as `npm start` runs it, docs turned on: its document is valid
// OpenAPI 3.1, matches the reviewed snapshot, and a typed HttpApiClient whose Schemas the
// document describes signs in and calls `GET /me`.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiClient from "@effect/platform/HttpApiClient";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as OpenApi from "@effect/platform/OpenApi";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Me } from "../../examples/social-login/MeController.js";
import { ErrorBodySchema } from "../../src/openapi/ErrorBodies.js";
import type { OpenApiDocument } from "../../src/openapi/OpenApiDocument.js";
import { DEFAULT_COOKIE_NAME as SESSION_COOKIE } from "../../src/session/index.js";
import { freePort } from "../support/freePort.js";
import { expectValidOpenApi, fetchDocument } from "./support.js";

const ROOT = new URL("../../", import.meta.url).pathname;

let child: ChildProcess;
let base: string;
let document: OpenApiDocument;

let data: string;

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), "strata-demo-openapi-"));
  const port = await freePort();
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/_CLIENT_(ID|SECRET)$|^OAUTH_REDIRECT_URI$|^NODE_ENV$/.test(name),
    ),
  );
  child = spawn(
    process.execPath,
    [
      "--conditions=strata-source",
      "--import",
      "./scripts/register.mjs",
      "examples/social-login/main.ts",
    ],
    {
      cwd: ROOT,
      // Users in a throwaway SQLite file, not the demo's own.
      env: { ...env, PORT: String(port), ACCOUNTS_DB: join(data, "accounts.db") },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  base = `http://localhost:${port}`;
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`social-login: open ${base}`)) resolve();
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
  });
  document = await fetchDocument(base);
}, 60_000);

afterAll(async () => {
  if (child.exitCode === null) {
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  }
  await rm(data, { recursive: true, force: true });
});

/** What a client of the demo declares: `GET /me` with its session cookie, the user or a 401. */
const DemoApi = HttpApi.make("demo").add(
  HttpApiGroup.make("me").add(
    HttpApiEndpoint.get("me", "/me")
      .setHeaders(Schema.Struct({ cookie: Schema.String }))
      .addSuccess(Me)
      .addError(ErrorBodySchema, { status: 401 }),
  ),
);

const cookieValue = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(";")[0]
    ?.slice(name.length + 1);

/** Signs in with google at the development identity provider; returns the session cookie's value. */
const signIn = async (): Promise<string> => {
  const started = await fetch(`${base}/auth/google`, { redirect: "manual" });
  expect(started.status).toBe(302);
  const transaction = cookieValue(started, "strata_oauth");
  const authorization = new URL(started.headers.get("location") ?? "");
  const page = await (await fetch(authorization)).text();
  const requestId = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? "";
  const posted = await fetch(authorization.origin + authorization.pathname, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request: requestId, user: "ada" }).toString(),
  });
  expect(posted.status).toBe(303);
  const callback = await fetch(posted.headers.get("location") ?? "", {
    redirect: "manual",
    headers: { cookie: `strata_oauth=${transaction}` },
  });
  expect(callback.status).toBe(302);
  return cookieValue(callback, SESSION_COOKIE) ?? "";
};

describe("the social-login demo's API description", () => {
  it("is valid OpenAPI 3.1 and matches the reviewed snapshot", async () => {
    await expectValidOpenApi(document);
    await expect(`${JSON.stringify(document, null, 2)}\n`).toMatchFileSnapshot(
      "./__snapshots__/social-login.openapi.json",
    );
  });

  it("describes its own routes and the OAuth module's, with their statuses and error codes", () => {
    expect(Object.keys(document.paths).sort()).toEqual([
      "/",
      "/accounts/{provider}/unlink",
      "/auth/logout",
      "/auth/session",
      "/auth/{provider}",
      "/auth/{provider}/callback",
      "/me",
    ]);
    expect(document.paths["/me"]?.get).toMatchObject({
      security: [{ session: [] }],
      responses: {
        "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Me" } } } },
        "401": { description: "Unauthorized" },
      },
    });
    expect(document.components.securitySchemes).toEqual({
      session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
    });
    expect(Object.keys(document.paths["/auth/{provider}/callback"]?.get?.responses ?? {})).toEqual(
      expect.arrayContaining(["302", "401", "404", "502", "504"]),
    );
  });

  it("a typed HttpApiClient, whose Schema is the one the document describes, calls GET /me", async () => {
    // The client's declaration and the served document agree on what /me answers.
    const declared = OpenApi.fromApi(DemoApi);
    expect(document.components.schemas.Me).toEqual(declared.components.schemas.Me);
    expect(document.paths["/me"]?.get?.responses["200"]?.content).toEqual(
      declared.paths["/me"]?.get?.responses[200]?.content,
    );
    const session = await signIn();
    const [me, refused] = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* HttpApiClient.make(DemoApi, { baseUrl: base });
        const me = yield* client.me.me({ headers: { cookie: `${SESSION_COOKIE}=${session}` } });
        const refused = yield* Effect.flip(
          client.me.me({ headers: { cookie: `${SESSION_COOKIE}=not-a-session` } }),
        );
        return [me, refused] as const;
      }).pipe(Effect.provide(FetchHttpClient.layer)),
    );
    expect(me).toMatchObject({
      id: expect.stringMatching(/^[\w-]{22}$/),
      provider: "google",
      role: "user",
      tenantId: "default",
    });
    expect(typeof me.name).toBe("string");
    expect(refused).toEqual({ statusCode: 401, message: "Unauthorized" });
  });
});
