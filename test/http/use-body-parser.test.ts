import { afterEach, describe, expect, it } from "vitest";
import {
  Body,
  Controller,
  Module,
  NestFactory,
  Post,
  type RawBodyRequest,
  Req,
  type RequestContext,
  type StrataApp,
} from "../../src/index.js";

@Controller()
class EchoController {
  @Post()
  echo(@Body() body: unknown, @Req() req: RawBodyRequest<RequestContext>) {
    return { body: body ?? null, raw: req.rawBody?.toString() ?? null };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe("app.useBodyParser(type, { limit })", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  const started = async (configure: (app: StrataApp) => void) => {
    const app = await NestFactory.create(EchoModule, { rawBody: true });
    apps.push(app);
    configure(app);
    await app.listen(0, "127.0.0.1");
    const base = await app.getUrl();
    return (body: string, type: string) =>
      fetch(`${base}/`, { method: "POST", body, headers: { "content-type": type } });
  };

  it("limits each type of body on its own, 413 over it in the standard shape; other types keep bodyLimit", async () => {
    const json = '{ "msg": "Hello, World" }';
    const form = "msg=Hello, World";
    const post = await started((app) =>
      app
        .useBodyParser("json", { limit: Buffer.byteLength(json) })
        .useBodyParser("urlencoded", { limit: Buffer.byteLength(form), extended: true })
        .useBodyParser("text", { limit: "1kb" }),
    );
    const fits = await post(json, "application/json");
    expect(fits.status).toBe(201);
    expect(await fits.json()).toEqual({ body: { msg: "Hello, World" }, raw: json });
    const over = await post('{ "msg": "Hello, World!" }', "application/json");
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ statusCode: 413, message: "Payload Too Large" });

    const formFits = await post(form, "application/x-www-form-urlencoded");
    expect(formFits.status).toBe(201);
    expect(await formFits.json()).toEqual({ body: { msg: "Hello, World" }, raw: form });
    expect((await post(`${form}!`, "application/x-www-form-urlencoded")).status).toBe(413);

    expect((await post("x".repeat(1024), "text/plain")).status).toBe(201);
    expect((await post("x".repeat(1025), "text/plain")).status).toBe(413);
    // A type without its own limit keeps the app's bodyLimit (1 MB by default).
    expect((await post("x".repeat(4096), "application/octet-stream")).status).toBe(201);
  });

  it("refuses, saying why, a type or an option Strata does not take, and a limit that is no size", async () => {
    const app = await NestFactory.create(EchoModule);
    apps.push(app);
    expect(() => app.useBodyParser("xml" as "json")).toThrow(
      'app.useBodyParser("xml"): Strata parses json, urlencoded, text and raw (any other type) bodies',
    );
    expect(() => app.useBodyParser("json", { strict: false } as { limit?: number })).toThrow(
      'only the limit option is taken (Strata parses bodies itself), not "strict"',
    );
    expect(() => app.useBodyParser("json", { limit: "lots" })).toThrow(
      'limit "lots" is not a size',
    );
  });
});
