import { describe, expect, it } from "vitest";
import {
  Controller,
  Module,
  Post,
  type RawBodyRequest,
  Req,
  type RequestContext,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

@Controller()
class WebhookController {
  @Post()
  receive(@Req() req: RawBodyRequest<RequestContext>) {
    return {
      parsed: req.body ?? null,
      raw: req.rawBody === undefined ? null : req.rawBody.toString(),
      isBuffer: Buffer.isBuffer(req.rawBody),
    };
  }
}

@Module({ controllers: [WebhookController] })
class WebhookModule {}

const post = (app: Parameters<typeof request>[0], body: string, type: string) =>
  request(app, "POST", "/", { body, headers: { "content-type": type } });

describe("rawBody: true", () => {
  const app = listeningApp(WebhookModule, { rawBody: true });

  it("keeps the exact bytes of a JSON body beside the parsed one", async () => {
    const body = '{ "amount":0.0 }';
    expect(await post(app, body, "application/json")).toMatchObject({
      status: 201,
      body: { parsed: { amount: 0 }, raw: body, isBuffer: true },
    });
  });

  it("keeps a form body, and an empty body as an empty Buffer", async () => {
    expect(
      await post(
        app,
        'content=this is a post\'s content by "Max"',
        "application/x-www-form-urlencoded",
      ),
    ).toMatchObject({
      status: 201,
      body: {
        parsed: { content: 'this is a post\'s content by "Max"' },
        raw: 'content=this is a post\'s content by "Max"',
      },
    });
    expect(await post(app, "", "application/json")).toMatchObject({
      status: 201,
      body: { parsed: null, raw: "", isBuffer: true },
    });
  });
});

describe("without rawBody", () => {
  const app = listeningApp(WebhookModule);

  it("keeps no bytes", async () => {
    expect(await post(app, '{"a":1}', "application/json")).toMatchObject({
      status: 201,
      body: { parsed: { a: 1 }, raw: null, isBuffer: false },
    });
  });
});
