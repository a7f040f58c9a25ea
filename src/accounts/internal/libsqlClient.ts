/**
 * An `@effect/sql` client for an embedded SQLite file, on `libsql` (SQLite with prebuilt
 * binaries: nothing to compile at install). One connection for the process, kept open:
 * statements are prepared once, transactions run on it one at a time (`BEGIN IMMEDIATE`),
 * and its pragmas hold for every statement.
 *
 * Why not `@effect/sql-libsql`: `@libsql/client` opens a new connection for every
 * transaction, and a new connection forgets `synchronous = NORMAL`, so each transaction paid a
 * connection and an fsync (16 ms a sign-up here, against 0.05 ms on one connection).
 *
 * @since 0.1.0
 */
import * as Reactivity from "@effect/experimental/Reactivity";
import * as Client from "@effect/sql/SqlClient";
import type { Connection } from "@effect/sql/SqlConnection";
import { SqlError } from "@effect/sql/SqlError";
import * as Statement from "@effect/sql/Statement";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Scope from "effect/Scope";
import Database from "libsql";

/** The most prepared statements kept (the account store has a dozen). */
const MAX_PREPARED = 200;

/**
 * The database `filename` (created when missing) with write-ahead logging, `synchronous =
 * NORMAL` (a commit is not fsynced: durable at the next checkpoint; a power loss may lose the
 * last commits, never corrupts the file), foreign keys on, and a 5 s busy timeout for other
 * processes on the same file.
 */
const open = (filename: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const db = new Database(filename, { timeout: 5_000 });
        db.exec("PRAGMA journal_mode = WAL");
        db.exec("PRAGMA synchronous = NORMAL");
        db.exec("PRAGMA foreign_keys = ON");
        return db;
      },
      catch: (cause) => new SqlError({ cause, message: `Failed to open the SQLite database` }),
    }),
    (db) => Effect.sync(() => db.close()),
  );

/** The connection over `db`: every statement runs synchronously, prepared once. */
const connectionOf = (db: InstanceType<typeof Database>): Connection => {
  const prepared = new Map<string, ReturnType<typeof db.prepare>>();
  const prepare = (sql: string) => {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      if (prepared.size >= MAX_PREPARED) prepared.clear();
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };
  const run = (sql: string, params: ReadonlyArray<unknown>, raw: boolean) =>
    Effect.try({
      try: (): ReadonlyArray<unknown> => {
        const statement = prepare(sql);
        if (raw) statement.raw(true);
        try {
          if (statement.reader) return statement.all([...params]);
          statement.run([...params]);
          return [];
        } finally {
          if (raw) statement.raw(false);
        }
      },
      catch: (cause) => new SqlError({ cause, message: "Failed to execute statement" }),
    });
  return {
    execute: (sql, params, transformRows) =>
      transformRows === undefined
        ? (run(sql, params, false) as Effect.Effect<ReadonlyArray<object>, SqlError>)
        : Effect.map(
            run(sql, params, false) as Effect.Effect<ReadonlyArray<object>, SqlError>,
            transformRows,
          ),
    executeRaw: (sql, params) => run(sql, params, false),
    executeValues: (sql, params) =>
      run(sql, params, true) as Effect.Effect<ReadonlyArray<ReadonlyArray<unknown>>, SqlError>,
    executeUnprepared: (sql, params, transformRows) =>
      transformRows === undefined
        ? (run(sql, params, false) as Effect.Effect<ReadonlyArray<object>, SqlError>)
        : Effect.map(
            run(sql, params, false) as Effect.Effect<ReadonlyArray<object>, SqlError>,
            transformRows,
          ),
    executeStream: () => Effect.dieMessage("executeStream is not implemented"),
  };
};

/**
 * The `SqlClient` of the SQLite database `filename`, closed with the layer's scope.
 *
 * @since 0.1.0
 * @category sql
 */
export const layer = (filename: string): Layer.Layer<Client.SqlClient, SqlError> =>
  Layer.scoped(
    Client.SqlClient,
    Effect.gen(function* () {
      const connection = connectionOf(yield* open(filename));
      // One statement or one transaction at a time on the one connection.
      const semaphore = yield* Effect.makeSemaphore(1);
      return yield* Client.make({
        acquirer: semaphore.withPermits(1)(Effect.succeed(connection)),
        // A transaction holds the connection until its scope closes (commit or rollback).
        transactionAcquirer: Effect.uninterruptibleMask((restore) =>
          Effect.as(
            Effect.zipRight(
              restore(semaphore.take(1)),
              Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release(1))),
            ),
            connection,
          ),
        ),
        beginTransaction: "BEGIN IMMEDIATE",
        compiler: Statement.makeCompilerSqlite(),
        spanAttributes: [["db.system.name", "sqlite"]],
      });
    }),
  ).pipe(Layer.provide(Reactivity.layer));
