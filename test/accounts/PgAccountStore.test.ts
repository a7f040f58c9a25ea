// The SQL account store on PostgreSQL (@effect/sql-pg), against the real server of the test run
// (see test/support/postgres.ts): the accounts contract in a database of this file's own, what
// the rows hold, and a server that cannot be reached.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import { beforeAll, inject } from "vitest";
import { SqlAccountStore } from "../../src/accounts/index.js";
import { freePort } from "../support/freePort.js";
import { ensurePostgres, postgresUrl, startedPostgres } from "../support/postgres.js";
import { accountStoreContract } from "./support/accountsContract.js";

let url = "";

/** `query`'s rows as text, through psql. */
const psql = (database: string, query: string) =>
  execFileSync(join(ensurePostgres(), "psql"), [database, "-XtAc", query], { encoding: "utf8" });

beforeAll(async () => {
  const place = inject("postgres");
  if ("error" in place) throw new Error(`No PostgreSQL for the PostgreSQL tests: ${place.error}`);
  await startedPostgres(place);
  const name = `strata_accounts_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  psql(postgresUrl(place), `CREATE DATABASE ${name}`);
  url = postgresUrl(place, name);
}, 120_000);

accountStoreContract("SqlAccountStore.pg", () => ({
  layer: SqlAccountStore.pg({ url }),
  raw: () =>
    Effect.sync(() =>
      psql(
        url,
        "SELECT row_to_json(a)::text FROM strata_accounts a; SELECT row_to_json(u)::text FROM strata_users u",
      ),
    ),
}));

describe("SqlAccountStore.pg", () => {
  it.effect("the schema: (provider, subject) is the key, one account per provider and user", () =>
    Effect.gen(function* () {
      yield* Effect.scoped(Layer.build(SqlAccountStore.pg({ url })));
      const constraints = psql(
        url,
        "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'strata_accounts'::regclass ORDER BY 1",
      );
      expect(constraints).toContain("PRIMARY KEY (provider, subject)");
      expect(constraints).toContain("UNIQUE (user_id, provider)");
      expect(constraints).toContain("REFERENCES strata_users(id) ON DELETE CASCADE");
      expect(psql(url, "SELECT migration_id, name FROM strata_accounts_migrations").trim()).toBe(
        "1|users_and_accounts",
      );
    }),
  );

  it.live("a server that cannot be reached fails the start (StartupError)", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(() => freePort());
      const exit = yield* Effect.exit(
        Effect.scoped(
          Layer.build(
            SqlAccountStore.pg({
              url: `postgres://strata@127.0.0.1:${port}/postgres`,
              connectTimeout: "2 seconds",
            }),
          ),
        ),
      );
      expect(Exit.isFailure(exit)).toBe(true);
      if (Exit.isFailure(exit)) {
        expect(String(exit.cause)).toContain("StartupError");
        expect(String(exit.cause)).toContain("SqlAccountStore.pg");
      }
    }),
  );
});
