import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import { RequestInfo } from "../../src/effect/index.js";
import * as TrustProxy from "../../src/middleware/TrustProxy.js";
import { serveTest } from "../../src/testing/index.js";

/** Routes answering who the client is and whether it came over https, under each form. */
const proxies = ["loopback", "10.0.0.0/8", "fd00::/8"];
const forms: Record<string, TrustProxy.TrustProxy | TrustProxy.ProxyTrust> = {
  none: false,
  zero: 0,
  one: 1,
  two: 2,
  all: true,
  proxies: Effect.runSync(TrustProxy.make(proxies)),
  elsewhere: Effect.runSync(TrustProxy.make(["10.0.0.0/8"])),
  // Given as is, per request, through the `RequestInfo` re-exports (as CSRF and security
  // headers take it): parsed on first use, once.
  raw: proxies,
  broken: ["10.0.0.0/99"],
};

const routes = Object.entries(forms)
  .map(([name, trust]) =>
    HttpLayerRouter.add(
      "GET",
      `/${name}`,
      Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
        HttpServerResponse.unsafeJson({
          client: RequestInfo.clientAddress(request, trust),
          https: RequestInfo.isHttps(request, trust),
        }),
      ),
    ),
  )
  .reduce((all, route) => Layer.merge(all, route));

/** What the server made of a request to `/form` with these headers. */
const seen = (form: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(HttpClient.get(`/${form}`, { headers }), (response) =>
    Effect.map(response.json, (body) => ({ status: response.status, body })),
  );

const xff = (value: string, proto?: string) => ({
  "x-forwarded-for": value,
  ...(proto === undefined ? {} : { "x-forwarded-proto": proto }),
});

describe("TrustProxy", () => {
  layer(serveTest(routes))("over real HTTP", (it) => {
    it.effect("check 22: by default X-Forwarded-For and X-Forwarded-Proto are ignored", () =>
      Effect.gen(function* () {
        for (const form of ["none", "zero"]) {
          const { body } = yield* seen(form, xff("1.1.1.1", "https"));
          expect(body).toEqual({ client: "127.0.0.1", https: false });
        }
      }),
    );

    it.effect("check 34: a hop count believes that many entries from the right, no further", () =>
      Effect.gen(function* () {
        expect((yield* seen("one", xff("6.6.6.6, 1.1.1.1", "https"))).body).toEqual({
          client: "1.1.1.1",
          https: true,
        });
        expect((yield* seen("two", xff("6.6.6.6, 1.1.1.1, 10.0.0.2"))).body).toMatchObject({
          client: "1.1.1.1",
        });
        // More hops than entries: the leftmost, as far as the chain goes.
        expect((yield* seen("two", xff("1.1.1.1"))).body).toMatchObject({ client: "1.1.1.1" });
        expect((yield* seen("one")).body).toEqual({ client: "127.0.0.1", https: false });
      }),
    );

    it.effect(
      "check 34: a list walks X-Forwarded-For from the right, skipping listed proxies; the first other address is the client",
      () =>
        Effect.gen(function* () {
          const cases: Array<[string, string]> = [
            ["6.6.6.6, 1.1.1.1, 10.0.0.2", "1.1.1.1"],
            ["6.6.6.6, 1.1.1.1, 10.0.0.2, 10.200.0.1", "1.1.1.1"],
            ["2001:db8::5, fd12::1", "2001:db8::5"],
            ["10.0.0.9, 10.0.0.2", "10.0.0.9"],
            [" 1.1.1.1 ,, 10.0.0.2 ", "1.1.1.1"],
            ["not-an-address, 10.0.0.2", "127.0.0.1"],
            ["", "127.0.0.1"],
          ];
          for (const [header, client] of cases) {
            expect((yield* seen("proxies", xff(header))).body, header).toMatchObject({ client });
            expect((yield* seen("raw", xff(header))).body, header).toMatchObject({ client });
          }
          expect((yield* seen("proxies", xff("1.1.1.1", "https"))).body).toMatchObject({
            https: true,
          });
        }),
    );

    it.effect(
      "check 34: from a peer that is not a listed proxy, nothing forwarded is believed",
      () =>
        Effect.gen(function* () {
          expect((yield* seen("elsewhere", xff("1.1.1.1", "https"))).body).toEqual({
            client: "127.0.0.1",
            https: false,
          });
        }),
    );

    it.effect("check 38: true believes the leftmost entry, which the client wrote", () =>
      Effect.gen(function* () {
        expect((yield* seen("all", xff("6.6.6.6, 1.1.1.1, 10.0.0.2"))).body).toMatchObject({
          client: "6.6.6.6",
        });
      }),
    );

    it.effect("a list given per request that cannot be read is a 500 with nothing leaked", () =>
      Effect.gen(function* () {
        const answer = yield* seen("broken", xff("1.1.1.1", "https"));
        expect(answer).toEqual({
          status: 500,
          body: { statusCode: 500, message: "Internal Server Error" },
        });
      }),
    );
  });

  describe("make (at startup)", () => {
    const made = (option: TrustProxy.TrustProxy) => Effect.runSyncExit(TrustProxy.make(option));
    const message = (option: TrustProxy.TrustProxy) => {
      const exit = made(option);
      return Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error.message : "";
    };

    it("accepts the documented forms", () => {
      const valid: Array<TrustProxy.TrustProxy> = [
        false,
        true,
        0,
        3,
        [],
        ["loopback", "linklocal", "uniquelocal"],
        ["192.168.1.10", "172.16.0.0/12", "::1", "2001:db8::/32", "::ffff:10.0.0.0/104"],
      ];
      for (const option of valid) expect(Exit.isSuccess(made(option)), String(option)).toBe(true);
    });

    it("refuses entries it cannot read and hop counts that are not whole, naming trustProxy", () => {
      expect(message(["10.0.0.0/33"])).toBe(
        'trustProxy: "10.0.0.0/33" has no valid prefix length (0-32)',
      );
      expect(message(["10.0.0.0/8", "proxy.internal"])).toBe(
        'trustProxy: "proxy.internal" is not an IP address, a CIDR range or a named range',
      );
      expect(message(["10.0.0.0/"])).toContain("no valid prefix length");
      expect(message(["10.0.0.0/-1"])).toContain("no valid prefix length");
      expect(message(["fd00::/129"])).toBe(
        'trustProxy: "fd00::/129" has no valid prefix length (0-128)',
      );
      expect(message(["__proto__"])).toContain("is not an IP address");
      expect(message(-1)).toBe(
        "trustProxy: -1 is not a number of proxies (a whole number, 0 or more)",
      );
      expect(message(0.5)).toContain("is not a number of proxies");
    });
  });
});
