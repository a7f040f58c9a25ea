// The Accounts service on the Effect face, beyond the store contract: its accessors, refreshes
// through the OAuthProviders in context, and the app's mistakes (a short tokens secret, a
// createUser record without an id or off its Schema, stored records the Schema no longer reads).
import { describe, expect, it } from "@effect/vitest";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import {
  AccountStore,
  Accounts,
  isAccountsError,
  MemoryAccountStore,
} from "../../src/accounts/index.js";
import { OAuthProviders } from "../../src/oauth/index.js";
import type { OAuthProviderService } from "../../src/oauth/OAuthProvider.js";
import {
  accountsOn,
  buildStore,
  profile,
  TOKENS_SECRET,
  tokensOf,
  User,
  Users,
  unique,
} from "./support/accountsContract.js";

const memory = { layer: MemoryAccountStore.layer(), raw: () => Effect.succeed("") };

/** A provider of the registry; `refresh` given when it can refresh. */
const providerNamed = (
  name: string,
  refresh?: OAuthProviderService["refreshToken"],
): OAuthProviderService =>
  ({ name, ...(refresh === undefined ? {} : { refreshToken: refresh }) }) as OAuthProviderService;

describe("Accounts", () => {
  it.scoped("the typed tag's accessors reach the service in context", () =>
    Effect.gen(function* () {
      const subject = `gh-${unique()}`;
      const program = Effect.gen(function* () {
        const ada = yield* Users.signIn("github", profile(subject, { name: "Ada" }));
        yield* Users.link(ada.id, "google", profile(`go-${unique()}`));
        yield* Users.unlink(ada.id, "google");
        yield* Users.updateUser({ ...ada, name: "Countess" });
        const accounts = yield* Users.accounts(ada.id);
        const user = yield* Users.user(ada.id);
        const token = yield* Effect.flip(Users.providerToken(ada.id, "github"));
        return { accounts, user, token };
      });
      const result = yield* program.pipe(
        Effect.provide(
          Users.layer({ createUser: (user, { id }) => ({ id, name: user.name ?? "" }) }).pipe(
            Layer.provide(MemoryAccountStore.layer()),
          ),
        ),
      );
      expect(result.accounts.map((account) => account.provider)).toEqual(["github"]);
      expect(Option.getOrThrow(result.user).name).toBe("Countess");
      expect(result.token).toMatchObject({
        _tag: "ProviderTokenUnavailable",
        reason: "not-stored",
      });
      expect(isAccountsError(result.token)).toBe(true);
      expect(isAccountsError(new Error("x"))).toBe(false);
    }),
  );

  it.scoped("by default, a token is refreshed through the OAuthProviders in context", () =>
    Effect.gen(function* () {
      const store = yield* buildStore(memory);
      const seen: Array<string> = [];
      const registry = OAuthProviders.make([
        providerNamed("google", (refreshToken) =>
          Effect.sync(() => {
            seen.push(Redacted.value(refreshToken));
            return tokensOf("from-google", { expiresAt: 3_600_000 });
          }),
        ),
        providerNamed("github"),
      ]);
      const users = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET } }).pipe(
        Effect.provideService(OAuthProviders, registry),
      );
      const expired = tokensOf("old", { refresh: "r-1", expiresAt: 1 });
      const ada = yield* users.signIn("google", profile(`go-${unique()}`), expired);
      expect(Redacted.value(yield* users.providerToken(ada.id, "google"))).toBe("from-google");
      expect(seen).toEqual(["r-1"]);
      // A provider that cannot refresh, and one that is not configured: the token is expired.
      yield* users.link(ada.id, "github", profile(`gh-${unique()}`), expired);
      yield* users.link(ada.id, "twitter", profile(`tw-${unique()}`), expired);
      for (const provider of ["github", "twitter"]) {
        expect(yield* Effect.flip(users.providerToken(ada.id, provider))).toMatchObject({
          reason: "expired",
        });
      }
      // Without OAuthProviders in context, nothing refreshes.
      const alone = yield* accountsOn(store, { tokens: { secret: TOKENS_SECRET } });
      const bob = yield* alone.signIn("google", profile(`go-${unique()}`), expired);
      expect(yield* Effect.flip(alone.providerToken(bob.id, "google"))).toMatchObject({
        reason: "expired",
      });
    }),
  );

  it.scoped("a tokens secret shorter than 32 characters fails the start", () =>
    Effect.gen(function* () {
      const store = yield* buildStore(memory);
      const exit = yield* Effect.exit(accountsOn(store, { tokens: { secret: "too-short" } }));
      expect(Exit.isFailure(exit)).toBe(true);
      if (Exit.isFailure(exit)) {
        const error = Option.getOrThrow(Cause.failureOption(exit.cause));
        expect(error).toMatchObject({ _tag: "StartupError" });
        expect(error.message).toContain("at least 32 characters");
        expect(error.message).not.toContain("too-short");
      }
    }),
  );

  it.scoped("a createUser record without a string id, or off its Schema, is a defect", () =>
    Effect.gen(function* () {
      const store = yield* buildStore(memory);
      const noId = yield* accountsOn(store, {
        createUser: () => ({ name: "no id" }) as unknown as User,
      });
      const noIdExit = yield* Effect.exit(noId.signIn("github", profile(`gh-${unique()}`)));
      expect(Exit.isFailure(noIdExit) && Cause.isDie(noIdExit.cause)).toBe(true);
      expect(String(Exit.isFailure(noIdExit) && Cause.squash(noIdExit.cause))).toContain(
        "createUser must return a record whose `id` is a non-empty string",
      );
      const offSchema = yield* accountsOn(store, {
        createUser: (_, { id }) => ({ id, name: 42 }) as unknown as User,
      });
      const subject = `gh-${unique()}`;
      const offExit = yield* Effect.exit(offSchema.signIn("github", profile(subject)));
      expect(Exit.isFailure(offExit) && Cause.isDie(offExit.cause)).toBe(true);
      expect(String(Exit.isFailure(offExit) && Cause.squash(offExit.cause))).toContain(
        "does not match its Schema",
      );
      expect(Option.isNone(yield* store.findByAccount("github", subject))).toBe(true);
    }),
  );

  it.scoped("a stored record the Schema no longer reads is a defect naming the fix", () =>
    Effect.gen(function* () {
      const store = yield* buildStore(memory);
      const before = yield* accountsOn(store);
      const subject = `gh-${unique()}`;
      const ada = yield* before.signIn("github", profile(subject));
      // The app's Schema changed: a new required field.
      const Stricter = Accounts.make(Schema.Struct({ ...User.fields, plan: Schema.String }));
      const after = yield* Stricter.layer({
        createUser: (_, { id }) => ({ id, name: "", plan: "free" }),
      }).pipe(
        Layer.provide(Layer.succeed(AccountStore, store)),
        Layer.build,
        Effect.map((context) => Layer.succeedContext(context)),
      );
      const exit = yield* Effect.exit(
        Effect.flatMap(Stricter, (accounts) => accounts.user(ada.id)).pipe(Effect.provide(after)),
      );
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true);
      expect(String(Exit.isFailure(exit) && Cause.squash(exit.cause))).toContain(
        "migrate the stored records",
      );
    }),
  );
});
