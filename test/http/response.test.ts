import { describe, expect, it } from "vitest";
import {
  Controller,
  Get,
  Header,
  HttpCode,
  Module,
  NotFoundError,
  Post,
  Redirect,
  Res,
  StartupError,
  StrataApp,
  StrataResponse,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Controller("res")
class ManualController {
  @Get("json")
  json(@Res() res: StrataResponse) {
    res.status(202).setHeader("X-Manual", "yes");
    res.header("Cache-Control", 5);
    res.json({ manual: true, header: res.getHeader("x-manual") ?? null });
    return { ignored: true };
  }

  @Get("send-text")
  sendText(@Res() res: StrataResponse) {
    res.status(200).send("plain words");
  }

  @Get("send-html")
  sendHtml(@Res() res: StrataResponse) {
    res.setHeader("Content-Type", "text/html; charset=utf-8").send("<p>hi</p>");
  }

  @Get("send-object")
  sendObject(@Res() res: StrataResponse) {
    res.status(418).send({ teapot: true });
  }

  @Get("send-bytes")
  sendBytes(@Res() res: StrataResponse) {
    res.setHeader("content-type", "application/octet-stream");
    res.send(new Uint8Array([1, 2, 3]));
  }

  @Get("end")
  end(@Res() res: StrataResponse) {
    res.status(204).end();
    return "ignored";
  }

  @Post("default-status")
  defaultStatus(@Res() res: StrataResponse) {
    res.json({ status: res.statusCode });
  }

  @Get("redirect")
  redirect(@Res() res: StrataResponse) {
    res.redirect("/elsewhere");
  }

  @Get("redirect-301")
  redirect301(@Res() res: StrataResponse) {
    res.redirect("https://example.com/new", 301);
  }

  @Get("later")
  async later(@Res() res: StrataResponse) {
    await sleep(20);
    res.status(207).setHeader("X-Late", "1").json({ later: true });
    return { ignored: true };
  }

  @Get("callback")
  callback(@Res() res: StrataResponse) {
    setTimeout(() => res.json({ fromCallback: true }), 20);
  }

  @Get("throws-after-header")
  throwsAfterHeader(@Res() res: StrataResponse) {
    res.setHeader("X-Before", "1");
    throw new NotFoundError("Nothing here");
  }

  @Get("split")
  split(@Res() res: StrataResponse) {
    res.setHeader("X-Evil", "a\r\nSet-Cookie: stolen=1");
    res.json({ unreachable: true });
  }

  @Get("split-lf")
  async splitLf(@Res() res: StrataResponse) {
    await sleep(1);
    res.setHeader("X-Evil", "a\nb");
    res.json({ unreachable: true });
  }

  @Get("split-name")
  splitName(@Res() res: StrataResponse) {
    res.setHeader("X-Evil\r\nSet-Cookie", "x");
    res.json({ unreachable: true });
  }

  @Get("split-redirect")
  splitRedirect(@Res() res: StrataResponse) {
    res.redirect("/ok\r\nSet-Cookie: stolen=1");
  }
}

@Controller("deco")
class DecoratedController {
  @Get("code")
  @HttpCode(203)
  code() {
    return { code: 203 };
  }

  @Post("no-content")
  @HttpCode(204)
  noContent() {
    return undefined;
  }

  @Post("ok")
  @HttpCode(200)
  ok() {
    return { ok: true };
  }

  @Get("headers")
  @Header("X-One", "1")
  @Header("X-Two", "two")
  @Header("Cache-Control", "no-store")
  headers() {
    return { headers: true };
  }

  @Get("headers-text")
  @Header("Content-Language", "en")
  @HttpCode(202)
  headersText() {
    return "text";
  }

  @Get("headers-error")
  @Header("X-One", "1")
  headersError() {
    throw new NotFoundError();
  }

  @Get("redirect")
  @Redirect("https://example.com/target")
  redirect() {}

  @Get("redirect-301")
  @Redirect("/moved", 301)
  redirect301() {
    return { not: "an override" };
  }

  @Get("redirect-override")
  @Redirect("/default", 301)
  redirectOverride() {
    return { url: "/overridden", statusCode: 307 };
  }

  @Get("redirect-override-url")
  @Redirect("/default", 308)
  async redirectOverrideUrl() {
    return { url: "/only-url" };
  }

  @Get("redirect-header")
  @Redirect("/with-header")
  @Header("X-Extra", "kept")
  redirectHeader() {}

  @Get("redirect-split")
  @Redirect("/default")
  redirectSplit() {
    return { url: "/x\r\nSet-Cookie: stolen=1" };
  }
}

@Module({ controllers: [ManualController, DecoratedController] })
class AppModule {}

const app = listeningApp(AppModule);

const internalError = { statusCode: 500, message: "Internal Server Error" };

describe("@Res()", () => {
  it("sends the status, headers and JSON written by hand and ignores the return value", async () => {
    const res = await request(app, "GET", "/res/json");
    expect(res.status).toBe(202);
    expect(res.headers.get("x-manual")).toBe("yes");
    expect(res.headers.get("cache-control")).toBe("5");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ manual: true, header: "yes" });
  });

  it("sends a string as text/plain", async () => {
    const res = await request(app, "GET", "/res/send-text");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toBe("plain words");
  });

  it("keeps a Content-Type set by hand", async () => {
    const res = await request(app, "GET", "/res/send-html");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.text).toBe("<p>hi</p>");
  });

  it("sends an object as JSON", async () => {
    const res = await request(app, "GET", "/res/send-object");
    expect(res.status).toBe(418);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ teapot: true });
  });

  it("sends bytes", async () => {
    const response = await fetch(`${app.getUrl()}/res/send-bytes`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it("ends with no body", async () => {
    const res = await request(app, "GET", "/res/end");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });

  it("starts at 200 even for POST", async () => {
    const res = await request(app, "POST", "/res/default-status");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200 });
  });

  it("redirects with 302 by default", async () => {
    const res = await request(app, "GET", "/res/redirect");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/elsewhere");
  });

  it("redirects with a given status", async () => {
    const res = await request(app, "GET", "/res/redirect-301");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("https://example.com/new");
  });

  it("waits for a Promise-returning handler that writes later", async () => {
    const res = await request(app, "GET", "/res/later");
    expect(res.status).toBe(207);
    expect(res.headers.get("x-late")).toBe("1");
    expect(res.body).toEqual({ later: true });
  });

  it("waits for a response written from a callback after the handler returned", async () => {
    const res = await request(app, "GET", "/res/callback");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ fromCallback: true });
  });

  it("answers an HttpError thrown by a @Res() handler in the standard shape", async () => {
    const res = await request(app, "GET", "/res/throws-after-header");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-before")).toBeNull();
    expect(res.body).toEqual({ statusCode: 404, message: "Nothing here" });
  });

  it.each(["/res/split", "/res/split-lf", "/res/split-name", "/res/split-redirect"])(
    "refuses a CR/LF header through StrataResponse with 500 (%s)",
    async (path) => {
      const res = await request(app, "GET", path);
      expect(res.status).toBe(500);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("x-evil")).toBeNull();
      expect(res.headers.get("location")).toBeNull();
      expect(res.body).toEqual(internalError);
      // The connection was not split: the next request is answered normally.
      const next = await request(app, "GET", "/deco/code");
      expect(next.status).toBe(203);
    },
  );

  it("throws when setHeader gets CR/LF, outside HTTP too", () => {
    const res = new StrataResponse();
    expect(() => res.setHeader("X-A", "v\r\nInjected: 1")).toThrow("Internal Server Error");
    expect(() => res.setHeader("Bad Name", "v")).toThrow();
    expect(res.getHeader("x-a")).toBeUndefined();
    expect(res.sent).toBe(false);
  });

  it("refuses to send twice", () => {
    const res = new StrataResponse();
    res.json({ a: 1 });
    expect(res.sent).toBe(true);
    expect(() => res.send("again")).toThrow();
  });
});

describe("response decorators", () => {
  it("@HttpCode sets the status", async () => {
    const res = await request(app, "GET", "/deco/code");
    expect(res.status).toBe(203);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ code: 203 });
  });

  it("@HttpCode(204) with an empty body", async () => {
    const res = await request(app, "POST", "/deco/no-content");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });

  it("@HttpCode(200) overrides the POST default", async () => {
    const res = await request(app, "POST", "/deco/ok");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it("@Header is repeatable", async () => {
    const res = await request(app, "GET", "/deco/headers");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-one")).toBe("1");
    expect(res.headers.get("x-two")).toBe("two");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ headers: true });
  });

  it("@Header and @HttpCode apply to a text response", async () => {
    const res = await request(app, "GET", "/deco/headers-text");
    expect(res.status).toBe(202);
    expect(res.headers.get("content-language")).toBe("en");
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toBe("text");
  });

  it("an error answers in the standard shape", async () => {
    const res = await request(app, "GET", "/deco/headers-error");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Not Found" });
  });

  it("@Redirect(url) redirects with 302", async () => {
    const res = await request(app, "GET", "/deco/redirect");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/target");
    expect(res.text).toBe("");
  });

  it("@Redirect(url, status) uses the status; a return value without url is no override", async () => {
    const res = await request(app, "GET", "/deco/redirect-301");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/moved");
  });

  it("a returned { url, statusCode } overrides @Redirect", async () => {
    const res = await request(app, "GET", "/deco/redirect-override");
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("/overridden");
  });

  it("a returned { url } (from a Promise) overrides only the url", async () => {
    const res = await request(app, "GET", "/deco/redirect-override-url");
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("/only-url");
  });

  it("@Redirect keeps @Header headers", async () => {
    const res = await request(app, "GET", "/deco/redirect-header");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/with-header");
    expect(res.headers.get("x-extra")).toBe("kept");
  });

  it("a returned redirect url with CR/LF gives 500, not a split response", async () => {
    const res = await request(app, "GET", "/deco/redirect-split");
    expect(res.status).toBe(500);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.body).toEqual(internalError);
  });
});

describe("@Header with CR/LF", () => {
  it("is refused at startup with a StartupError", async () => {
    @Controller("bad")
    class BadHeaderController {
      @Get()
      @Header("X-Evil", "a\r\nSet-Cookie: stolen=1")
      get() {
        return "never";
      }
    }
    @Module({ controllers: [BadHeaderController] })
    class BadModule {}

    const bad = new StrataApp(BadModule);
    try {
      const error = await bad.listen(0).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartupError);
      expect((error as StartupError).message).toContain("BadHeaderController.get");
      expect((error as StartupError).message).toContain("X-Evil");
    } finally {
      await bad.close();
    }
  });

  it.each(["X-Evil\nInjected", "X-Evil\r", "X Bad", "X-Bad:", ""])(
    "is refused in a header name too (%j)",
    async (name) => {
      @Controller("bad-name")
      class BadNameController {
        @Get()
        @Header(name, "v")
        get() {
          return "never";
        }
      }
      @Module({ controllers: [BadNameController] })
      class BadNameModule {}

      const bad = new StrataApp(BadNameModule);
      try {
        await expect(bad.listen(0)).rejects.toBeInstanceOf(StartupError);
      } finally {
        await bad.close();
      }
    },
  );

  it("accepts a Latin-1 header value", async () => {
    @Controller("latin")
    class LatinController {
      @Get()
      @Header("X-Name", "café\tcrème")
      get() {
        return "ok";
      }
    }
    @Module({ controllers: [LatinController] })
    class LatinModule {}

    const latin = new StrataApp(LatinModule);
    try {
      await latin.listen(0);
      const response = await fetch(`${latin.getUrl()}/latin`);
      expect(response.status).toBe(200);
      expect(Buffer.from(response.headers.get("x-name") ?? "", "latin1").toString("latin1")).toBe(
        "café\tcrème",
      );
    } finally {
      await latin.close();
    }
  });
});
