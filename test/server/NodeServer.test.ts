import { createHash } from "node:crypto";
import * as http from "node:http";
import * as net from "node:net";
import * as HttpApp from "@effect/platform/HttpApp";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServer from "@effect/platform/HttpServer";
import * as HttpServerError from "@effect/platform/HttpServerError";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Layer from "effect/Layer";
import * as Scope from "effect/Scope";
import * as Stream from "effect/Stream";
import { StrataServer } from "../../src/effect/index.js";
import * as FastRouter from "../../src/server/internal/FastRouter.js";
import * as NodeServer from "../../src/server/internal/NodeServer.js";
import { NodeServerRequest } from "../../src/server/internal/NodeServerRequest.js";
import { makeRouter } from "../../src/server/internal/ServeRouter.js";

// ---------------------------------------------------------------------------------------------
// Server and client helpers: real loopback traffic, every wait bounded.
// ---------------------------------------------------------------------------------------------

/** Routes as `HttpLayerRouter` builds them: they need the router (and phantom request types). */
type Routes<E> = Layer.Layer<never, E, unknown>;

/** Serves `routes` on Strata's node server at a free loopback port, in `scope`. */
const listenIn = <E>(
  scope: Scope.Scope,
  routes: Routes<E>,
  options?: StrataServer.ServeOptions,
  shutdownTimeout?: number,
) =>
  Effect.gen(function* () {
    const context = yield* Layer.buildWithScope(
      StrataServer.serve(routes as Layer.Layer<never, E, HttpLayerRouter.HttpRouter>, options).pipe(
        Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1", shutdownTimeout })),
      ),
      scope,
    );
    const { address } = Context.get(context, HttpServer.HttpServer);
    if (address._tag !== "TcpAddress") return yield* Effect.die("expected a TCP address");
    expect(address.hostname).toBe("127.0.0.1");
    return address.port;
  });

/** Serves `routes` on Strata's node server at a free loopback port, for the test's scope. */
const listen = <E>(routes: Routes<E>, options?: StrataServer.ServeOptions) =>
  Effect.flatMap(Effect.scope, (scope) => listenIn(scope, routes, options));

/**
 * Serves `routes` in a scope of its own. `stop` starts closing it, so the server drains (within
 * `shutdownTimeout` ms) while the test goes on: it returns the closing fiber once the port
 * refuses connections. The test's scope closes it too, at the latest.
 */
const listenStoppable = <E>(routes: Routes<E>, shutdownTimeout = 5_000) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make();
    yield* Effect.addFinalizer(() => Scope.close(scope, Exit.void));
    const port = yield* listenIn(scope, routes, undefined, shutdownTimeout);
    const stop = Effect.zipLeft(Effect.fork(Scope.close(scope, Exit.void)), refusing(port));
    return { port, stop };
  });

/** Whether Strata's router keeps its fast path for `routes` (no platform middleware added). */
const fastPathEligible = <E>(routes: Routes<E>) =>
  Effect.gen(function* () {
    const context = yield* Layer.build(
      (routes as Layer.Layer<never, E, HttpLayerRouter.HttpRouter>).pipe(
        Layer.provideMerge(Layer.effect(HttpLayerRouter.HttpRouter, makeRouter({}))),
      ),
    );
    const router = Context.get(context, HttpLayerRouter.HttpRouter);
    expect(FastRouter.isFastRouter(router)).toBe(true);
    return FastRouter.isFastRouter(router) && router[FastRouter.FastRoutesId].eligible();
  });

/** Rejects after `ms`: no test waits on the network unbounded. */
const bounded = <A>(ms: number, what: string, run: (signal: AbortSignal) => Promise<A>) =>
  Effect.promise(() => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`timed out after ${ms} ms: ${what}`));
      }, ms);
    });
    return Promise.race([run(controller.signal), timeout]).finally(() => clearTimeout(timer));
  });

interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
  readonly reusedSocket: boolean;
  readonly socket: net.Socket;
}

interface SendInit {
  readonly method?: string;
  readonly headers?: http.OutgoingHttpHeaders;
  readonly body?: string | Buffer;
  readonly agent?: http.Agent | false;
}

/** One request through node's http client, the whole response read. */
const send = (port: number, path: string, init: SendInit = {}) =>
  bounded(
    5_000,
    `${init.method ?? "GET"} ${path}`,
    (signal) =>
      new Promise<Reply>((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port,
            path,
            method: init.method ?? "GET",
            headers: init.headers,
            agent: init.agent ?? false,
            signal,
          },
          (res) => {
            const chunks: Array<Buffer> = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("error", reject);
            res.on("end", () => {
              const body = Buffer.concat(chunks);
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body,
                text: body.toString("utf8"),
                reusedSocket: req.reusedSocket,
                socket: req.socket as net.Socket,
              });
            });
          },
        );
        req.on("error", reject);
        req.end(init.body);
      }),
  );

/** Writes `data` on a raw socket and reads until the server closes the connection. */
const rawExchange = (port: number, data: string) =>
  bounded(
    5_000,
    "raw exchange",
    (signal) =>
      new Promise<Buffer>((resolve, reject) => {
        const socket = net.connect({ host: "127.0.0.1", port, signal });
        const chunks: Array<Buffer> = [];
        socket.on("data", (chunk) => chunks.push(chunk));
        socket.on("error", reject);
        socket.on("end", () => {
          socket.destroy();
          resolve(Buffer.concat(chunks));
        });
        socket.on("connect", () => socket.write(data));
      }),
  );

interface RawResponse {
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

/** Splits a byte stream of HTTP/1.1 responses (content-length or chunked bodies). */
const parseResponses = (bytes: Buffer): Array<RawResponse> => {
  const responses: Array<RawResponse> = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf("\r\n\r\n", at);
    if (headEnd < 0) throw new Error(`incomplete head: ${bytes.subarray(at).toString()}`);
    const [statusLine = "", ...lines] = bytes
      .subarray(at, headEnd)
      .toString("latin1")
      .split("\r\n");
    const status = Number(statusLine.split(" ")[1]);
    const headers = lines.map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    });
    const header = (name: string) => headers.find(([key]) => key === name)?.[1];
    at = headEnd + 4;
    let body: Buffer;
    if (header("transfer-encoding") === "chunked") {
      const parts: Array<Buffer> = [];
      for (;;) {
        const lineEnd = bytes.indexOf("\r\n", at);
        const size = Number.parseInt(bytes.subarray(at, lineEnd).toString(), 16);
        at = lineEnd + 2;
        if (size === 0) {
          at += 2;
          break;
        }
        parts.push(bytes.subarray(at, at + size));
        at += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(header("content-length") ?? 0);
      body = bytes.subarray(at, at + length);
      at += length;
    }
    responses.push({ status, headers, body: body.toString("utf8") });
  }
  return responses;
};

/** Polls `check` every 10 ms until it holds, failing after `ms`. */
const eventually = (what: string, check: () => boolean, ms = 2_000) =>
  bounded(
    ms,
    what,
    (signal) =>
      new Promise<void>((resolve) => {
        const poll = () => {
          if (check()) resolve();
          else if (!signal.aborted) setTimeout(poll, 10);
        };
        poll();
      }),
  );

const sleep = (ms: number) => Effect.promise(() => new Promise((r) => setTimeout(r, ms)));

/** Waits until `port` refuses connections: the server has begun to stop. */
const refusing = (port: number) =>
  bounded(
    2_000,
    "the server stops listening",
    (signal) =>
      new Promise<void>((resolve) => {
        const attempt = () => {
          if (signal.aborted) return;
          const probe = net.connect({ host: "127.0.0.1", port });
          probe.on("connect", () => {
            probe.destroy();
            setTimeout(attempt, 5);
          });
          probe.on("error", () => resolve());
        };
        attempt();
      }),
  );

/** A raw connection whose every byte is kept, closed with the test's scope. */
const rawConnection = (port: number) =>
  Effect.gen(function* () {
    const socket = net.connect({ host: "127.0.0.1", port });
    yield* Effect.addFinalizer(() => Effect.sync(() => socket.destroy()));
    const chunks: Array<Buffer> = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    const closed = new Promise<Buffer>((resolve) =>
      socket.once("close", () => resolve(Buffer.concat(chunks))),
    );
    return {
      socket,
      /** What has arrived so far. */
      received: () => Buffer.concat(chunks).toString("latin1"),
      /** Everything received, once the connection has closed. */
      closed: bounded(5_000, "the connection closes", () => closed),
    };
  });

const notFoundBody = JSON.stringify({ statusCode: 404, message: "Not Found" });
const internalErrorBody = JSON.stringify({ statusCode: 500, message: "Internal Server Error" });

// ---------------------------------------------------------------------------------------------

describe("Strata's node server", () => {
  describe("connections", () => {
    const routes = Layer.mergeAll(
      HttpLayerRouter.add("GET", "/ping", HttpServerResponse.text("pong")),
      HttpLayerRouter.add(
        "GET",
        "/n/:n",
        Effect.map(HttpLayerRouter.params, ({ n }) => HttpServerResponse.text(`n=${n}`)),
      ),
    );

    it.scopedLive("serves 20 sequential requests over one kept-alive connection", () =>
      Effect.gen(function* () {
        const port = yield* listen(routes);
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        yield* Effect.addFinalizer(() => Effect.sync(() => agent.destroy()));
        const sockets = new Set<net.Socket>();
        for (let i = 0; i < 20; i++) {
          const reply = yield* send(port, `/n/${i}`, { agent });
          expect(reply.status).toBe(200);
          expect(reply.text).toBe(`n=${i}`);
          expect(reply.headers["content-type"]).toBe("text/plain");
          expect(reply.headers["content-length"]).toBe(String(`n=${i}`.length));
          expect(reply.headers.connection).toBe("keep-alive");
          expect(reply.reusedSocket).toBe(i > 0);
          sockets.add(reply.socket);
        }
        expect(sockets.size).toBe(1);
      }),
    );

    it.scopedLive("answers three pipelined requests, sent in one write, in order", () =>
      Effect.gen(function* () {
        const port = yield* listen(routes);
        const bytes = yield* rawExchange(
          port,
          "GET /n/1 HTTP/1.1\r\nHost: localhost\r\n\r\n" +
            "GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n" +
            "GET /n/3 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        );
        const responses = parseResponses(bytes);
        expect(responses.map(({ status, body }) => ({ status, body }))).toEqual([
          { status: 200, body: "n=1" },
          { status: 200, body: "pong" },
          { status: 200, body: "n=3" },
        ]);
        for (const response of responses) {
          expect(response.headers).toContainEqual(["content-type", "text/plain"]);
          expect(response.headers).toContainEqual(["content-length", String(response.body.length)]);
        }
      }),
    );

    it.scopedLive("answers 200 concurrent requests to an async route", () =>
      Effect.gen(function* () {
        const port = yield* listen(
          HttpLayerRouter.add(
            "GET",
            "/slow/:n",
            Effect.gen(function* () {
              const { n } = yield* HttpLayerRouter.params;
              yield* Effect.sleep("5 millis");
              return HttpServerResponse.unsafeJson({ n: Number(n) });
            }),
          ),
        );
        const agent = new http.Agent({ keepAlive: true });
        yield* Effect.addFinalizer(() => Effect.sync(() => agent.destroy()));
        const replies = yield* Effect.forEach(
          Array.from({ length: 200 }, (_, i) => i),
          (i) => send(port, `/slow/${i}`, { agent }),
          { concurrency: "unbounded" },
        );
        replies.forEach((reply, i) => {
          expect(reply.status).toBe(200);
          expect(reply.headers["content-type"]).toBe("application/json");
          expect(JSON.parse(reply.text)).toEqual({ n: i });
        });
      }),
    );
  });

  describe("bodies", () => {
    it.scopedLive("reads a chunked upload of several MB, as a stream and as text", () =>
      Effect.gen(function* () {
        /** How the body came: chunked, without a content-length. */
        const framingOf = (request: HttpServerRequest.HttpServerRequest) =>
          `${request.headers["transfer-encoding"]}/${request.headers["content-length"]}`;
        const port = yield* listen(
          Layer.mergeAll(
            HttpLayerRouter.add(
              "POST",
              "/count",
              Effect.gen(function* () {
                const request = yield* HttpServerRequest.HttpServerRequest;
                const hash = createHash("sha256");
                const bytes = yield* Stream.runFold(request.stream, 0, (n, chunk) => {
                  hash.update(chunk);
                  return n + chunk.length;
                });
                return HttpServerResponse.unsafeJson({
                  framing: framingOf(request),
                  bytes,
                  sha256: hash.digest("hex"),
                });
              }),
            ),
            HttpLayerRouter.add(
              "POST",
              "/text",
              Effect.gen(function* () {
                const request = yield* HttpServerRequest.HttpServerRequest;
                const text = yield* request.text;
                const sha256 = createHash("sha256").update(text).digest("hex");
                return HttpServerResponse.unsafeJson({
                  framing: framingOf(request),
                  length: text.length,
                  sha256,
                });
              }),
            ),
          ),
        );
        // 6 MB in 96 chunks of 64 KiB, each chunk distinct; no content-length, so chunked.
        const chunks = Array.from({ length: 96 }, (_, i) =>
          Buffer.alloc(64 * 1024, String.fromCharCode(97 + (i % 26))),
        );
        const whole = Buffer.concat(chunks);
        const sha256 = createHash("sha256").update(whole).digest("hex");
        const upload = (path: string) =>
          bounded(
            5_000,
            `upload ${path}`,
            (signal) =>
              new Promise<{ status: number; body: unknown }>((resolve, reject) => {
                const req = http.request(
                  { host: "127.0.0.1", port, path, method: "POST", agent: false, signal },
                  (res) => {
                    let text = "";
                    res.setEncoding("utf8");
                    res.on("data", (chunk: string) => {
                      text += chunk;
                    });
                    res.on("end", () =>
                      resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }),
                    );
                  },
                );
                req.on("error", reject);
                let i = 0;
                const writeMore = () => {
                  while (i < chunks.length) {
                    if (!req.write(chunks[i++])) return void req.once("drain", writeMore);
                  }
                  req.end();
                };
                writeMore();
              }),
          );

        const counted = yield* upload("/count");
        expect(counted).toEqual({
          status: 200,
          body: { framing: "chunked/undefined", bytes: whole.length, sha256 },
        });
        const read = yield* upload("/text");
        expect(read).toEqual({
          status: 200,
          body: { framing: "chunked/undefined", length: whole.length, sha256 },
        });
      }),
    );

    it.scopedLive(
      "streams a 16 MB response with backpressure: a paused client holds the producer",
      () =>
        Effect.gen(function* () {
          const chunkSize = 64 * 1024;
          const chunkCount = 256;
          const chunkAt = (i: number) => {
            const chunk = Buffer.alloc(chunkSize, i & 0xff);
            chunk.writeUInt32BE(i, 0);
            return chunk;
          };
          let emitted = 0;
          const port = yield* listen(
            HttpLayerRouter.add(
              "GET",
              "/big",
              HttpServerResponse.stream(
                Stream.range(0, chunkCount - 1, 1).pipe(
                  Stream.map((i) => {
                    emitted++;
                    return new Uint8Array(chunkAt(i));
                  }),
                ),
                { contentType: "application/octet-stream" },
              ),
            ),
          );
          const result = yield* bounded(
            8_000,
            "16 MB download",
            (signal) =>
              new Promise<{
                status: number;
                headers: http.IncomingHttpHeaders;
                body: Buffer;
                pausedAt: number;
                emittedWhilePaused: ReadonlyArray<number>;
              }>((resolve, reject) => {
                const req = http.get(
                  { host: "127.0.0.1", port, path: "/big", agent: false, signal },
                  (res) => {
                    const chunks: Array<Buffer> = [];
                    let received = 0;
                    let pausedAt = -1;
                    const emittedWhilePaused: Array<number> = [];
                    res.on("data", (chunk: Buffer) => {
                      chunks.push(chunk);
                      received += chunk.length;
                      if (pausedAt < 0 && received >= 256 * 1024) {
                        pausedAt = received;
                        res.pause();
                        // Let the server fill every buffer between it and the paused client.
                        setTimeout(() => {
                          emittedWhilePaused.push(emitted);
                          setTimeout(() => {
                            emittedWhilePaused.push(emitted);
                            res.resume();
                          }, 250);
                        }, 250);
                      }
                    });
                    res.on("error", reject);
                    res.on("end", () =>
                      resolve({
                        status: res.statusCode ?? 0,
                        headers: res.headers,
                        body: Buffer.concat(chunks),
                        pausedAt,
                        emittedWhilePaused,
                      }),
                    );
                  },
                );
                req.on("error", reject);
              }),
          );
          expect(result.status).toBe(200);
          expect(result.headers["content-type"]).toBe("application/octet-stream");
          expect(result.headers["transfer-encoding"]).toBe("chunked");
          expect(result.body.length).toBe(chunkSize * chunkCount);
          const expected = Buffer.concat(Array.from({ length: chunkCount }, (_, i) => chunkAt(i)));
          expect(result.body.equals(expected)).toBe(true);
          expect(emitted).toBe(chunkCount);
          // While the client was paused the producer was held: the same count 250 ms apart, and
          // not the whole stream. What it had produced beyond what the client had read sits in
          // node's and the kernel's socket buffers (a few MB on loopback; well under 12 MB).
          const [first = chunkCount, second] = result.emittedWhilePaused;
          expect(second).toBe(first);
          expect(first).toBeLessThan(chunkCount);
          expect(first * chunkSize - result.pausedAt).toBeLessThan(12 * 1024 * 1024);
        }),
    );

    it.scopedLive("answers HEAD on a GET route with its headers and no body", () =>
      Effect.gen(function* () {
        const port = yield* listen(
          HttpLayerRouter.add(
            "GET",
            "/doc",
            HttpServerResponse.text("hello, world").pipe(
              HttpServerResponse.setHeader("x-doc", "yes"),
            ),
          ),
        );
        const get = yield* send(port, "/doc");
        expect(get.status).toBe(200);
        expect(get.text).toBe("hello, world");
        const head = yield* send(port, "/doc", { method: "HEAD" });
        expect(head.status).toBe(200);
        expect(head.headers["content-length"]).toBe("12");
        expect(head.headers["content-type"]).toBe("text/plain");
        expect(head.headers["x-doc"]).toBe("yes");
        expect(head.body.length).toBe(0);
        // On the wire: the head, and nothing after it (the next response follows directly).
        const bytes = yield* rawExchange(
          port,
          "HEAD /doc HTTP/1.1\r\nHost: localhost\r\n\r\n" +
            "GET /doc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        );
        const text = bytes.toString("latin1");
        const [headPart = "", getPart = ""] = text.split(/(?=HTTP\/1\.1 )/);
        expect(headPart).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
        expect(headPart).toContain("\r\ncontent-length: 12\r\n");
        expect(headPart.endsWith("\r\n\r\n")).toBe(true);
        expect(getPart.endsWith("\r\n\r\nhello, world")).toBe(true);
      }),
    );
  });

  describe("routing", () => {
    it.scopedLive("answers 404 in the standard shape for an unknown route or a wrong method", () =>
      Effect.gen(function* () {
        const port = yield* listen(
          HttpLayerRouter.add("GET", "/only-get", HttpServerResponse.text("ok")),
        );
        for (const [method, path] of [
          ["GET", "/nowhere"],
          ["POST", "/only-get"],
          ["DELETE", "/only-get"],
        ] as const) {
          const reply = yield* send(port, path, { method, body: method === "POST" ? "x" : "" });
          expect(reply.status, `${method} ${path}`).toBe(404);
          expect(reply.headers["content-type"]).toBe("application/json");
          expect(reply.text).toBe(notFoundBody);
        }
        expect((yield* send(port, "/only-get")).text).toBe("ok");
      }),
    );

    const echo = (label: string) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest;
        const params = yield* HttpLayerRouter.params;
        const query = yield* HttpServerRequest.ParsedSearchParams;
        return HttpServerResponse.unsafeJson({
          label,
          url: request.url,
          originalUrl: request.originalUrl,
          params,
          query,
        });
      });

    const prefixedRoutes = Layer.mergeAll(
      HttpLayerRouter.addAll(
        [
          HttpLayerRouter.route("GET", "/items/:id", echo("addAll")),
          HttpLayerRouter.route("GET", "/", echo("addAll-root")),
        ],
        { prefix: "/api" },
      ),
      HttpLayerRouter.use((router) =>
        router.prefixed("/v2").add("GET", "/users/:id", echo("prefixed")),
      ),
    );

    const prefixedCases = [
      {
        path: "/api/items/7?x=1&x=2",
        expected: {
          label: "addAll",
          url: "/items/7?x=1&x=2",
          originalUrl: "/api/items/7?x=1&x=2",
          params: { id: "7" },
          query: { x: ["1", "2"] },
        },
      },
      {
        path: "/api",
        expected: { label: "addAll-root", url: "/", originalUrl: "/api", params: {}, query: {} },
      },
      {
        path: "/v2/users/ada?q=1",
        expected: {
          label: "prefixed",
          url: "/users/ada?q=1",
          originalUrl: "/v2/users/ada?q=1",
          params: { id: "ada" },
          query: { q: "1" },
        },
      },
    ];

    it.scopedLive("strips route prefixes from the URL the handler sees, as the stock router", () =>
      Effect.gen(function* () {
        expect(yield* fastPathEligible(prefixedRoutes)).toBe(true);
        const fast = yield* listen(prefixedRoutes);
        // With tracing on, Strata's server dispatches through the stock HttpLayerRouter.
        const stock = yield* listen(prefixedRoutes, { tracing: true });
        for (const { path, expected } of prefixedCases) {
          const viaFast = yield* send(fast, path);
          const viaStock = yield* send(stock, path);
          expect(viaFast.status, path).toBe(200);
          expect(JSON.parse(viaFast.text), path).toEqual(expected);
          expect(viaStock.status, path).toBe(200);
          expect(JSON.parse(viaStock.text), path).toEqual(expected);
        }
        expect((yield* send(fast, "/items/7")).status).toBe(404);
        expect((yield* send(stock, "/items/7")).status).toBe(404);
      }),
    );

    it.scopedLive("runs route middleware (falling back to the stock dispatch)", () =>
      Effect.gen(function* () {
        const tagged = HttpLayerRouter.middleware((effect) =>
          Effect.map(effect, HttpServerResponse.setHeader("x-route-middleware", "yes")),
        );
        const routes = Layer.mergeAll(
          HttpLayerRouter.add("GET", "/plain", HttpServerResponse.text("plain")),
          HttpLayerRouter.add("GET", "/tagged", HttpServerResponse.text("tagged")).pipe(
            Layer.provide(tagged.layer),
          ),
        );
        expect(yield* fastPathEligible(routes)).toBe(false);
        const port = yield* listen(routes);
        const taggedReply = yield* send(port, "/tagged");
        expect(taggedReply.status).toBe(200);
        expect(taggedReply.text).toBe("tagged");
        expect(taggedReply.headers["x-route-middleware"]).toBe("yes");
        const plain = yield* send(port, "/plain");
        expect(plain.status).toBe(200);
        expect(plain.text).toBe("plain");
        expect(plain.headers["x-route-middleware"]).toBeUndefined();
        const missing = yield* send(port, "/missing");
        expect(missing.status).toBe(404);
        expect(missing.text).toBe(notFoundBody);
      }),
    );

    it.scopedLive("runs global middleware (falling back to the stock dispatch)", () =>
      Effect.gen(function* () {
        const viaUse = HttpLayerRouter.use((router) =>
          router.addGlobalMiddleware((effect) =>
            Effect.map(effect, HttpServerResponse.setHeader("x-global", "yes")),
          ),
        );
        const viaMiddleware = HttpLayerRouter.middleware(
          (effect) => Effect.map(effect, HttpServerResponse.setHeader("x-global-2", "yes")),
          { global: true },
        );
        const plain = HttpLayerRouter.add("GET", "/a", HttpServerResponse.text("a"));
        expect(yield* fastPathEligible(Layer.merge(plain, viaUse))).toBe(false);
        expect(yield* fastPathEligible(Layer.merge(plain, viaMiddleware))).toBe(false);
        const port = yield* listen(Layer.mergeAll(plain, viaUse, viaMiddleware));
        const reply = yield* send(port, "/a");
        expect(reply.status).toBe(200);
        expect(reply.text).toBe("a");
        expect(reply.headers["x-global"]).toBe("yes");
        expect(reply.headers["x-global-2"]).toBe("yes");
      }),
    );

    it.scopedLive("serves correctly with tracing on (stock dispatch)", () =>
      Effect.gen(function* () {
        const port = yield* listen(
          Layer.mergeAll(
            HttpLayerRouter.add(
              "GET",
              "/hello/:name",
              Effect.map(HttpLayerRouter.params, ({ name }) =>
                HttpServerResponse.unsafeJson({ hello: name }),
              ),
            ),
            HttpLayerRouter.add("GET", "/boom", Effect.die(new Error("secret internals"))),
          ),
          { tracing: true },
        );
        const hello = yield* send(port, "/hello/ada");
        expect(hello.status).toBe(200);
        expect(hello.headers["content-type"]).toBe("application/json");
        expect(hello.text).toBe('{"hello":"ada"}');
        const head = yield* send(port, "/hello/ada", { method: "HEAD" });
        expect(head.status).toBe(200);
        expect(head.headers["content-length"]).toBe(String(hello.body.length));
        expect(head.body.length).toBe(0);
        const boom = yield* send(port, "/boom");
        expect(boom.status).toBe(500);
        expect(boom.text).toBe(internalErrorBody);
        const missing = yield* send(port, "/missing");
        expect(missing.status).toBe(404);
        expect(missing.text).toBe(notFoundBody);
      }),
    );
  });

  describe("startup", () => {
    it.scopedLive("answers a request that arrives before the app is served, once it is", () =>
      Effect.gen(function* () {
        const server = yield* NodeServer.make({ port: 0, host: "127.0.0.1" });
        if (server.address._tag !== "TcpAddress") return yield* Effect.die("expected TCP");
        const pending = yield* Effect.fork(send(server.address.port, "/early"));
        yield* sleep(50);
        expect(pending.unsafePoll()).toBeNull();
        yield* server.serve(Effect.succeed(HttpServerResponse.text("served")));
        const reply = yield* Fiber.join(pending);
        expect(reply.status).toBe(200);
        expect(reply.text).toBe("served");
      }),
    );

    it.scopedLive("drops a request that arrived before serve when its client has gone", () =>
      Effect.gen(function* () {
        let started = 0;
        const server = yield* NodeServer.make({ port: 0, host: "127.0.0.1" });
        if (server.address._tag !== "TcpAddress") return yield* Effect.die("expected TCP");
        const socket = net.connect({ host: "127.0.0.1", port: server.address.port });
        yield* Effect.addFinalizer(() => Effect.sync(() => socket.destroy()));
        socket.write("GET /early HTTP/1.1\r\nHost: localhost\r\n\r\n");
        yield* sleep(50);
        socket.destroy();
        yield* sleep(20);
        yield* server.serve(
          Effect.zipRight(
            Effect.sync(() => {
              started++;
            }),
            Effect.never,
          ),
        );
        yield* sleep(50);
        expect(started).toBe(0);
      }),
    );
  });

  describe("request lifecycle", () => {
    it.scopedLive("interrupts the handler and runs its finalizers when the client aborts", () =>
      Effect.gen(function* () {
        let started = 0;
        let interrupted = 0;
        let scopeExit: Exit.Exit<unknown, unknown> | undefined;
        const port = yield* listen(
          HttpLayerRouter.add(
            "GET",
            "/forever",
            Effect.gen(function* () {
              yield* Effect.addFinalizer((exit) =>
                Effect.sync(() => {
                  scopeExit = exit;
                }),
              );
              started++;
              return yield* Effect.never;
            }).pipe(
              Effect.onInterrupt(() =>
                Effect.sync(() => {
                  interrupted++;
                }),
              ),
            ),
          ),
        );
        const socket = net.connect({ host: "127.0.0.1", port });
        yield* Effect.addFinalizer(() => Effect.sync(() => socket.destroy()));
        socket.write("GET /forever HTTP/1.1\r\nHost: localhost\r\n\r\n");
        yield* eventually("the handler starts", () => started === 1);
        yield* sleep(20);
        expect(interrupted).toBe(0);
        expect(scopeExit).toBeUndefined();
        socket.destroy();
        yield* eventually("the handler is interrupted", () => interrupted === 1);
        yield* eventually("the request scope is closed", () => scopeExit !== undefined);
        expect(scopeExit !== undefined && Exit.isInterrupted(scopeExit)).toBe(true);
        expect(started).toBe(1);
      }),
    );

    it.scopedLive("stops producing a streamed response when the client aborts mid-way", () =>
      Effect.gen(function* () {
        const limit = 16 * 1024;
        let emitted = 0;
        let released = false;
        const port = yield* listen(
          HttpLayerRouter.add(
            "GET",
            "/endless",
            HttpServerResponse.stream(
              // 1 GiB if it ran to its end (bounded, so a regression fails rather than hangs).
              Stream.repeatEffect(
                Effect.sync(() => {
                  emitted++;
                  return new Uint8Array(64 * 1024);
                }),
              ).pipe(
                Stream.take(limit),
                Stream.ensuring(
                  Effect.sync(() => {
                    released = true;
                  }),
                ),
              ),
            ),
          ),
        );
        const socket = net.connect({ host: "127.0.0.1", port });
        yield* Effect.addFinalizer(() => Effect.sync(() => socket.destroy()));
        let received = 0;
        socket.on("data", (chunk) => {
          received += chunk.length;
        });
        socket.write("GET /endless HTTP/1.1\r\nHost: localhost\r\n\r\n");
        yield* eventually("1 MB arrives", () => received > 1024 * 1024);
        socket.destroy();
        yield* eventually("the stream is released", () => released);
        const after = emitted;
        yield* sleep(50);
        expect(emitted).toBe(after);
        expect(emitted).toBeLessThan(limit);
      }),
    );

    it.scopedLive("runs request-scope finalizers after the response is written", () =>
      Effect.gen(function* () {
        const events: Array<string> = [];
        const port = yield* listen(
          HttpLayerRouter.add(
            "GET",
            "/scoped",
            Effect.gen(function* () {
              const request = yield* HttpServerRequest.HttpServerRequest;
              if (!(request instanceof NodeServerRequest)) return yield* Effect.die("not node");
              const { response } = request;
              yield* Effect.addFinalizer((exit) =>
                Effect.sync(() =>
                  events.push(`finalizer: ${exit._tag}, response ended: ${response.writableEnded}`),
                ),
              );
              events.push("handler");
              return HttpServerResponse.text("scoped");
            }),
          ),
        );
        const reply = yield* send(port, "/scoped");
        expect(reply.status).toBe(200);
        expect(reply.text).toBe("scoped");
        yield* eventually("the finalizer runs", () => events.length === 2);
        expect(events).toEqual(["handler", "finalizer: Success, response ended: true"]);
      }),
    );

    it.scopedLive("closes the scopes forked from the request scope that are still open", () =>
      Effect.gen(function* () {
        const events: Array<string> = [];
        const port = yield* listen(
          HttpLayerRouter.add(
            "GET",
            "/forked-scopes",
            Effect.gen(function* () {
              const scope = yield* Effect.scope;
              // Closed before the response: the request scope is left with nothing to run.
              const closed = yield* Scope.fork(scope, ExecutionStrategy.sequential);
              yield* Scope.addFinalizerExit(closed, (exit) =>
                Effect.sync(() => events.push(`closed early: ${exit._tag}`)),
              );
              yield* Scope.close(closed, Exit.void);
              const open = yield* Scope.fork(scope, ExecutionStrategy.sequential);
              yield* Scope.addFinalizerExit(open, (exit) =>
                Effect.sync(() => events.push(`closed with the request: ${exit._tag}`)),
              );
              events.push("handler");
              return HttpServerResponse.text(String(events.length));
            }),
          ),
        );
        const reply = yield* send(port, "/forked-scopes");
        expect(reply.status).toBe(200);
        expect(reply.text).toBe("2");
        yield* eventually("the open scope is closed", () => events.length === 3);
        expect(events).toEqual([
          "closed early: Success",
          "handler",
          "closed with the request: Success",
        ]);
        // With only the early one: closed at once, nothing left to run.
        const again = yield* send(port, "/forked-scopes");
        expect(again.status).toBe(200);
        yield* eventually("the second request's scope is closed", () => events.length === 6);
      }),
    );

    it.scopedLive(
      "closes a request scope left empty with a success: work added to it after the response runs at once",
      () =>
        Effect.gen(function* () {
          const scopes: Array<Scope.Scope> = [];
          const port = yield* listen(
            HttpLayerRouter.add(
              "GET",
              "/keep-scope",
              Effect.map(Effect.scope, (scope) => {
                scopes.push(scope);
                return HttpServerResponse.text("kept");
              }),
            ),
          );
          for (const _ of [1, 2]) {
            const reply = yield* send(port, "/keep-scope");
            expect(reply.status).toBe(200);
            expect(reply.text).toBe("kept");
          }
          expect(scopes).toHaveLength(2);
          expect(scopes[0]).not.toBe(scopes[1]);
          for (const scope of scopes) {
            const exits: Array<Exit.Exit<unknown, unknown>> = [];
            yield* Scope.addFinalizer(
              scope,
              Effect.sync(() => exits.push(Exit.void)),
            );
            yield* Scope.addFinalizerExit(scope, (exit) => Effect.sync(() => exits.push(exit)));
            expect(exits).toEqual([Exit.void, Exit.void]);
            // A scope forked from a closed one is closed with the same exit.
            const child = yield* Scope.fork(scope, ExecutionStrategy.sequential);
            const childExits: Array<Exit.Exit<unknown, unknown>> = [];
            yield* Scope.addFinalizerExit(child, (exit) =>
              Effect.sync(() => childExits.push(exit)),
            );
            expect(childExits).toEqual([Exit.void]);
          }
        }),
    );

    it.scopedLive(
      "answers a failing pre-response handler in the standard shape and closes the request scope",
      () =>
        Effect.gen(function* () {
          const exits: Array<string> = [];
          const failingWith = (
            failure: () => Effect.Effect<never, HttpServerError.ResponseError>,
          ) =>
            Effect.gen(function* () {
              yield* Effect.addFinalizer((exit) => Effect.sync(() => exits.push(exit._tag)));
              yield* HttpApp.appendPreResponseHandler(failure);
              return HttpServerResponse.text("unseen");
            });
          const port = yield* listen(
            HttpLayerRouter.add(
              "GET",
              "/refused",
              Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
                failingWith(() =>
                  Effect.fail(
                    new HttpServerError.ResponseError({
                      request,
                      response: HttpServerResponse.empty(),
                      reason: "Decode",
                      description: "secret detail",
                    }),
                  ),
                ),
              ),
            ).pipe(
              Layer.merge(
                HttpLayerRouter.add(
                  "GET",
                  "/broken",
                  failingWith(() => Effect.die("broken")),
                ),
              ),
              // A handler that throws instead of returning an Effect.
              Layer.merge(
                HttpLayerRouter.add(
                  "GET",
                  "/throws",
                  failingWith(() => {
                    throw new Error("thrown secret");
                  }),
                ),
              ),
            ),
          );
          const refused = yield* send(port, "/refused");
          expect(refused.status).toBe(500);
          expect(refused.text).toBe(internalErrorBody);
          const broken = yield* send(port, "/broken");
          expect(broken.status).toBe(500);
          expect(broken.text).toBe(internalErrorBody);
          expect(broken.text).not.toContain("broken");
          const thrown = yield* send(port, "/throws");
          expect(thrown.status).toBe(500);
          expect(thrown.text).toBe(internalErrorBody);
          yield* eventually("every request scope is closed", () => exits.length === 3);
          expect(exits).toEqual(["Success", "Success", "Success"]);
        }),
    );

    for (const abort of ["before", "while"] as const) {
      it.scopedLive(
        `waits, when stopping, for the finalizers of a request aborted ${abort} it stops`,
        () =>
          Effect.gen(function* () {
            let started = false;
            let finalized = false;
            const { port, stop } = yield* listenStoppable(
              HttpLayerRouter.add(
                "GET",
                "/held",
                Effect.gen(function* () {
                  yield* Effect.addFinalizer(() =>
                    Effect.delay(
                      Effect.sync(() => {
                        finalized = true;
                      }),
                      "150 millis",
                    ),
                  );
                  started = true;
                  return yield* Effect.never;
                }),
              ),
            );
            const socket = net.connect({ host: "127.0.0.1", port });
            yield* Effect.addFinalizer(() => Effect.sync(() => socket.destroy()));
            socket.write("GET /held HTTP/1.1\r\nHost: localhost\r\n\r\n");
            yield* eventually("the handler starts", () => started);
            if (abort === "before") {
              socket.destroy();
              yield* sleep(20);
              expect(finalized).toBe(false);
            }
            const stopping = yield* stop;
            if (abort === "while") socket.destroy();
            yield* Fiber.join(stopping);
            expect(finalized).toBe(true);
          }),
      );
    }

    it.scopedLive("applies a pre-response handler appended by the route", () =>
      Effect.gen(function* () {
        const port = yield* listen(
          HttpLayerRouter.add(
            "GET",
            "/pre",
            Effect.gen(function* () {
              yield* HttpApp.appendPreResponseHandler((request, response) =>
                Effect.succeed(
                  HttpServerResponse.setHeader(response, "x-pre-response", `seen ${request.url}`),
                ),
              );
              return HttpServerResponse.text("pre");
            }),
          ).pipe(
            Layer.merge(HttpLayerRouter.add("GET", "/plain", HttpServerResponse.text("plain"))),
          ),
        );
        for (let i = 0; i < 2; i++) {
          const reply = yield* send(port, "/pre");
          expect(reply.status).toBe(200);
          expect(reply.text).toBe("pre");
          expect(reply.headers["x-pre-response"]).toBe("seen /pre");
        }
        // The handler belonged to those requests only.
        const plain = yield* send(port, "/plain");
        expect(plain.text).toBe("plain");
        expect(plain.headers["x-pre-response"]).toBeUndefined();
      }),
    );

    it.scopedLive("answers 500 for a header with CR/LF, injects nothing and keeps serving", () =>
      Effect.gen(function* () {
        const routes = Layer.mergeAll(
          HttpLayerRouter.add(
            "GET",
            "/split",
            HttpServerResponse.text("never sent").pipe(
              HttpServerResponse.setHeader("x-bad", "a\r\nset-cookie: evil=1\r\n\r\ninjected"),
            ),
          ),
          HttpLayerRouter.add("GET", "/ok", HttpServerResponse.text("ok")),
        );
        for (const options of [{}, { tracing: true }]) {
          const port = yield* listen(routes, options);
          const bytes = yield* rawExchange(
            port,
            "GET /split HTTP/1.1\r\nHost: localhost\r\n\r\n" +
              "GET /ok HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
          );
          expect(bytes.toString("latin1")).not.toMatch(/evil|injected|never sent|x-bad/i);
          const [split, ok, ...rest] = parseResponses(bytes);
          expect(rest).toEqual([]);
          expect(split?.status).toBe(500);
          expect(split?.headers).toContainEqual(["content-type", "application/json"]);
          expect(split?.body).toBe(internalErrorBody);
          expect(ok).toMatchObject({ status: 200, body: "ok" });
          const again = yield* send(port, "/ok");
          expect(again.status).toBe(200);
          expect(again.text).toBe("ok");
        }
      }),
    );
  });

  describe("stopping", () => {
    /** 32 MB in one buffer: more than loopback's socket buffers hold for a reader that waits. */
    const bigSize = 32 * 1024 * 1024;

    /** `GET /big` answers {@link bigSize} bytes; `response()` is the node response of the last one. */
    const bigRoute = () => {
      const body = new Uint8Array(bigSize).fill(0x61);
      let response: http.ServerResponse | undefined;
      const route = HttpLayerRouter.add(
        "GET",
        "/big",
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest;
          if (!(request instanceof NodeServerRequest)) return yield* Effect.die("not node");
          response = request.response;
          return HttpServerResponse.uint8Array(body);
        }),
      );
      /** Waits until the response has ended with its bytes still queued in node for the reader. */
      const queued = eventually(
        "the response is ended, its bytes still queued",
        () => response?.writableEnded === true && (response.socket?.writableLength ?? 0) > 0,
      );
      return { route, queued };
    };

    /** `GET /held/:id` answers `held :id` once `release` is done, `GET /ping` at once: both counted. */
    const heldRoutes = (release: Deferred.Deferred<void>) => {
      let held = 0;
      let pinged = 0;
      const routes = Layer.merge(
        HttpLayerRouter.add(
          "GET",
          "/held/:id",
          Effect.gen(function* () {
            const { id } = yield* HttpLayerRouter.params;
            held++;
            yield* Deferred.await(release);
            return HttpServerResponse.text(`held ${id}`);
          }),
        ),
        HttpLayerRouter.add(
          "GET",
          "/ping",
          Effect.sync(() => {
            pinged++;
            return HttpServerResponse.text("pong");
          }),
        ),
      );
      return { routes, held: () => held, pinged: () => pinged };
    };

    const header = (response: RawResponse | undefined, name: string) =>
      response?.headers.find(([key]) => key === name)?.[1];

    it.scopedLive("delivers a whole response still queued for a slow reader when it stops", () =>
      Effect.gen(function* () {
        const big = bigRoute();
        const { port, stop } = yield* listenStoppable(big.route);
        const client = yield* rawConnection(port);
        client.socket.pause();
        client.socket.write("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n");
        yield* big.queued;
        const stopping = yield* stop;
        client.socket.resume();
        const [reply, ...rest] = parseResponses(yield* client.closed);
        expect(rest).toEqual([]);
        expect(reply?.status).toBe(200);
        expect(reply?.body.length).toBe(bigSize);
        expect(reply?.body).toBe("a".repeat(bigSize));
        yield* Fiber.join(stopping);
      }),
    );

    it.scopedLive("completes a response still streaming when it stops", () =>
      Effect.gen(function* () {
        const release = yield* Deferred.make<void>();
        const encoder = new TextEncoder();
        const { port, stop } = yield* listenStoppable(
          HttpLayerRouter.add(
            "GET",
            "/stream",
            HttpServerResponse.stream(
              Stream.concat(
                Stream.make("first;"),
                Stream.unwrap(
                  Effect.as(
                    Deferred.await(release),
                    Stream.map(Stream.range(0, 99), (i) => `chunk ${i};`),
                  ),
                ),
              ).pipe(Stream.map((text) => encoder.encode(text))),
            ),
          ),
        );
        const client = yield* rawConnection(port);
        client.socket.write("GET /stream HTTP/1.1\r\nHost: localhost\r\n\r\n");
        yield* eventually("the first chunk arrives", () => client.received().includes("first;"));
        const stopping = yield* stop;
        yield* Deferred.succeed(release, undefined);
        const [reply, ...rest] = parseResponses(yield* client.closed);
        expect(rest).toEqual([]);
        expect(reply?.status).toBe(200);
        expect(reply?.body).toBe(
          `first;${Array.from({ length: 100 }, (_, i) => `chunk ${i};`).join("")}`,
        );
        yield* Fiber.join(stopping);
      }),
    );

    it.scopedLive("answers Connection: close to a kept-alive connection's in-flight request", () =>
      Effect.gen(function* () {
        const release = yield* Deferred.make<void>();
        const server = heldRoutes(release);
        const { port, stop } = yield* listenStoppable(server.routes);
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        yield* Effect.addFinalizer(() => Effect.sync(() => agent.destroy()));
        expect((yield* send(port, "/ping", { agent })).headers.connection).toBe("keep-alive");
        const inFlight = yield* Effect.fork(send(port, "/held/1", { agent }));
        yield* eventually("the request is in flight", () => server.held() === 1);
        const stopping = yield* stop;
        yield* Deferred.succeed(release, undefined);
        const reply = yield* Fiber.join(inFlight);
        expect(reply.status).toBe(200);
        expect(reply.text).toBe("held 1");
        expect(reply.reusedSocket).toBe(true);
        expect(reply.headers.connection).toBe("close");
        yield* Fiber.join(stopping);
      }),
    );

    it.scopedLive(
      "answers requests pipelined behind in-flight ones, the last with Connection: close",
      () =>
        Effect.gen(function* () {
          const release = yield* Deferred.make<void>();
          const server = heldRoutes(release);
          const { port, stop } = yield* listenStoppable(server.routes);
          const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
          // Two held requests pipelined.
          const twoHeld = yield* rawConnection(port);
          twoHeld.socket.write(get("/held/1") + get("/held/2"));
          // A held request, and one answered at once but queued behind it (its head is written).
          const answered = yield* rawConnection(port);
          answered.socket.write(get("/held/3") + get("/ping"));
          // A held request, and one that arrives while the server drains.
          const late = yield* rawConnection(port);
          late.socket.write(get("/held/4"));
          yield* eventually("the requests are in flight", () => server.held() === 4);
          const stopping = yield* stop;
          late.socket.write(get("/ping"));
          yield* eventually("the late request arrives", () => server.pinged() === 2);
          yield* Deferred.succeed(release, undefined);
          const replies = (bytes: Buffer) =>
            parseResponses(bytes).map((r) => [r.body, header(r, "connection")]);
          expect(replies(yield* twoHeld.closed)).toEqual([
            ["held 1", "keep-alive"],
            ["held 2", "close"],
          ]);
          expect(replies(yield* answered.closed)).toEqual([
            ["held 3", "keep-alive"],
            ["pong", "keep-alive"],
          ]);
          expect(replies(yield* late.closed)).toEqual([
            ["held 4", "keep-alive"],
            ["pong", "close"],
          ]);
          yield* Fiber.join(stopping);
        }),
    );

    it.scopedLive("closes idle kept-alive connections at once, the rest at the deadline", () =>
      Effect.gen(function* () {
        const big = bigRoute();
        const { port, stop } = yield* listenStoppable(
          Layer.merge(
            big.route,
            HttpLayerRouter.add("GET", "/ping", HttpServerResponse.text("pong")),
          ),
          300,
        );
        const agent = new http.Agent({ keepAlive: true });
        yield* Effect.addFinalizer(() => Effect.sync(() => agent.destroy()));
        const idle = (yield* send(port, "/ping", { agent })).socket;
        const idleClosed = new Promise((resolve) => idle.once("close", resolve));
        // A reader that never reads holds the drain until the deadline.
        const stalled = yield* rawConnection(port);
        stalled.socket.pause();
        stalled.socket.write("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n");
        yield* big.queued;
        const stopping = yield* stop;
        yield* bounded(2_000, "the idle connection closes", () => idleClosed);
        expect(stopping.unsafePoll()).toBeNull();
        yield* bounded(2_000, "the server stops at the deadline", () =>
          Effect.runPromise(Fiber.join(stopping)),
        );
        stalled.socket.resume();
        const [cut] = parseResponses(yield* stalled.closed);
        expect(cut?.status).toBe(200);
        expect(cut?.body.length).toBeLessThan(bigSize);
      }),
    );
  });
});
