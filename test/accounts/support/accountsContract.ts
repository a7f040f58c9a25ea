// The contract every account store passes, through the Accounts service: sign-in (find,
// create, link by verified email only when verified and opted in), explicit links, listing,
// unlinking, the app's records, bad input, concurrent first sign-ins, and provider tokens
// (sealed at rest, refreshed once per account at a time). Time is Effect's TestClock (epoch 0)
// unless a test says otherwise.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import * as TestClock from "effect/TestClock";
import {
  AccountStore,
  type AccountStoreService,
  Accounts,
  type AccountsOptions,
  type RefreshProviderToken,
} from "../../../src/accounts/index.js";
import { CodeRejected, ProviderUnreachable } from "../../../src/oauth/index.js";
import type { OAuthTokens, OAuthUser } from "../../../src/oauth/OAuthResult.js";

/** A store for one test, and what its storage holds in the raw (rows, file bytes). */
export interface StoreUnderTest {
  readonly layer: Layer.Layer<AccountStore, unknown>;
  /**
   * What the storage holds about the accounts (of `userId`, for a store that can only say
   * that), as text, for "never in the clear" checks: rows, file bytes.
   */
  readonly raw: (store: AccountStoreService, userId: string) => Effect.Effect<string, unknown>;
}

/** The app's user record in these tests. */
export const User = Schema.Struct({ id: Schema.String, name: Schema.String });
export type User = typeof User.Type;
export const Users = Accounts.make(User);

/** A tokens secret of the right length. */
export const TOKENS_SECRET = "a-tokens-secret-of-at-least-32-characters";

/** Names unique to one test, so that tests may share a database. */
export const unique = () => randomUUID().slice(0, 8);

/** A provider profile. */
export const profile = (id: string, extra: Partial<OAuthUser> = {}): OAuthUser => ({
  id,
  name: `user ${id}`,
  ...extra,
});

/** Provider tokens as a callback gives them. */
export const tokensOf = (
  access: string,
  options: { readonly refresh?: string; readonly expiresAt?: number } = {},
): OAuthTokens => ({
  accessToken: Redacted.make(access),
  ...(options.refresh === undefined ? {} : { refreshToken: Redacted.make(options.refresh) }),
  ...(options.expiresAt === undefined ? {} : { expiresAt: new Date(options.expiresAt) }),
});

/** The store of `under`, built in the test's scope. */
export const buildStore = (under: StoreUnderTest) =>
  Effect.map(Layer.build(under.layer), (context) => Context.get(context, AccountStore));

/** Accounts on `store`, built in the test's scope; `created` records every createUser id. */
export const accountsOn = (
  store: AccountStoreService,
  options: Partial<AccountsOptions<User>> = {},
  created: Array<string> = [],
) =>
  Effect.map(
    Layer.build(
      Users.layer({
        createUser: (user, { id }) => {
          created.push(id);
          return { id, name: user.name ?? "" };
        },
        ...options,
      }).pipe(Layer.provide(Layer.succeed(AccountStore, store))),
    ),
    (context) => Context.get(context, Users),
  );

/** A refresh that counts its calls and answers `answer` (after `gate`, when given). */
export const countingRefresh = (
  answer: (call: number) => Effect.Effect<OAuthTokens, CodeRejected | ProviderUnreachable>,
  gate?: Deferred.Deferred<void>,
) => {
  const calls: Array<{ provider: string; refreshToken: string }> = [];
  const refresh: RefreshProviderToken = (provider, refreshToken) =>
    Effect.suspend(() => {
      calls.push({ provider, refreshToken: Redacted.value(refreshToken) });
      const call = calls.length;
      return Effect.zipRight(gate === undefined ? Effect.void : Deferred.await(gate), answer(call));
    });
  return { calls, refresh };
};

export const accountStoreContract = (name: string, fresh: () => StoreUnderTest) =>
  describe(`${name}: the accounts contract`, () => {
    it.scoped("a first sign-in creates the user (createUser); a returning one finds it", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const created: Array<string> = [];
        const users = yield* accountsOn(store, {}, created);
        const subject = `gh-${unique()}`;
        const first = yield* users.signIn("github", profile(subject, { name: "Ada" }));
        expect(first).toEqual({ id: created[0], name: "Ada" });
        expect(created[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
        const again = yield* users.signIn("github", profile(subject, { name: "Ada L." }));
        expect(again).toEqual(first);
        expect(created).toHaveLength(1);
        expect(Option.getOrThrow(yield* users.user(first.id))).toEqual(first);
        const [account] = yield* users.accounts(first.id);
        expect(account).toMatchObject({
          provider: "github",
          subject,
          emailVerified: false,
          hasTokens: false,
        });
        expect(account?.linkedAt).toBeInstanceOf(Date);
      }),
    );

    it.scoped("check 31: accounts are keyed by (provider, subject), never by name or email", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store);
        const id = `same-${unique()}`;
        const email = `ada-${unique()}@example.com`;
        const a = yield* users.signIn("github", profile(id, { email, emailVerified: true }));
        // The same subject at another provider, and the same verified email: other users.
        const b = yield* users.signIn("google", profile(id, { email, emailVerified: true }));
        const c = yield* users.signIn("github", profile(`${id}-2`, { email, emailVerified: true }));
        expect(new Set([a.id, b.id, c.id]).size).toBe(3);
      }),
    );

    it.scoped(
      "check 31: with linkByVerifiedEmail, a verified email links the new provider to its user",
      () =>
        Effect.gen(function* () {
          const store = yield* buildStore(fresh());
          const created: Array<string> = [];
          const users = yield* accountsOn(store, { linkByVerifiedEmail: true }, created);
          const email = `Ada-${unique()}@Example.com`;
          const ada = yield* users.signIn(
            "github",
            profile(`gh-${unique()}`, { email, emailVerified: true }),
          );
          // Case and spaces aside, the same address.
          const same = yield* users.signIn(
            "google",
            profile(`go-${unique()}`, { email: ` ${email.toLowerCase()} `, emailVerified: true }),
          );
          expect(same).toEqual(ada);
          expect(created).toHaveLength(1);
          expect((yield* users.accounts(ada.id)).map((account) => account.provider).sort()).toEqual(
            ["github", "google"],
          );
        }),
    );

    it.scoped(
      "check 31: an unverified email never merges accounts, on either side, opted in or not",
      () =>
        Effect.gen(function* () {
          const store = yield* buildStore(fresh());
          const users = yield* accountsOn(store, { linkByVerifiedEmail: true });
          const email = `eve-${unique()}@example.com`;
          const victim = yield* users.signIn(
            "github",
            profile(`gh-${unique()}`, { email, emailVerified: true }),
          );
          // The new profile's email is not verified: missing, false, or not the boolean true.
          for (const emailVerified of [undefined, false, "true" as unknown as boolean]) {
            const other = yield* users.signIn(
              "microsoft",
              profile(`ms-${unique()}`, {
                email,
                ...(emailVerified === undefined ? {} : { emailVerified }),
              }),
            );
            expect(other.id).not.toBe(victim.id);
          }
          // The existing account's email is not verified: a verified one elsewhere does not
          // reach it either.
          const unverifiedEmail = `mallory-${unique()}@example.com`;
          const first = yield* users.signIn(
            "microsoft",
            profile(`ms-${unique()}`, { email: unverifiedEmail, emailVerified: false }),
          );
          const second = yield* users.signIn(
            "google",
            profile(`go-${unique()}`, { email: unverifiedEmail, emailVerified: true }),
          );
          expect(second.id).not.toBe(first.id);
          expect(yield* users.accounts(victim.id)).toHaveLength(1);
          expect(yield* users.accounts(first.id)).toHaveLength(1);
        }),
    );

    it.scoped("check 31: without the opt-in, a verified email makes a new user", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store);
        const email = `ada-${unique()}@example.com`;
        const a = yield* users.signIn(
          "github",
          profile(`gh-${unique()}`, { email, emailVerified: true }),
        );
        const b = yield* users.signIn(
          "google",
          profile(`go-${unique()}`, { email, emailVerified: true }),
        );
        expect(b.id).not.toBe(a.id);
      }),
    );

    it.scoped("a verified email two users share links neither: AccountConflict (409)", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const email = `twice-${unique()}@example.com`;
        // Two users with one verified email (made before the app opted in).
        const before = yield* accountsOn(store);
        yield* before.signIn("github", profile(`gh-${unique()}`, { email, emailVerified: true }));
        yield* before.signIn("google", profile(`go-${unique()}`, { email, emailVerified: true }));
        const users = yield* accountsOn(store, { linkByVerifiedEmail: true });
        const subject = `ms-${unique()}`;
        const error = yield* Effect.flip(
          users.signIn("microsoft", profile(subject, { email, emailVerified: true })),
        );
        expect(error).toMatchObject({ _tag: "AccountConflict", reason: "ambiguous-email" });
        expect(error.httpStatus).toBe(409);
        expect(Option.isNone(yield* store.findByAccount("microsoft", subject))).toBe(true);
      }),
    );

    it.scoped("link: a signed-in user links another provider; listing shows both", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store);
        const ada = yield* users.signIn("github", profile(`gh-${unique()}`));
        yield* TestClock.adjust(1_000);
        const subject = `go-${unique()}`;
        // No email check: the user signed in to both.
        const linked = yield* users.link(
          ada.id,
          "google",
          profile(subject, { email: `x-${unique()}@example.com`, emailVerified: false }),
        );
        expect(linked).toMatchObject({ provider: "google", subject, emailVerified: false });
        expect((yield* users.accounts(ada.id)).map((account) => account.provider)).toEqual([
          "github",
          "google",
        ]);
        // Signing in with the linked account is signing in as the user.
        expect(yield* users.signIn("google", profile(subject))).toEqual(ada);
        // Linking it again changes nothing.
        yield* users.link(ada.id, "google", profile(subject));
        expect(yield* users.accounts(ada.id)).toHaveLength(2);
      }),
    );

    it.scoped("a duplicate link is a typed failure that changes nothing", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store);
        const ada = yield* users.signIn("github", profile(`gh-${unique()}`));
        const bobSubject = `gh-${unique()}`;
        const bob = yield* users.signIn("github", profile(bobSubject));
        // Bob's account, to Ada: another user's.
        const taken = yield* Effect.flip(users.link(ada.id, "github", profile(bobSubject)));
        expect(taken).toMatchObject({ _tag: "AccountConflict", reason: "linked-to-another-user" });
        // A second github account for Ada.
        const second = yield* Effect.flip(users.link(ada.id, "github", profile(`gh-${unique()}`)));
        expect(second).toMatchObject({
          _tag: "AccountConflict",
          reason: "provider-already-linked",
        });
        const nobody = yield* Effect.flip(
          users.link("no-such-user", "google", profile(`go-${unique()}`)),
        );
        expect(nobody).toMatchObject({ _tag: "UserNotFound" });
        expect(nobody.httpStatus).toBe(404);
        expect(yield* users.accounts(ada.id)).toHaveLength(1);
        expect((yield* users.accounts(bob.id))[0]?.subject).toBe(bobSubject);
      }),
    );

    it.scoped("unlink: one of two; never the last one (LastAccount, 409); unknown: 404", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store);
        const ghSubject = `gh-${unique()}`;
        const ada = yield* users.signIn("github", profile(ghSubject));
        yield* users.link(ada.id, "google", profile(`go-${unique()}`));
        yield* users.unlink(ada.id, "google");
        expect((yield* users.accounts(ada.id)).map((account) => account.provider)).toEqual([
          "github",
        ]);
        const last = yield* Effect.flip(users.unlink(ada.id, "github"));
        expect(last).toMatchObject({ _tag: "LastAccount", provider: "github" });
        expect(last.httpStatus).toBe(409);
        const missing = yield* Effect.flip(users.unlink(ada.id, "google"));
        expect(missing).toMatchObject({ _tag: "AccountNotLinked", provider: "google" });
        expect(yield* users.signIn("github", profile(ghSubject))).toEqual(ada);
      }),
    );

    it.scoped("two concurrent unlinks of a user's two accounts leave one", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store);
        const ada = yield* users.signIn("github", profile(`gh-${unique()}`));
        yield* users.link(ada.id, "google", profile(`go-${unique()}`));
        const outcomes = yield* Effect.all(
          [users.unlink(ada.id, "github"), users.unlink(ada.id, "google")].map(Effect.exit),
          { concurrency: "unbounded" },
        );
        expect(outcomes.filter(Exit.isSuccess)).toHaveLength(1);
        expect(yield* users.accounts(ada.id)).toHaveLength(1);
      }),
    );

    it.scoped("the app's record: read and replaced; an unknown user is UserNotFound", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store);
        const ada = yield* users.signIn("github", profile(`gh-${unique()}`, { name: "Ada" }));
        yield* users.updateUser({ ...ada, name: "Countess" });
        expect(Option.getOrThrow(yield* users.user(ada.id))).toEqual({
          id: ada.id,
          name: "Countess",
        });
        expect(Option.isNone(yield* users.user("nobody"))).toBe(true);
        const error = yield* Effect.flip(users.updateUser({ id: "nobody", name: "x" }));
        expect(error._tag).toBe("UserNotFound");
      }),
    );

    it.scoped("bad input is InvalidProfile (400) and writes nothing", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const created: Array<string> = [];
        const users = yield* accountsOn(store, {}, created);
        const cases: ReadonlyArray<[string, unknown, string]> = [
          ["github", { name: "no id" }, "subject"],
          ["github", { id: "" }, "subject"],
          ["github", { id: 42 }, "subject"],
          ["github", { id: "x".repeat(256) }, "subject"],
          ["github", null, "subject"],
          ["GitHub", { id: "1" }, "provider"],
          ["", { id: "1" }, "provider"],
          ["github/../x", { id: "1" }, "provider"],
          ["github", { id: "1", emailVerified: true }, "email"],
          ["github", { id: "1", email: `${"a".repeat(320)}@x.io` }, "email"],
        ];
        for (const [provider, user, reason] of cases) {
          const error = yield* Effect.flip(users.signIn(provider, user as OAuthUser));
          expect(error).toMatchObject({ _tag: "InvalidProfile", reason });
          expect(error.httpStatus).toBe(400);
          expect(JSON.stringify(error)).not.toContain("xxxxxxxx");
        }
        expect(created).toEqual([]);
        expect(Option.isNone(yield* store.findByAccount("github", "1"))).toBe(true);
      }),
    );

    it.scoped("a createUser id that is taken: AccountConflict, and nothing is linked", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store);
        const ada = yield* users.signIn("github", profile(`gh-${unique()}`));
        const copycat = yield* accountsOn(store, {
          createUser: () => ({ id: ada.id, name: "copy" }),
        });
        const subject = `go-${unique()}`;
        const error = yield* Effect.flip(copycat.signIn("google", profile(subject)));
        expect(error).toMatchObject({ _tag: "AccountConflict", reason: "user-id-taken" });
        expect(Option.isNone(yield* store.findByAccount("google", subject))).toBe(true);
        expect(Option.getOrThrow(yield* users.user(ada.id)).name).toBe(ada.name);
      }),
    );

    it.scoped(
      "concurrent first sign-ins of one account: one user, one link, every request gets it",
      () =>
        Effect.gen(function* () {
          const store = yield* buildStore(fresh());
          const created: Array<string> = [];
          // Two instances of the app on one store, five requests each; createUser waits until
          // all ten have looked the account up and are creating it.
          const allCreating = yield* Deferred.make<void>();
          const options = {
            createUser: (user: OAuthUser, { id }: { readonly id: string }) =>
              Effect.gen(function* () {
                created.push(id);
                if (created.length === 10) yield* Deferred.succeed(allCreating, undefined);
                yield* Deferred.await(allCreating);
                return { id, name: user.name ?? "" };
              }),
          };
          const a = yield* accountsOn(store, options);
          const b = yield* accountsOn(store, options);
          const subject = `gh-${unique()}`;
          const results = yield* Effect.all(
            Array.from({ length: 10 }, (_, i) =>
              (i % 2 === 0 ? a : b).signIn("github", profile(subject)),
            ),
            { concurrency: "unbounded" },
          );
          const ids = new Set(results.map((user) => user.id));
          expect(ids.size).toBe(1);
          expect(created.length).toBe(10);
          const [winner] = [...ids];
          // The users the losers made were never kept.
          for (const id of created) {
            expect(Option.isSome(yield* store.findUser(id))).toBe(id === winner);
          }
          expect(yield* a.accounts(winner as string)).toHaveLength(1);
        }),
    );

    it.scoped("check 32: provider tokens are sealed at rest: no token in the storage", () =>
      Effect.gen(function* () {
        const under = fresh();
        const store = yield* buildStore(under);
        const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET } });
        const access = `access-${randomUUID()}`;
        const refresh = `refresh-${randomUUID()}`;
        const subject = `go-${unique()}`;
        const ada = yield* users.signIn(
          "google",
          profile(subject),
          tokensOf(access, { refresh, expiresAt: 3_600_000 }),
        );
        const stored = Option.getOrThrow(yield* store.findAccount(ada.id, "google")).tokens;
        expect(stored?.accessToken).toMatch(/^v1\./);
        expect(stored?.refreshToken).toMatch(/^v1\./);
        expect(stored?.expiresAt).toBe(3_600_000);
        const raw = yield* under.raw(store, ada.id);
        expect(raw).toContain(subject);
        expect(raw).not.toContain(access);
        expect(raw).not.toContain(refresh);
        expect((yield* users.accounts(ada.id))[0]?.hasTokens).toBe(true);
        expect(Redacted.value(yield* users.providerToken(ada.id, "google"))).toBe(access);
      }),
    );

    it.scoped("check 32: a sealed token moved to another account's row does not open there", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET } });
        const ada = yield* users.signIn("google", profile(`go-${unique()}`), tokensOf("ada-token"));
        const eveSubject = `go-${unique()}`;
        const eve = yield* users.signIn("google", profile(eveSubject), tokensOf("eve-token"));
        const adaTokens = Option.getOrThrow(yield* store.findAccount(ada.id, "google")).tokens;
        yield* store.updateAccount("google", eveSubject, {
          email: undefined,
          verifiedEmail: undefined,
          tokens: adaTokens,
        });
        const error = yield* Effect.flip(users.providerToken(eve.id, "google"));
        expect(error).toMatchObject({ _tag: "ProviderTokenUnavailable", reason: "expired" });
      }),
    );

    it.scoped("check 32: an expired token is refreshed once for 10 concurrent callers", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const gate = yield* Deferred.make<void>();
        const { calls, refresh } = countingRefresh(
          () =>
            Effect.succeed(tokensOf("access-2", { refresh: "refresh-2", expiresAt: 7_200_000 })),
          gate,
        );
        const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET, refresh } });
        const ada = yield* users.signIn(
          "google",
          profile(`go-${unique()}`),
          tokensOf("access-1", { refresh: "refresh-1", expiresAt: 30_000 }),
        );
        const callers = yield* Effect.forkAll(
          Array.from({ length: 10 }, () => users.providerToken(ada.id, "google")),
        );
        // Let all ten reach the refresh before it answers.
        for (let i = 0; i < 20; i++) yield* Effect.yieldNow();
        yield* Deferred.succeed(gate, undefined);
        const tokens = yield* Fiber.join(callers);
        expect(tokens.map(Redacted.value)).toEqual(Array(10).fill("access-2"));
        expect(calls).toEqual([{ provider: "google", refreshToken: "refresh-1" }]);
        // Stored: the next caller needs no refresh, and the rotated refresh token is kept.
        expect(Redacted.value(yield* users.providerToken(ada.id, "google"))).toBe("access-2");
        yield* TestClock.adjust(7_200_000);
        yield* users.providerToken(ada.id, "google");
        expect(calls.map((call) => call.refreshToken)).toEqual(["refresh-1", "refresh-2"]);
      }),
    );

    it.scoped("a token expiring within a minute is refreshed; a valid one is not", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const { calls, refresh } = countingRefresh(() => Effect.succeed(tokensOf("fresh")));
        const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET, refresh } });
        const ada = yield* users.signIn(
          "google",
          profile(`go-${unique()}`),
          tokensOf("old", { refresh: "r", expiresAt: 61_000 }),
        );
        expect(Redacted.value(yield* users.providerToken(ada.id, "google"))).toBe("old");
        expect(calls).toHaveLength(0);
        yield* TestClock.adjust(1_000);
        expect(Redacted.value(yield* users.providerToken(ada.id, "google"))).toBe("fresh");
        expect(calls).toHaveLength(1);
        // No expiry (github OAuth apps): valid until the provider says otherwise.
        yield* TestClock.adjust(365 * 24 * 3_600_000);
        expect(Redacted.value(yield* users.providerToken(ada.id, "google"))).toBe("fresh");
        expect(calls).toHaveLength(1);
      }),
    );

    it.scoped("a refresh the provider rejects unlinks nothing: ProviderTokenUnavailable", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const { calls, refresh } = countingRefresh(() =>
          Effect.fail(new CodeRejected({ provider: "google", oauthError: "invalid_grant" })),
        );
        const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET, refresh } });
        const subject = `go-${unique()}`;
        const ada = yield* users.signIn(
          "google",
          profile(subject),
          tokensOf("old-access", { refresh: "revoked", expiresAt: 1_000 }),
        );
        const before = Option.getOrThrow(yield* store.findAccount(ada.id, "google"));
        const error = yield* Effect.flip(users.providerToken(ada.id, "google"));
        expect(error).toMatchObject({
          _tag: "ProviderTokenUnavailable",
          reason: "refresh-rejected",
        });
        expect(error.httpStatus).toBe(401);
        expect(JSON.stringify(error)).not.toContain("revoked");
        expect(Option.getOrThrow(yield* store.findAccount(ada.id, "google"))).toEqual(before);
        expect(yield* users.signIn("google", profile(subject))).toEqual(ada);
        // The claim ended: the next call tries again.
        yield* Effect.flip(users.providerToken(ada.id, "google"));
        expect(calls).toHaveLength(2);
      }),
    );

    it.scoped("a provider that cannot refresh now: refresh-failed (502), tokens kept", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const { refresh } = countingRefresh(() =>
          Effect.fail(new ProviderUnreachable({ provider: "google", status: 503 })),
        );
        const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET, refresh } });
        const ada = yield* users.signIn(
          "google",
          profile(`go-${unique()}`),
          tokensOf("a", { refresh: "r", expiresAt: 1_000 }),
        );
        const error = yield* Effect.flip(users.providerToken(ada.id, "google"));
        expect(error).toMatchObject({ reason: "refresh-failed" });
        expect(error.httpStatus).toBe(502);
        expect(Option.getOrThrow(yield* store.findAccount(ada.id, "google")).tokens).toBeDefined();
      }),
    );

    it.scoped("no token to give: not-stored, expired without a refresh token, not linked", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET } });
        const ada = yield* users.signIn("github", profile(`gh-${unique()}`));
        expect(yield* Effect.flip(users.providerToken(ada.id, "github"))).toMatchObject({
          reason: "not-stored",
        });
        yield* users.link(
          ada.id,
          "google",
          profile(`go-${unique()}`),
          tokensOf("a", { expiresAt: 1 }),
        );
        expect(yield* Effect.flip(users.providerToken(ada.id, "google"))).toMatchObject({
          reason: "expired",
        });
        expect(yield* Effect.flip(users.providerToken(ada.id, "twitter"))).toMatchObject({
          _tag: "AccountNotLinked",
        });
        // Without the tokens option, nothing is kept.
        const plain = yield* accountsOn(store);
        const bob = yield* plain.signIn(
          "google",
          profile(`go-${unique()}`),
          tokensOf("secret-token"),
        );
        expect(
          Option.getOrThrow(yield* store.findAccount(bob.id, "google")).tokens,
        ).toBeUndefined();
        expect(yield* Effect.flip(plain.providerToken(bob.id, "google"))).toMatchObject({
          reason: "not-stored",
        });
      }),
    );

    it.scoped("a sign-in's new tokens replace the stored ones, keeping a refresh token", () =>
      Effect.gen(function* () {
        const store = yield* buildStore(fresh());
        const { calls, refresh } = countingRefresh(() => Effect.succeed(tokensOf("refreshed")));
        const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET, refresh } });
        const subject = `go-${unique()}`;
        yield* users.signIn("google", profile(subject), tokensOf("first", { refresh: "keep-me" }));
        // google sends a refresh token at the first consent only.
        const ada = yield* users.signIn(
          "google",
          profile(subject),
          tokensOf("second", { expiresAt: 10 }),
        );
        yield* users.providerToken(ada.id, "google");
        expect(calls).toEqual([{ provider: "google", refreshToken: "keep-me" }]);
      }),
    );

    it.live("check 32: two instances on one store refresh an account once between them", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const store = yield* buildStore(fresh());
          const gate = yield* Deferred.make<void>();
          const { calls, refresh } = countingRefresh(
            () => Effect.succeed(tokensOf("new", { expiresAt: Date.now() + 3_600_000 })),
            gate,
          );
          const options = { tokens: { secret: TOKENS_SECRET, refresh } };
          const a = yield* accountsOn(store, options);
          const b = yield* accountsOn(store, options);
          const ada = yield* a.signIn(
            "google",
            profile(`go-${unique()}`),
            tokensOf("old", { refresh: "r", expiresAt: Date.now() - 1 }),
          );
          const callers = yield* Effect.forkAll(
            Array.from({ length: 10 }, (_, i) =>
              (i % 2 === 0 ? a : b).providerToken(ada.id, "google"),
            ),
          );
          yield* Effect.sleep("150 millis");
          yield* Deferred.succeed(gate, undefined);
          const tokens = yield* Fiber.join(callers);
          expect(tokens.map(Redacted.value)).toEqual(Array(10).fill("new"));
          expect(calls).toHaveLength(1);
        }),
      ),
    );
  });
