// The SQL account store on an embedded SQLite file (libsql): the accounts contract, what the
// file holds, persistence across restarts, and files that cannot be opened.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Scope from "effect/Scope";
import Database from "libsql";
import { afterAll } from "vitest";
import { SqlAccountStore } from "../../src/accounts/index.js";
import {
  accountStoreContract,
  accountsOn,
  buildStore,
  profile,
  unique,
} from "./support/accountsContract.js";

const dir = mkdtempSync(join(tmpdir(), "strata-accounts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database file of its own, in a folder that does not exist yet. */
const freshFile = () => join(dir, unique(), "data", "accounts.db");

/** The file's bytes, write-ahead log included (recent commits live there until a checkpoint). */
const fileText = (filename: string) =>
  Effect.sync(() =>
    [filename, `${filename}-wal`]
      .map((file) => {
        try {
          return readFileSync(file).toString("latin1");
        } catch {
          return "";
        }
      })
      .join("\n"),
  );

accountStoreContract("SqlAccountStore.sqlite", () => {
  const filename = freshFile();
  return { layer: SqlAccountStore.sqlite({ filename }), raw: () => fileText(filename) };
});

describe("SqlAccountStore.sqlite", () => {
  it.effect(
    "users and accounts survive a restart (reopened, the migration does not run again)",
    () =>
      Effect.gen(function* () {
        const filename = freshFile();
        const subject = `gh-${unique()}`;
        const first = yield* Scope.make();
        const store = yield* buildStore({
          layer: SqlAccountStore.sqlite({ filename }),
          raw: () => Effect.succeed(""),
        }).pipe(Scope.extend(first));
        const users = yield* accountsOn(store).pipe(Scope.extend(first));
        const ada = yield* users.signIn("github", profile(subject, { name: "Ada" }));
        yield* users.link(ada.id, "google", profile(`go-${unique()}`));
        yield* Scope.close(first, Exit.void);

        const again = yield* Effect.scoped(
          Effect.gen(function* () {
            const reopened = yield* buildStore({
              layer: SqlAccountStore.sqlite({ filename }),
              raw: () => Effect.succeed(""),
            });
            const users = yield* accountsOn(reopened);
            return {
              user: yield* users.signIn("github", profile(subject)),
              accounts: yield* users.accounts(ada.id),
            };
          }),
        );
        expect(again.user).toEqual(ada);
        expect(again.accounts.map((account) => account.provider)).toEqual(["github", "google"]);
      }),
  );

  it.effect("a file that cannot be opened fails the start (StartupError), not a request", () =>
    Effect.gen(function* () {
      const notADatabase = join(dir, `${unique()}.db`);
      writeFileSync(notADatabase, "this is not a SQLite database, just some text ".repeat(100));
      for (const filename of [notADatabase, dir]) {
        const exit = yield* Effect.exit(
          Effect.scoped(Layer.build(SqlAccountStore.sqlite({ filename }))),
        );
        expect(Exit.isFailure(exit)).toBe(true);
        if (Exit.isFailure(exit)) {
          expect(String(exit.cause)).toContain("StartupError");
          expect(String(exit.cause)).toContain("SqlAccountStore.sqlite");
        }
      }
    }),
  );
});

describe("SqlAccountStore.sqlite, a database broken under it", () => {
  it.scoped("every operation fails with AccountStoreError (503), naming no user or email", () =>
    Effect.gen(function* () {
      const filename = freshFile();
      const store = yield* buildStore({
        layer: SqlAccountStore.sqlite({ filename }),
        raw: () => Effect.succeed(""),
      });
      const users = yield* accountsOn(store);
      const subject = `gh-${unique()}`;
      const ada = yield* users.signIn("github", profile(subject));
      // Another process drops the tables.
      const other = new Database(filename);
      other.exec("DROP TABLE strata_accounts; DROP TABLE strata_users");
      other.close();
      const email = `ada-${unique()}@example.com`;
      const failures = [
        yield* Effect.flip(users.signIn("github", profile(subject, { email }))),
        yield* Effect.flip(users.accounts(ada.id)),
        yield* Effect.flip(users.unlink(ada.id, "github")),
        yield* Effect.flip(users.user(ada.id)),
      ];
      for (const failure of failures) {
        expect(failure._tag).toBe("AccountStoreError");
        expect(failure.httpStatus).toBe(503);
        expect(failure.message).not.toContain(subject);
        expect(failure.message).not.toContain(email);
        expect(failure.message).not.toContain(ada.id);
      }
    }),
  );
});
