/**
 * The SQL account store, through `@effect/sql`: two tables beside the app's own, created by
 * its own migration at startup (`@effect/sql`'s Migrator, recorded in the table
 * `strata_accounts_migrations`, apart from the app's migrations):
 *
 * - `strata_users (id TEXT PRIMARY KEY, data TEXT, created_at BIGINT)`: the app's user record
 *   as JSON (its Schema's encoded form);
 * - `strata_accounts (provider, subject, user_id, email, verified_email, access_token,
 *   refresh_token, expires_at, scopes, refresh_claimed_until, created_at)`, primary key
 *   `(provider, subject)`, unique `(user_id, provider)`, indexed by `verified_email`; tokens
 *   are sealed (AES-256-GCM) before they reach it.
 *
 * Three ways in: {@link sqlite} (an embedded SQLite file, on `libsql`), {@link pg}
 * (PostgreSQL, on `@effect/sql-pg`), or {@link layer} on any `SqlClient` the app provides.
 * Each client is loaded when its layer is built, so only the one in use must be installed.
 *
 * @since 0.1.0
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type * as SqlClient from "@effect/sql/SqlClient";
import type * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import { StartupError } from "../di/StartupError.js";
import { AccountStore } from "./AccountStore.js";

/** `load()`, or a startup failure saying which package to install. */
const load = <A>(load: () => Promise<A>, what: string, install: string) =>
  Effect.tryPromise({
    try: load,
    catch: (cause) =>
      new StartupError({
        message: `${what} needs ${install}: run \`npm install ${install}\``,
        cause,
      }),
  });

/** A client's startup failure (a database that cannot be opened or reached). */
const startupError = (what: string) => (cause: unknown) =>
  cause instanceof StartupError
    ? cause
    : new StartupError({ message: `${what}: the database cannot be opened`, cause });

/**
 * The store on the `SqlClient` in context (SQLite or PostgreSQL dialect), after running its
 * migration.
 *
 * @example
 * import { PgClient } from "@effect/sql-pg";
 * import { Layer, Redacted } from "effect";
 * import { SqlAccountStore } from "effect-strata/accounts";
 *
 * const Store = SqlAccountStore.layer.pipe(
 *   Layer.provide(PgClient.layer({ url: Redacted.make(process.env.DATABASE_URL ?? "") })),
 * );
 *
 * @since 0.1.0
 * @category store
 */
export const layer: Layer.Layer<AccountStore, StartupError, SqlClient.SqlClient> = Layer.effect(
  AccountStore,
  Effect.flatMap(
    load(() => import("./internal/sqlStore.js"), "SqlAccountStore", "@effect/sql"),
    (store) => store.make,
  ),
);

/**
 * Options of {@link sqlite}.
 *
 * @since 0.1.0
 * @category store
 */
export interface SqliteAccountStoreOptions {
  /**
   * The database file, created with its folder when missing (`:memory:` for a database that
   * ends with the process). Keep it out of git, and out of the web root.
   */
  readonly filename: string;
}

/**
 * The store in an embedded SQLite file (the demo's default): one connection for the process,
 * write-ahead logging, `synchronous = NORMAL` (a commit is durable at the next checkpoint: a
 * power loss may lose the last sign-ups, never corrupts the file). Needs `libsql`.
 * Several processes may share the file; several hosts need {@link pg}.
 *
 * @since 0.1.0
 * @category store
 */
export const sqlite = (
  options: SqliteAccountStoreOptions,
): Layer.Layer<AccountStore, StartupError> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const client = yield* load(
        () => import("./internal/libsqlClient.js"),
        "SqlAccountStore.sqlite",
        "libsql",
      );
      if (options.filename !== ":memory:") {
        yield* Effect.try({
          try: () => mkdirSync(dirname(options.filename), { recursive: true }),
          catch: startupError("SqlAccountStore.sqlite"),
        });
      }
      return layer.pipe(
        Layer.provide(client.layer(options.filename)),
        Layer.mapError(startupError("SqlAccountStore.sqlite")),
      );
    }),
  );

/**
 * Options of {@link pg}: where the server is, and the pool.
 *
 * @since 0.1.0
 * @category store
 */
export interface PgAccountStoreOptions {
  /** `postgres://user:password@host:port/database`; keep it `Redacted` (it holds a password). */
  readonly url: string | Redacted.Redacted<string>;
  /** The pool's largest size (default: `@effect/sql-pg`'s, 10). */
  readonly maxConnections?: number;
  /** How long connecting may take (default: `@effect/sql-pg`'s). */
  readonly connectTimeout?: Duration.DurationInput;
  /** TLS to the server. */
  readonly ssl?: boolean;
}

/**
 * The store in PostgreSQL, shared by every instance of the app. Needs `@effect/sql-pg`.
 *
 * @since 0.1.0
 * @category store
 */
export const pg = (options: PgAccountStoreOptions): Layer.Layer<AccountStore, StartupError> =>
  Layer.unwrapEffect(
    Effect.map(
      load(() => import("@effect/sql-pg/PgClient"), "SqlAccountStore.pg", "@effect/sql-pg"),
      (PgClient) =>
        layer.pipe(
          Layer.provide(
            PgClient.layer({
              url: Redacted.isRedacted(options.url) ? options.url : Redacted.make(options.url),
              ...(options.maxConnections === undefined
                ? {}
                : { maxConnections: options.maxConnections }),
              ...(options.connectTimeout === undefined
                ? {}
                : { connectTimeout: options.connectTimeout }),
              ...(options.ssl === undefined ? {} : { ssl: options.ssl }),
            }),
          ),
          Layer.mapError(startupError("SqlAccountStore.pg")),
        ),
    ),
  );
