import * as http from "node:http";
import { finalize, interval, map } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { Controller, Module, NestFactory, Sse, type StrataApp } from "../../src/index.js";

const produced = { count: 0, tornDown: 0 };

@Controller("clock")
class ClockController {
  @Sse("events")
  events() {
    return interval(20).pipe(
      map((n) => {
        produced.count++;
        return { data: { n } };
      }),
      finalize(() => produced.tornDown++),
    );
  }
}

@Module({ controllers: [ClockController] })
class AppModule {}

/** An open SSE stream over real HTTP: the events received, and when it ended. */
const openStream = (url: string) =>
  new Promise<{ readonly chunks: Array<string>; readonly ended: Promise<void> }>(
    (resolve, reject) => {
      const chunks: Array<string> = [];
      const req = http.get(url, (res) => {
        const ended = new Promise<void>((done) => {
          res.once("close", () => done());
          res.once("error", () => done());
        });
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          chunks.push(chunk);
          if (chunks.length === 1) resolve({ chunks, ended });
        });
      });
      req.on("error", (error) => {
        if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
      });
    },
  );

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("app.close() with an open SSE stream", () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it("forceCloseConnections: true closes the stream at once and stops its Observable", async () => {
    const app = await NestFactory.create(AppModule, {
      forceCloseConnections: true,
      shutdown: { signals: false },
    });
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    const stream = await openStream(`${await app.getUrl()}/clock/events`);
    const tornDown = produced.tornDown;
    const started = Date.now();
    await app.close();
    const took = Date.now() - started;
    // The default drain would wait 10 s (shutdown.timeout) for the stream to end.
    expect(took).toBeLessThan(2_000);
    await stream.ended;
    await expect.poll(() => produced.tornDown, { timeout: 1_000 }).toBe(tornDown + 1);
    const after = produced.count;
    const received = stream.chunks.length;
    await settle(150);
    expect(produced.count).toBe(after);
    expect(stream.chunks.length).toBe(received);
  });

  it("without it, the stream is ended at the shutdown timeout and its Observable stopped", async () => {
    const app = await NestFactory.create(AppModule, {
      shutdown: { timeout: 300, signals: false },
    });
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    const stream = await openStream(`${await app.getUrl()}/clock/events`);
    const tornDown = produced.tornDown;
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    await stream.ended;
    await expect.poll(() => produced.tornDown, { timeout: 1_000 }).toBe(tornDown + 1);
    const after = produced.count;
    await settle(150);
    expect(produced.count).toBe(after);
  });
});
