import { Agent, request as httpRequest } from "node:http";
import { createConnection } from "node:net";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServer from "@effect/platform/HttpServer";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Scope from "effect/Scope";
import { describe, expect, it } from "vitest";
import { Health, StrataServer } from "../../src/effect/index.js";
import {
  Controller,
  Get,
  HealthCheckManager,
  Injectable,
  jsonResponse,
  Module,
  type OnModuleDestroy,
  Param,
  ShutdownManager,
  StrataApp,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { capturingLogger } from "../support/started.js";

const log: Array<string> = [];
let started = 0;

@Injectable()
class Store implements OnModuleDestroy {
  onModuleDestroy() {
    log.push("destroy Store");
  }
}

@Controller()
class SlowController {
  constructor(readonly store: Store) {}
  @Get("slow")
  async slow() {
    started++;
    await new Promise((resolve) => setTimeout(resolve, 200));
    log.push("request done");
    return { done: true };
  }
  @Get("fast")
  fast() {
    return { fast: true };
  }
}

@Module({ controllers: [SlowController], providers: [Store] })
class AppModule {}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

/** Held requests wait until the test opens the gate. */
const gate: { held: number; opened: Promise<void>; open: () => void } = {
  held: 0,
  opened: Promise.resolve(),
  open: () => undefined,
};
const closeGate = () => {
  gate.held = 0;
  gate.opened = new Promise((resolve) => {
    gate.open = resolve;
  });
};

@Controller("held")
class HeldController {
  @Get(":id")
  async held(@Param("id") id: string) {
    gate.held++;
    await gate.opened;
    return { held: id };
  }
}

@Module({ controllers: [HeldController] })
class HeldModule {}

/** Resolves once `port` refuses connections: the server has begun to drain. */
const refusing = async (port: number) => {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = createConnection({ host: "127.0.0.1", port });
      probe.on("connect", () => {
        probe.destroy();
        resolve(false);
      });
      probe.on("error", () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** A raw connection; `responses` are those it received, once it has closed. */
const connect = (port: number) => {
  const socket = createConnection({ host: "127.0.0.1", port });
  let received = "";
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  const responses = new Promise<Array<{ head: string; body: unknown }>>((resolve) =>
    socket.once("close", () =>
      resolve(
        received
          .split(/(?=HTTP\/1\.1 )/)
          .map((part) => part.split("\r\n\r\n"))
          .map(([head = "", body = ""]) => ({ head, body: JSON.parse(body) })),
      ),
    ),
  );
  return { socket, responses };
};

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

/** A GET over a keep-alive agent; resolves with the status and the Connection header. */
const keepAliveGet = (agent: Agent, url: string) =>
  new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    httpRequest(url, { agent }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
      );
    })
      .on("error", reject)
      .end();
  });

describe("ShutdownManager and app.close()", () => {
  it("finishes in-flight requests, then runs the handlers in order, then the destroy hooks", async () => {
    log.length = 0;
    started = 0;
    const app = new StrataApp(AppModule, { shutdown: { signals: false } });
    app.shutdownManager.register((signal) => {
      log.push(`handler 1 (${signal})`);
    });
    app.shutdownManager.register(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      log.push("handler 2");
    });
    app.shutdownManager.register(() => Effect.sync(() => log.push("handler 3")));
    await app.listen(0, "127.0.0.1");
    const responses = Array.from({ length: 5 }, () => request(app, "GET", "/slow"));
    await until(() => started === 5);
    const closing = app.close();
    expect(app.close()).toBe(closing);
    const answers = await Promise.all(responses);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await closing;
    expect(log).toEqual([
      ...Array.from({ length: 5 }, () => "request done"),
      "handler 1 (undefined)",
      "handler 2",
      "handler 3",
      "destroy Store",
    ]);
  });

  it("logs a failing or overrunning handler and runs the others", async () => {
    log.length = 0;
    const { logger, lines } = capturingLogger();
    const app = new StrataApp(AppModule, { logger, shutdown: { signals: false, timeout: 100 } });
    app.shutdownManager.register(() => {
      throw new Error("flush failed");
    });
    app.shutdownManager.register(() => new Promise<void>(() => undefined));
    app.shutdownManager.register(() => {
      log.push("last handler");
    });
    await app.init();
    const began = Date.now();
    await app.close();
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(log).toEqual(["last handler", "destroy Store"]);
    const errors = lines.filter((line) => line.level === "ERROR").map((line) => line.message);
    expect(errors).toEqual(["Shutdown handler #1 failed", "Shutdown handler #2 failed"]);
    expect(lines.some((line) => line.text.includes("did not finish within 100 ms"))).toBe(true);
  });

  it("serves requests arriving on open connections while draining (Connection: close), drops idle ones", async () => {
    started = 0;
    const app = new StrataApp(AppModule, { shutdown: { signals: false } });
    await app.listen(0, "127.0.0.1");
    const { port } = new URL(app.getUrl());
    const agent = new Agent({ keepAlive: true });
    expect((await keepAliveGet(agent, `${app.getUrl()}/fast`)).connection).toBe("keep-alive");
    // A second request on the busy connection, sent once the app has begun to shut down.
    const socket = createConnection({ host: "127.0.0.1", port: Number(port) });
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString();
    });
    const ended = new Promise((resolve) => socket.once("close", resolve));
    socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    await until(() => started === 1);
    const began = Date.now();
    const closing = app.close();
    socket.write("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n");
    await closing;
    await ended;
    // The idle keep-alive connection did not hold the shutdown for its keep-alive timeout.
    expect(Date.now() - began).toBeLessThan(1_500);
    const responses = received.split(/(?=HTTP\/1\.1 )/);
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200[\s\S]*"done":true/);
    expect(responses[1]).toMatch(/^HTTP\/1\.1 200[\s\S]*[Cc]onnection: close[\s\S]*"fast":true/);
    agent.destroy();
  });

  it("answers a first request arriving just after the drain began on a connection opened before it (Connection: close); a connection that never sends is closed after a short grace", async () => {
    const app = new StrataApp(AppModule, { shutdown: { signals: false } });
    await app.listen(0, "127.0.0.1");
    const port = Number(new URL(app.getUrl()).port);
    // Connected, nothing sent yet: as a connection node:cluster's primary has just handed over.
    const late = connect(port);
    const silent = createConnection({ host: "127.0.0.1", port });
    let silentReceived = "";
    silent.on("data", (chunk: Buffer) => {
      silentReceived += chunk.toString();
    });
    // The server may close it with a reset: an outcome, not an error of the test.
    silent.on("error", () => undefined);
    late.socket.on("error", () => undefined);
    const silentClosed = new Promise((resolve) => silent.once("close", resolve));
    await Promise.all(
      [late.socket, silent].map(
        (socket) => new Promise((resolve) => socket.once("connect", resolve)),
      ),
    );
    const began = Date.now();
    const closing = app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    late.socket.write(get("/fast"));
    const [answer] = await late.responses;
    expect(answer?.head).toMatch(/^HTTP\/1\.1 200[\s\S]*[Cc]onnection: close/);
    expect(answer?.body).toEqual({ fast: true });
    await silentClosed;
    expect(silentReceived).toBe("");
    await closing;
    expect(Date.now() - began).toBeLessThan(1_500);
  });

  it("answers /ready 503 and /health 200 on connections still open while it drains", async () => {
    closeGate();
    const seen: Array<string> = [];
    const app = new StrataApp(HeldModule, {
      shutdown: { signals: false },
      middleware: (inner) =>
        Effect.zipRight(
          Effect.map(HttpServerRequest.HttpServerRequest, (request) => seen.push(request.url)),
          inner,
        ),
    });
    app.healthCheckManager.register({ name: "database", check: () => true });
    await app.listen(0, "127.0.0.1");
    const url = app.getUrl();
    const port = Number(new URL(url).port);
    // A kept-alive connection, opened before the shutdown, holds a request that holds the drain.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await keepAliveGet(agent, `${url}/ready`)).toEqual({
      status: 200,
      connection: "keep-alive",
    });
    const inFlight = keepAliveGet(agent, `${url}/held/0`);
    // Two more connections with a request in flight, to send the probes on while it drains.
    const forReady = connect(port);
    const forHealth = connect(port);
    forReady.socket.write(get("/held/1"));
    forHealth.socket.write(get("/held/2"));
    await until(() => gate.held === 3);
    expect(app.shutdownManager.isShuttingDown).toBe(false);
    const closing = app.close();
    expect(app.shutdownManager.isShuttingDown).toBe(true);
    await refusing(port);
    forReady.socket.write(get("/ready"));
    forHealth.socket.write(get("/health"));
    await until(() => seen.includes("/ready") && seen.includes("/health"));
    gate.open();
    // The kept-alive connection's last response tells the client not to reuse it.
    expect(await inFlight).toEqual({ status: 200, connection: "close" });
    const [held1, ready] = await forReady.responses;
    expect(held1?.head).toMatch(/^HTTP\/1\.1 200[\s\S]*[Cc]onnection: keep-alive/);
    expect(held1?.body).toEqual({ held: "1" });
    expect(ready?.head).toMatch(/^HTTP\/1\.1 503[\s\S]*[Cc]onnection: close/);
    expect(ready?.head).toMatch(/[Cc]ache-[Cc]ontrol: no-store/);
    expect(ready?.body).toEqual({
      status: "down",
      checks: [{ name: "shutdown", status: "down", details: { error: "Shutting down" } }],
    });
    const [, health] = await forHealth.responses;
    expect(health?.head).toMatch(/^HTTP\/1\.1 200[\s\S]*[Cc]onnection: close/);
    expect(health?.body).toEqual({ status: "up" });
    await closing;
    agent.destroy();
  });

  it("interrupts what is still running at the deadline", async () => {
    const { logger } = capturingLogger();
    const app = new StrataApp(AppModule, { logger, shutdown: { signals: false, timeout: 50 } });
    await app.listen(0, "127.0.0.1");
    const slow = request(app, "GET", "/slow").then(
      () => "answered",
      () => "cut",
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const began = Date.now();
    await app.close();
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(await slow).toBe("cut");
  });
});

describe("StrataServer.layerNode({ shutdown }), the Effect face", () => {
  it("answers /ready 503 while it drains, then runs the manager's handlers", async () => {
    closeGate();
    const shutdown = new ShutdownManager();
    const handled: Array<string> = [];
    shutdown.register(() => {
      handled.push(`handler, ${gate.held} held`);
    });
    const health = new HealthCheckManager(shutdown);
    const held = HttpLayerRouter.add(
      "GET",
      "/held",
      Effect.promise(async () => {
        gate.held++;
        await gate.opened;
        return jsonResponse({ released: true });
      }),
    );
    const scope = Effect.runSync(Scope.make());
    const context = await Effect.runPromise(
      Layer.buildWithScope(
        StrataServer.serve(Layer.mergeAll(Health.routes(health), held)).pipe(
          Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1", shutdown })),
        ),
        scope,
      ),
    );
    const { address } = Context.get(context, HttpServer.HttpServer);
    const port = address._tag === "TcpAddress" ? address.port : 0;
    const probe = await fetch(`http://127.0.0.1:${port}/ready`);
    expect(probe.status).toBe(200);
    const busy = connect(port);
    busy.socket.write(get("/held"));
    await until(() => gate.held === 1);
    expect(shutdown.isShuttingDown).toBe(false);
    const closing = Effect.runPromise(Scope.close(scope, Exit.void));
    await until(() => shutdown.isShuttingDown);
    await refusing(port);
    busy.socket.write(get("/ready"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handled).toEqual([]);
    gate.open();
    await closing;
    const [released, ready] = await busy.responses;
    expect(released?.body).toEqual({ released: true });
    expect(ready?.head).toMatch(/^HTTP\/1\.1 503[\s\S]*[Cc]onnection: close/);
    expect(ready?.body).toEqual({
      status: "down",
      checks: [{ name: "shutdown", status: "down", details: { error: "Shutting down" } }],
    });
    expect(handled).toEqual(["handler, 1 held"]);
  });
});
