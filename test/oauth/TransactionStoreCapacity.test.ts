// SECURITY.md check 41 through the real built-in routes: the in-process stores forget a
// single-use value only once it has expired; full of live ones, they refuse new transactions
// with 503 rather than forget one (which would let its state be replayed). Time is the
// TestClock's; the stores are built small (maxEntries) so a test can fill them. Every request
// comes from another client (X-Forwarded-For behind `trustProxy: 1`): one client alone is
// stopped before (check 42, ClientTransactionCap.test.ts).
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as Redacted from "effect/Redacted";
import * as TestClock from "effect/TestClock";
import { makeExpiringEntries } from "../../src/memory/ExpiringEntries.js";
import { OAuth, OAuthRoutes, TransactionSealer, TransactionStore } from "../../src/oauth/index.js";
import { serveTest } from "../../src/testing/index.js";
import { mockNetwork } from "./support/network.js";
import { mockLogin, tokenRequests } from "./support/providerNetwork.js";
import { callback, get, KEY, start, testConfig } from "./support/server.js";

const net = mockNetwork();

const FULL = {
  statusCode: 503,
  message: "Service Unavailable",
  error: "transaction_store_full",
};
const INVALID_STATE = { statusCode: 401, message: "Invalid state", error: "invalid_state" };
const MAX = 5;
const T0 = Date.UTC(2026, 0, 1);

const warnings: Array<string> = [];
const captureWarnings = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ logLevel, message }) => {
    if (logLevel.label === "WARN") warnings.push(String(message));
  }),
);

/** A client of its own for each request. */
let clients = 0;
const anyone = () => {
  clients++;
  return { "x-forwarded-for": `10.0.${(clients >> 8) & 255}.${clients & 255}` };
};

/** The built-in routes over `store`, served on loopback; time is the TestClock's. */
const server = <E>(store: Layer.Layer<TransactionStore, E>) =>
  serveTest(
    OAuthRoutes.layer({ trustProxy: 1 }).pipe(
      Layer.provide(Layer.mergeAll(OAuth.layer(testConfig()), store)),
      Layer.provide(FetchHttpClient.layer),
    ),
  ).pipe(Layer.provide(captureWarnings));

/** `/auth/google` refused: 503 in the standard shape, no cookie, no provider URL. */
const expectRefusedStart = Effect.gen(function* () {
  const refused = yield* get("/auth/google", anyone());
  expect(refused.status).toBe(503);
  expect(refused.json).toEqual(FULL);
  expect(refused.setCookies).toEqual([]);
  expect(refused.location).toBeUndefined();
  expect(refused.headers["cache-control"]).toBe("no-store");
});

/** A started flow consumed by a failed callback (wrong state): its state is remembered. */
const burn = (provider: "github" | "google") =>
  Effect.gen(function* () {
    const flow = yield* start(provider, "", anyone());
    const failed = yield* callback(provider, "?code=c&state=wrong", flow.cookie, anyone());
    expect(failed.status).toBe(401);
  });

describe("check 41: the replay memory forgets only expired entries; full, it refuses (503)", () => {
  layer(
    server(
      TransactionStore.layerCookieWith({ maxEntries: MAX }).pipe(
        Layer.provide(TransactionSealer.layer(Redacted.make(KEY))),
      ),
    ),
  )("sealed-cookie store (its memory of taken states)", (it) => {
    it.effect(
      "check 41: full of live taken states, /auth/google answers 503 with no cookie; the old state stays refused after many logins; after expiry logins work again",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(T0);
          warnings.length = 0;
          // The first login succeeds; its state is remembered as taken.
          const first = yield* start("github", "", anyone());
          mockLogin(net, "github");
          const query = `?code=c&state=${first.state}`;
          expect((yield* callback("github", query, first.cookie, anyone())).status).toBe(200);
          // A flow started while there is room, completed only once the memory is full.
          const late = yield* start("github", "", anyone());
          for (let i = 1; i < MAX; i++) yield* burn("google");

          // Many more logins: every one refused at the start, none forgets a live state.
          for (let i = 0; i < 3 * MAX; i++) yield* expectRefusedStart;
          expect(warnings.filter((w) => w.includes("TransactionStore (cookie)"))).toHaveLength(1);
          const replay = yield* callback("github", query, first.cookie, anyone());
          expect(replay.status).toBe(401);
          expect(replay.json).toEqual(INVALID_STATE);

          // A callback the memory cannot take: 503, cookie cleared, no token request.
          mockLogin(net, "github");
          const refused = yield* callback(
            "github",
            `?code=c&state=${late.state}`,
            late.cookie,
            anyone(),
          );
          expect(refused.status).toBe(503);
          expect(refused.json).toEqual(FULL);
          expect(refused.setCookies).toEqual([expect.stringMatching(/^strata_oauth=; Max-Age=0;/)]);
          expect(tokenRequests(net)).toHaveLength(1);

          // Nine minutes on, the states are still live: still refused.
          yield* TestClock.adjust("9 minutes");
          yield* expectRefusedStart;
          // Past their expiry, they are forgotten: logins work again.
          yield* TestClock.adjust("1 minute");
          const again = yield* start("github", "", anyone());
          mockLogin(net, "github");
          const done = yield* callback(
            "github",
            `?code=c&state=${again.state}`,
            again.cookie,
            anyone(),
          );
          expect(done.status).toBe(200);
          // The old state is refused still: its transaction has expired.
          expect((yield* callback("github", query, first.cookie, anyone())).json).toEqual(
            INVALID_STATE,
          );
        }),
    );
  });

  layer(server(TransactionStore.layerMemoryWith({ maxEntries: MAX })))(
    "server-side memory store",
    (it) => {
      it.effect(
        "check 41: full of live transactions, save is refused (503, no cookie) and none is forgotten; a taken one frees its slot; expired ones free theirs",
        () =>
          Effect.gen(function* () {
            yield* TestClock.setTime(T0);
            warnings.length = 0;
            const flows = [];
            for (let i = 0; i < MAX; i++) flows.push(yield* start("github", "", anyone()));
            for (let i = 0; i < 3 * MAX; i++) yield* expectRefusedStart;
            expect(warnings.filter((w) => w.includes("TransactionStore (memory)"))).toHaveLength(1);

            // The oldest transaction was not forgotten: it completes, once.
            const oldest = flows[0];
            mockLogin(net, "github");
            const query = `?code=c&state=${oldest?.state}`;
            expect((yield* callback("github", query, oldest?.cookie, anyone())).status).toBe(200);
            expect((yield* callback("github", query, oldest?.cookie, anyone())).status).toBe(401);
            // Taking it freed one slot, and one only.
            yield* start("google", "", anyone());
            yield* expectRefusedStart;

            yield* TestClock.adjust("9 minutes");
            yield* expectRefusedStart;
            yield* TestClock.adjust("1 minute");
            for (let i = 0; i < MAX; i++) yield* start("google", "", anyone());
            yield* expectRefusedStart;
          }),
      );
    },
  );
});

describe("ExpiringEntries", () => {
  it("check 41: an entry is never forgotten before its expiry, even behind a later one", () => {
    const entries = makeExpiringEntries<number>(3);
    entries.set("late", 1, 2_000);
    entries.set("early", 2, 1_000);
    expect(entries.hasRoom(1_500)).toBe(true);
    expect(entries.get("early")).toBe(2);
    entries.set("third", 3, 1_200);
    expect(entries.hasRoom(1_999)).toBe(false);
    expect([entries.get("late"), entries.get("early"), entries.get("third")]).toEqual([1, 2, 3]);
    expect(entries.hasRoom(2_000)).toBe(true);
    expect([entries.get("late"), entries.get("early"), entries.get("third")]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("check 41: maxEntries must be a positive integer", async () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      const exit = await Effect.runPromiseExit(
        Effect.provide(TransactionStore, TransactionStore.layerMemoryWith({ maxEntries })),
      );
      expect(exit._tag).toBe("Failure");
    }
  });
});
