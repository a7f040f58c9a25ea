import { afterEach, describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Injectable,
  type MiddlewareConsumer,
  Module,
  NestFactory,
  type NestMiddleware,
  type NestMiddlewareRequest,
  type NestMiddlewareResponse,
  Post,
  RequestMethod,
  type StrataApp,
} from "../../src/index.js";

/** Every handler run, so a test can show the handler did not run. */
const handled: Array<string> = [];
/** What `"finish"` listeners and outer middleware saw. */
const seen: Array<string> = [];

type Next = (error?: unknown) => void;

@Injectable()
class MaintenanceMiddleware implements NestMiddleware {
  use(_req: NestMiddlewareRequest, res: NestMiddlewareResponse, _next: Next) {
    res.on("finish", () => seen.push(`finish ${res.statusCode}`));
    res.setHeader("Retry-After", 120);
    res.status(503).json({ message: "Down for maintenance" });
  }
}

/** Outer: sets a header, goes on, and sees what the inner middleware answered. */
const outer = (_req: NestMiddlewareRequest, res: NestMiddlewareResponse, next: Next) => {
  res.setHeader("x-outer", "1");
  res.on("finish", () => seen.push(`outer saw ${res.statusCode} sent=${res.headersSent}`));
  next();
};

@Controller()
class PagesController {
  @Get("text")
  text() {
    handled.push("text");
    return "from handler";
  }

  @Get("object")
  object() {
    handled.push("object");
    return "from handler";
  }

  @Get("bytes")
  bytes() {
    handled.push("bytes");
    return "from handler";
  }

  @Post("created")
  created() {
    handled.push("created");
    return "from handler";
  }

  @Get("typed")
  typed() {
    handled.push("typed");
    return "from handler";
  }

  @Get("empty")
  empty() {
    handled.push("empty");
    return "from handler";
  }

  @Get("maintenance")
  maintenance() {
    handled.push("maintenance");
    return "from handler";
  }

  @Get("async")
  async() {
    handled.push("async");
    return "from handler";
  }

  @Get("conditional")
  conditional() {
    handled.push("conditional");
    return "from handler";
  }

  @Get("status-code")
  statusCode() {
    handled.push("status-code");
    return "from handler";
  }
}

@Module({ controllers: [PagesController] })
class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(outer).forRoutes("*");
    consumer
      .apply((_req: NestMiddlewareRequest, res: NestMiddlewareResponse) =>
        res.send("from middleware"),
      )
      .forRoutes("text");
    consumer
      .apply((_req: NestMiddlewareRequest, res: NestMiddlewareResponse) =>
        res.send({ from: "middleware", n: 1 }),
      )
      .forRoutes("object");
    consumer
      .apply((_req: NestMiddlewareRequest, res: NestMiddlewareResponse) =>
        res.send(Buffer.from([0, 1, 2, 255])),
      )
      .forRoutes("bytes");
    consumer
      .apply((_req: NestMiddlewareRequest, res: NestMiddlewareResponse) =>
        res.status(201).end("made by middleware"),
      )
      .forRoutes({ path: "created", method: RequestMethod.POST });
    consumer
      .apply((_req: NestMiddlewareRequest, res: NestMiddlewareResponse) => {
        res.set({ "Content-Type": "text/plain; charset=utf-8", "X-Source": "middleware" });
        res.header("x-seen-type", String(res.getHeader("content-type")));
        res.end("plain text");
      })
      .forRoutes("typed");
    consumer
      .apply((_req: NestMiddlewareRequest, res: NestMiddlewareResponse) => res.status(204).end())
      .forRoutes("empty");
    consumer.apply(MaintenanceMiddleware).forRoutes("maintenance");
    consumer
      .apply(async (_req: NestMiddlewareRequest, res: NestMiddlewareResponse) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        res.send("answered later");
      })
      .forRoutes("async");
    consumer
      .apply((req: NestMiddlewareRequest, res: NestMiddlewareResponse, next: Next) => {
        if (req.get("x-block") === "yes") {
          res.status(403).send({ message: "blocked" });
          // Express ignores what comes after the answer: so does Strata.
          next();
          return;
        }
        next();
      })
      .forRoutes("conditional");
    consumer
      .apply((_req: NestMiddlewareRequest, res: NestMiddlewareResponse) => {
        res.statusCode = 202;
        res.send("accepted");
      })
      .forRoutes("status-code");
  }
}

describe("a NestJS middleware answers the request itself, as in Express", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    handled.length = 0;
    seen.length = 0;
  });

  const start = async () => {
    const app = await NestFactory.create(AppModule);
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    return app.getUrl();
  };

  it("res.send(string) answers text/html with the string, and the handler does not run", async () => {
    const base = await start();
    const response = await fetch(`${base}/text`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("from middleware");
    expect(handled).toEqual([]);
  });

  it("res.send(object) answers JSON", async () => {
    const base = await start();
    const response = await fetch(`${base}/object`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ from: "middleware", n: 1 });
    expect(handled).toEqual([]);
  });

  it("res.send(Buffer) answers the bytes as application/octet-stream", async () => {
    const base = await start();
    const response = await fetch(`${base}/bytes`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0, 1, 2, 255]);
    expect(handled).toEqual([]);
  });

  it("res.status(201).end(text) answers 201 with the text and no content type", async () => {
    const base = await start();
    const response = await fetch(`${base}/created`, { method: "POST" });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBeNull();
    expect(await response.text()).toBe("made by middleware");
    expect(handled).toEqual([]);
  });

  it("headers set with set/header/setHeader are on the answer; a Content-Type set wins; getHeader reads them", async () => {
    const base = await start();
    const response = await fetch(`${base}/typed`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("x-source")).toBe("middleware");
    expect(response.headers.get("x-seen-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("plain text");
    expect(handled).toEqual([]);
  });

  it("res.status(204).end() answers with an empty body", async () => {
    const base = await start();
    const response = await fetch(`${base}/empty`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(handled).toEqual([]);
  });

  it("a class middleware answers status(503).json(...) with its header; outer middleware and finish listeners see the answer", async () => {
    const base = await start();
    const response = await fetch(`${base}/maintenance`);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("120");
    expect(response.headers.get("x-outer")).toBe("1");
    expect(await response.json()).toEqual({ message: "Down for maintenance" });
    expect(handled).toEqual([]);
    expect(seen).toEqual(["finish 503", "outer saw 503 sent=true"]);
  });

  it("an async middleware answers after awaiting", async () => {
    const base = await start();
    const response = await fetch(`${base}/async`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("answered later");
    expect(handled).toEqual([]);
  });

  it("only the answer counts: next() after it does not run the handler; without it, next() goes on", async () => {
    const base = await start();
    const blocked = await fetch(`${base}/conditional`, { headers: { "x-block": "yes" } });
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toEqual({ message: "blocked" });
    expect(handled).toEqual([]);
    const passed = await fetch(`${base}/conditional`);
    expect(passed.status).toBe(200);
    expect(await passed.text()).toBe("from handler");
    expect(handled).toEqual(["conditional"]);
  });

  it("assigning res.statusCode sets the answer's status", async () => {
    const base = await start();
    const response = await fetch(`${base}/status-code`);
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("accepted");
    expect(handled).toEqual([]);
  });
});
