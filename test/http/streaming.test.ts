import { createReadStream, readFileSync } from "node:fs";
import * as http from "node:http";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { finalize, interval, map, Observable, of, take } from "rxjs";
import { describe, expect, it } from "vitest";
import {
  All,
  type CallHandler,
  Controller,
  type ExecutionContext,
  Get,
  Header,
  Injectable,
  type MessageEvent,
  Module,
  type NestInterceptor,
  NotFoundException,
  Req,
  type RequestContext,
  Sse,
  StreamableFile,
  UseInterceptors,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

/** Maps each event's data, as an interceptor of an SSE route sees the Observable. */
@Injectable()
class UpperCase implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next
      .handle()
      .pipe(map((event) => ({ data: String((event as MessageEvent).data).toUpperCase() })));
  }
}

const teardown = { count: 0 };

@Controller("stream")
class StreamController {
  @Get("missing")
  missing() {
    return new StreamableFile(createReadStream("/nonexistent/secret-dir/report.csv"));
  }

  @Get("file")
  file() {
    return new StreamableFile(createReadStream(fileURLToPath(import.meta.url)));
  }

  @Get("buffer")
  buffer() {
    return new StreamableFile(Buffer.from("binary bytes"));
  }

  @Get("readable")
  readable() {
    return new StreamableFile(Readable.from(["a,b\n", "1,2\n"]), {
      type: "text/csv",
      disposition: 'attachment; filename="table.csv"',
      length: 8,
    });
  }

  @Get("typed")
  @Header("Content-Type", "application/json")
  typed() {
    return new StreamableFile(Buffer.from('{"ok":true}'), { type: "text/plain" });
  }

  @Get("split")
  split() {
    return new StreamableFile(Buffer.from("x"), { disposition: "attachment\r\nSet-Cookie: a=b" });
  }

  @Sse("events")
  events(): Observable<MessageEvent> {
    return interval(5).pipe(
      take(3),
      map((n) => ({ data: { n } })),
    );
  }

  @Sse("typed-events")
  typedEvents() {
    const events: ReadonlyArray<MessageEvent> = [
      { data: "line one\nline two", type: "greeting", id: "a", retry: 1000 },
      { comment: "just a comment" },
      { data: "plain" },
    ];
    return of(...events);
  }

  @Sse("mapped")
  @UseInterceptors(UpperCase)
  mapped() {
    return of({ data: "a" }, { data: "b" });
  }

  @Sse("async")
  async asyncEvents() {
    return of({ data: "later" });
  }

  @Sse("failing/:kind")
  failing(@Req() req: RequestContext) {
    const error =
      req.params.kind === "http" ? new NotFoundException("Gone away") : new Error("secret detail");
    return new Observable<MessageEvent>((subscriber) => {
      subscriber.next({ data: "first" });
      subscriber.error(error);
    });
  }

  @Sse("not-observable")
  notObservable() {
    return { data: "not a stream" };
  }

  @Sse("endless")
  endless() {
    return interval(10).pipe(
      map((n) => ({ data: { n } })),
      finalize(() => teardown.count++),
    );
  }

  @All("any")
  any(@Req() req: RequestContext) {
    return { method: req.method };
  }
}

@Module({ controllers: [StreamController] })
class AppModule {}

describe("StreamableFile", () => {
  const app = listeningApp(AppModule);

  it("sends a Buffer as application/octet-stream with its length", async () => {
    const res = await request(app, "GET", "/stream/buffer");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-length")).toBe("12");
    expect(res.text).toBe("binary bytes");
  });

  it("streams a Readable with its type, disposition and length", async () => {
    const res = await request(app, "GET", "/stream/readable");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="table.csv"');
    expect(res.headers.get("content-length")).toBe("8");
    expect(res.text).toBe("a,b\n1,2\n");
  });

  it("a file stream that cannot be opened answers 400 in the standard shape (no path), and the app serves on", async () => {
    const missing = await request(app, "GET", "/stream/missing");
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text)).toEqual({
      statusCode: 400,
      message: "The file could not be read",
    });
    expect(missing.text).not.toContain("secret-dir");
    const file = await request(app, "GET", "/stream/file");
    expect(file.status).toBe(200);
    expect(file.text).toBe(readFileSync(fileURLToPath(import.meta.url), "utf8"));
  });

  it("lets @Header() win over its type", async () => {
    const res = await request(app, "GET", "/stream/typed");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({ ok: true });
  });

  it("check 24: a disposition with CR/LF is a 500, not a split response", async () => {
    const res = await request(app, "GET", "/stream/split");
    expect(res.status).toBe(500);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.body).toMatchObject({ statusCode: 500, message: "Internal Server Error" });
  });
});

describe("@Sse()", () => {
  const app = listeningApp(AppModule);

  it("streams an Observable of MessageEvents as text/event-stream, numbered from 1", async () => {
    const res = await request(app, "GET", "/stream/events");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("cache-control")).toBe(
      "private, no-cache, no-store, must-revalidate, max-age=0, no-transform",
    );
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.text).toBe(
      'id: 1\ndata: {"n":0}\n\nid: 2\ndata: {"n":1}\n\nid: 3\ndata: {"n":2}\n\n',
    );
  });

  it("writes type, id, retry, comments and multi-line data as the event-stream format says, numbering only events without an id", async () => {
    expect((await request(app, "GET", "/stream/typed-events")).text).toBe(
      "event: greeting\nid: a\nretry: 1000\ndata: line one\ndata: line two\n\n" +
        ": just a comment\n\n" +
        "id: 1\ndata: plain\n\n",
    );
  });

  it("lets interceptors map each event, and awaits a Promise of the Observable", async () => {
    expect((await request(app, "GET", "/stream/mapped")).text).toBe(
      "id: 1\ndata: A\n\nid: 2\ndata: B\n\n",
    );
    expect((await request(app, "GET", "/stream/async")).text).toBe("id: 1\ndata: later\n\n");
  });

  it("ends with an error event: an HttpError's message, nothing of another error", async () => {
    expect((await request(app, "GET", "/stream/failing/http")).text).toBe(
      "id: 1\ndata: first\n\nevent: error\nid: 2\ndata: Gone away\n\n",
    );
    const other = await request(app, "GET", "/stream/failing/other");
    expect(other.text).toBe(
      "id: 1\ndata: first\n\nevent: error\nid: 2\ndata: Internal Server Error\n\n",
    );
    expect(other.text).not.toContain("secret");
  });

  it("answers 500 when the handler returns no Observable", async () => {
    expect(await request(app, "GET", "/stream/not-observable")).toMatchObject({
      status: 500,
      body: { statusCode: 500, message: "Internal Server Error" },
    });
  });

  it("unsubscribes when the client leaves", async () => {
    const before = teardown.count;
    const url = new URL(`${app.getUrl()}/stream/endless`);
    await new Promise<void>((resolve, reject) => {
      const req = http.get(url, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", (error) => {
        if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
      });
    });
    await expect.poll(() => teardown.count, { timeout: 2000 }).toBe(before + 1);
  });
});

describe("@All()", () => {
  const app = listeningApp(AppModule);

  it("answers every method", async () => {
    for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH"]) {
      expect(await request(app, method, "/stream/any")).toMatchObject({
        status: 200,
        body: { method },
      });
    }
  });
});
