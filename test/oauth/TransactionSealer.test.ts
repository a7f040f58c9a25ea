import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import {
  type OAuthTransaction,
  SecureRandom,
  TransactionSealer,
  TransactionStore,
} from "../../src/oauth/index.js";

const tx: OAuthTransaction = {
  provider: "google",
  state: "state-1",
  codeVerifier: "verifier-1",
  nonce: "nonce-1",
  redirects: { success: "/home" },
  expiry: 1_700_000_000_000,
};

const KEY = Redacted.make("a-sealing-key-of-at-least-32-characters!");
const sealer = (key = KEY) =>
  Effect.provide(TransactionSealer, TransactionSealer.layer(key)) as Effect.Effect<
    typeof TransactionSealer.Service
  >;

describe("TransactionSealer (AES-256-GCM)", () => {
  it.effect("round-trips a transaction; the sealed form reveals nothing", () =>
    Effect.gen(function* () {
      const s = yield* sealer();
      const sealed = yield* s.seal(tx);
      expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
      for (const value of ["state-1", "verifier-1", "nonce-1", "google", "/home"]) {
        expect(sealed).not.toContain(value);
        expect(Buffer.from(sealed.slice(3), "base64url").toString("latin1")).not.toContain(value);
      }
      expect(yield* s.unseal(sealed)).toEqual(Option.some(tx));
      expect(yield* s.seal(tx)).not.toBe(sealed); // a fresh IV every time
    }),
  );

  it.effect("any tampering, truncation or other key gives None", () =>
    Effect.gen(function* () {
      const s = yield* sealer();
      const sealed = yield* s.seal(tx);
      const other = yield* sealer(Redacted.make("another-key-of-at-least-32-characters!!"));
      const candidates = [
        `${sealed.slice(0, 10)}${sealed[10] === "a" ? "b" : "a"}${sealed.slice(11)}`,
        sealed.slice(0, -1),
        sealed.slice(0, 20),
        `${sealed}A`,
        "v1.",
        "",
        "garbage",
        yield* other.seal(tx),
      ];
      for (const candidate of candidates) {
        expect(Option.isNone(yield* s.unseal(candidate)), candidate).toBe(true);
      }
    }),
  );

  it.effect("the wire format is unchanged: values sealed before still unseal, byte for byte", () =>
    Effect.gen(function* () {
      // Sealed by the previous implementation (JSON.stringify, Buffer.concat) with the IVs of
      // SecureRandom.layerTest("golden"): the same IVs must give the same values.
      const quoted: OAuthTransaction = {
        provider: "github",
        state: 'a "quoted" state\u2028é',
        redirects: {},
        expiry: 1_700_000_000_001,
      };
      const golden = [
        "v1.f0_JejQRFYoDF0pbspss9eRVBdXBBw2JCPNRSenOVKB_mi38YjMOUZJ5sWUqBTKYqAwn2VIKleH2daHCUzQiM7-Y_m1m6f0GV-XAz6XBpWu3urmljofkBeqBP6i-VlD87umh2CVc4Xc0hLD-FsQp72LSNY5OvB2cKkEbeycyxj2vwJOdIFilDTOm7suMNXlWVkF92VbYIaOEZLC8A1E05OIKX_RZz2V6",
        "v1.hMZ3goOFIp4cJtXfqfastRtPACJmrTlYlVtRJNqzJUfN9TZwHxfhRx5sxx-PN1x-z0yvL6iRkOQ-VuQwnEZJs0aCtlJtdFymakKPrFeFwMbJFGl-0SmYjtwxytbK_JUQkyxzehhSblLBA0zyo3zXqZyAb8WMzCpsaw",
      ];
      const s = yield* Effect.provide(
        TransactionSealer,
        TransactionSealer.layer(KEY).pipe(Layer.provide(SecureRandom.layerTest("golden"))),
      );
      expect([yield* s.seal(tx), yield* s.seal(quoted)]).toEqual(golden);
      expect(yield* s.unseal(golden[0])).toEqual(Option.some(tx));
      expect(yield* s.unseal(golden[1])).toEqual(Option.some(quoted));
    }),
  );

  it.effect("refuses a key shorter than 32 characters", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Effect.provide(TransactionSealer, TransactionSealer.layer(Redacted.make("short"))),
      );
      expect(error._tag).toBe("OAuthConfigError");
    }),
  );

  it.effect("without a key: a random per-process key and a logged warning", () =>
    Effect.gen(function* () {
      const lines: Array<string> = [];
      const capture = Logger.replace(
        Logger.defaultLogger,
        Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${String(message)}`)),
      );
      const s = yield* Effect.provide(
        TransactionSealer,
        TransactionSealer.layer().pipe(Layer.provide(capture)),
      );
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^WARN No OAuth sealing key configured/);
      const sealed = yield* s.seal(tx);
      expect(yield* s.unseal(sealed)).toEqual(Option.some(tx));
    }),
  );
});

describe("TransactionStore", () => {
  const cookieStore = Effect.provide(
    TransactionStore,
    TransactionStore.layerCookie.pipe(Layer.provide(TransactionSealer.layer(KEY))),
  );

  it.effect("cookie store: a sealed value is taken once", () =>
    Effect.gen(function* () {
      const store = yield* cookieStore;
      const value = yield* store.save(tx);
      expect(yield* store.take(value)).toEqual(Option.some(tx));
      expect(yield* store.take(value)).toEqual(Option.none());
      expect(yield* store.take("v1.nope")).toEqual(Option.none());
    }),
  );

  it.effect("memory store: the cookie holds a random id; taken once", () =>
    Effect.gen(function* () {
      const store = yield* Effect.provide(TransactionStore, TransactionStore.layerMemory);
      const value = yield* store.save(tx);
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(yield* store.take(value)).toEqual(Option.some(tx));
      expect(yield* store.take(value)).toEqual(Option.none());
      expect(yield* store.take("__proto__")).toEqual(Option.none());
    }).pipe(Effect.provide(SecureRandom.layerTest("store"))),
  );
});
