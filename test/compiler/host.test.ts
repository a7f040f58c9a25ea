import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { Controller, Get, HostParam, Module } from "../../src/index.js";
import { listeningApp } from "../support/apps.js";

/** GET `path` on the app with a `Host` header of our choosing (fetch does not let one set it). */
const get = (baseUrl: string, path: string, host: string) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const req = httpRequest(
      // An IPv6 URL names its host in brackets (`[::1]`); node:http takes the bare address.
      {
        host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port,
        path: url.pathname,
        headers: { host },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          const type = res.headers["content-type"] ?? "";
          resolve({
            status: res.statusCode ?? 0,
            body: type.includes("json") ? JSON.parse(text) : text,
          });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });

@Controller({ path: "tenant", host: ":tenant.example.com" })
class TenantController {
  @Get()
  greet(@HostParam("tenant") tenant: string) {
    return `hello ${tenant}`;
  }

  @Get("all")
  all(@HostParam() params: Record<string, string>) {
    return params;
  }
}

@Controller({ path: "multi", host: [":tenant.one.test", /^(?<region>eu|us)\.two\.test$/] })
class MultiHostController {
  @Get()
  hosts(@HostParam() params: Record<string, string>) {
    return params;
  }
}

@Controller("open")
class OpenController {
  @Get()
  open(@HostParam("tenant") tenant: string | undefined) {
    return { tenant: tenant ?? null };
  }
}

@Module({ controllers: [TenantController, MultiHostController, OpenController] })
class HostModule {}

describe("@Controller({ host }) and @HostParam", () => {
  const app = listeningApp(HostModule);

  it("routes a controller only for its host and reads the host parameter", async () => {
    expect(await get(app.getUrl(), "/tenant", "acme.example.com")).toEqual({
      status: 200,
      body: "hello acme",
    });
    expect(await get(app.getUrl(), "/tenant/all", "acme.example.com:8080")).toEqual({
      status: 200,
      body: { tenant: "acme" },
    });
  });

  it("answers 404 with NestJS's body for another host", async () => {
    expect(await get(app.getUrl(), "/tenant", "example.com")).toEqual({
      status: 404,
      body: { statusCode: 404, message: "Cannot GET /tenant", error: "Not Found" },
    });
    expect((await get(app.getUrl(), "/tenant", "acme.example.org")).status).toBe(404);
  });

  it("takes several hosts, a RegExp's named groups being its parameters", async () => {
    expect(await get(app.getUrl(), "/multi", "acme.one.test")).toEqual({
      status: 200,
      body: { tenant: "acme" },
    });
    expect(await get(app.getUrl(), "/multi", "eu.two.test")).toEqual({
      status: 200,
      body: { region: "eu" },
    });
    expect((await get(app.getUrl(), "/multi", "asia.two.test")).status).toBe(404);
  });

  it("leaves a controller without host open to every host, its host parameters undefined", async () => {
    expect(await get(app.getUrl(), "/open", "anything.test")).toEqual({
      status: 200,
      body: { tenant: null },
    });
  });
});
