import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppModule, UsersService } from "../../examples/classic-hello/app.js";
import { StrataApp } from "../../src/index.js";
import { request, Test } from "../../src/testing/index.js";

describe("examples/classic-hello", () => {
  const app = new StrataApp(AppModule);
  beforeAll(() => app.listen(0));
  afterAll(() => app.close());

  it("answers /hello", async () => {
    const response = await request(app, "GET", "/hello");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.body).toEqual({ hello: "world" });
  });

  it("finds a user through the injected service", async () => {
    expect(await request(app, "GET", "/users/2")).toMatchObject({
      status: 200,
      body: { id: 2, name: "Grace" },
    });
  });

  it("answers 404 for an unknown user and 400 for a non-integer id", async () => {
    expect(await request(app, "GET", "/users/9")).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: "No user 9" },
    });
    expect(await request(app, "GET", "/users/x")).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: "Validation failed (numeric string is expected)" },
    });
  });

  it("serves a replaced UsersService in a testing module", async () => {
    const module = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(UsersService)
      .useValue({ find: (id: number) => ({ id, name: "fake" }) })
      .compile();
    const testApp = module.createStrataApp();
    await testApp.listen(0);
    try {
      expect(await request(testApp, "GET", "/users/5")).toMatchObject({
        status: 200,
        body: { id: 5, name: "fake" },
      });
    } finally {
      await testApp.close();
      await module.close();
    }
  });
});
