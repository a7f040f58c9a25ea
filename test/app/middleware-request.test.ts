import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  type MiddlewareConsumer,
  Module,
  NestFactory,
  type NestMiddlewareRequest,
  type NestMiddlewareResponse,
  Req,
  type RequestContext,
  type StrataApp,
} from "../../src/index.js";

/** What an Express app's middleware leaves on `req` for the handler. */
interface Extras {
  extras?: { readonly tenant: string };
  seen?: Array<string>;
  user?: RequestContext["user"];
}

const tenant = (req: NestMiddlewareRequest, _res: NestMiddlewareResponse, next: () => void) => {
  const own = req as NestMiddlewareRequest & Extras;
  own.extras = { tenant: String(req.get("x-tenant")) };
  own.seen = ["tenant"];
  next();
};

const auth = (req: NestMiddlewareRequest, _res: NestMiddlewareResponse, next: () => void) => {
  const own = req as NestMiddlewareRequest & Extras;
  // The first middleware's property, on the same object.
  own.seen?.push(`auth saw ${own.extras?.tenant}`);
  own.user = { id: 7, username: "ada", role: "admin" };
  next();
};

@Controller("who")
class WhoController {
  @Get()
  who(@Req() req: RequestContext & Extras) {
    return { extras: req.extras ?? null, seen: req.seen ?? null, user: req.user ?? null };
  }

  @Get("plain")
  plain(@Req() req: RequestContext & Extras) {
    return { extras: req.extras ?? null };
  }
}

@Module({ controllers: [WhoController] })
class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(tenant, auth).exclude("who/plain").forRoutes(WhoController);
  }
}

describe("a NestJS middleware's req is the handler's @Req()", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it("properties a middleware sets on req are there in the handler, and shared between middleware", async () => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    const response = await fetch(`${await app.getUrl()}/who`, { headers: { "x-tenant": "acme" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      extras: { tenant: "acme" },
      seen: ["tenant", "auth saw acme"],
      user: { id: 7, username: "ada", role: "admin" },
    });
  });

  it("a request the middleware did not run for has none of them (nothing leaks between requests)", async () => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    const base = await app.getUrl();
    await fetch(`${base}/who`, { headers: { "x-tenant": "acme" } });
    const plain = await fetch(`${base}/who/plain`, { headers: { "x-tenant": "other" } });
    expect(plain.status).toBe(200);
    expect(await plain.json()).toEqual({ extras: null });
    const again = await fetch(`${base}/who`, { headers: { "x-tenant": "beta" } });
    expect(await again.json()).toMatchObject({
      extras: { tenant: "beta" },
      seen: ["tenant", "auth saw beta"],
    });
  });

  it("the same under a global prefix", async () => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    app.setGlobalPrefix("api");
    await app.listen(0, "127.0.0.1");
    const response = await fetch(`${await app.getUrl()}/api/who`, {
      headers: { "x-tenant": "acme" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ extras: { tenant: "acme" } });
  });
});
