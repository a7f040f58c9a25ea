/**
 * The account store on `@effect/sql`'s `SqlClient` (SQLite and PostgreSQL alike), and its
 * migration. Loaded by `SqlAccountStore` when its layer is built, so that `@effect/sql` is
 * loaded only by apps that store accounts in SQL.
 *
 * @since 0.1.0
 */
import * as Migrator from "@effect/sql/Migrator";
import * as SqlClient from "@effect/sql/SqlClient";
import type { SqlError } from "@effect/sql/SqlError";
import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import { StartupError } from "../../di/StartupError.js";
import {
  type AccountRecord,
  AccountStoreError,
  type AccountStoreService,
  type StoredTokens,
  type UserRecord,
} from "../AccountStore.js";

/** The table that records which of these migrations ran (apart from the app's own). */
const MIGRATIONS_TABLE = "strata_accounts_migrations";

/**
 * The schema, one migration per change (never edit one that shipped: add the next). Plain SQL
 * that SQLite and PostgreSQL both run. Times are epoch milliseconds; tokens are sealed text.
 */
export const migrations = {
  "1_users_and_accounts": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    yield* sql`CREATE TABLE strata_users (
      id TEXT PRIMARY KEY,
      data TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`;
    yield* sql`CREATE TABLE strata_accounts (
      provider TEXT NOT NULL,
      subject TEXT NOT NULL,
      user_id TEXT NOT NULL REFERENCES strata_users (id) ON DELETE CASCADE,
      email TEXT,
      verified_email TEXT,
      access_token TEXT,
      refresh_token TEXT,
      expires_at BIGINT,
      scopes TEXT,
      refresh_claimed_until BIGINT,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (provider, subject),
      UNIQUE (user_id, provider)
    )`;
    yield* sql`CREATE INDEX strata_accounts_verified_email ON strata_accounts (verified_email)`;
  }),
};

/** An account row (PostgreSQL gives `BIGINT`s as strings). */
interface AccountRow {
  readonly provider: string;
  readonly subject: string;
  readonly user_id: string;
  readonly email: string | null;
  readonly verified_email: string | null;
  readonly access_token: string | null;
  readonly refresh_token: string | null;
  readonly expires_at: string | number | null;
  readonly scopes: string | null;
  readonly created_at: string | number;
}

/** A user row. */
interface UserRow {
  readonly id: string;
  readonly data: string;
  readonly created_at: string | number;
}

/** An account row joined with its user's. */
interface JoinedRow extends AccountRow {
  readonly user_data: string;
  readonly user_created_at: string | number;
}

const ACCOUNT_COLUMNS =
  "provider, subject, user_id, email, verified_email, access_token, refresh_token, expires_at, scopes, created_at";

const orNull = <A>(value: A | undefined): A | null => (value === undefined ? null : value);

const tokensOf = (row: AccountRow): StoredTokens | undefined =>
  row.access_token === null
    ? undefined
    : {
        accessToken: row.access_token,
        refreshToken: row.refresh_token ?? undefined,
        expiresAt: row.expires_at === null ? undefined : Number(row.expires_at),
        scopes: row.scopes === null ? undefined : row.scopes.split(" "),
      };

const accountOf = (row: AccountRow): AccountRecord => ({
  provider: row.provider,
  subject: row.subject,
  userId: row.user_id,
  email: row.email ?? undefined,
  verifiedEmail: row.verified_email ?? undefined,
  tokens: tokensOf(row),
  createdAt: Number(row.created_at),
});

const userOf = (row: UserRow): UserRecord => ({
  id: row.id,
  data: JSON.parse(row.data),
  createdAt: Number(row.created_at),
});

/** The token columns' values (all null without tokens). */
const tokenColumns = (tokens: StoredTokens | undefined) => ({
  access_token: orNull(tokens?.accessToken),
  refresh_token: orNull(tokens?.refreshToken),
  expires_at: orNull(tokens?.expiresAt),
  scopes:
    tokens?.scopes === undefined || tokens.scopes.length === 0 ? null : tokens.scopes.join(" "),
});

/** Ends a transaction with a rollback, its outcome `false`. */
class Refused extends Data.TaggedError("Refused") {}

const failed =
  (operation: string) =>
  (cause: SqlError): AccountStoreError =>
    new AccountStoreError({ message: `SqlAccountStore: ${operation} failed`, cause });

/**
 * The store on the `SqlClient` in context, after running the migrations that have not run
 * (under `@effect/sql`'s Migrator, in its own table {@link MIGRATIONS_TABLE}).
 */
export const make: Effect.Effect<AccountStoreService, StartupError, SqlClient.SqlClient> =
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    yield* Migrator.make({})({
      loader: Migrator.fromRecord(migrations),
      table: MIGRATIONS_TABLE,
    }).pipe(
      // Two instances creating the migrations table at once: the second try finds it.
      Effect.retry({ times: 2 }),
      Effect.mapError(
        (cause) => new StartupError({ message: "SqlAccountStore: the migration failed", cause }),
      ),
    );

    const insertAccount = (account: AccountRecord) => {
      const tokens = tokenColumns(account.tokens);
      return sql<{ provider: string }>`INSERT INTO strata_accounts ${sql.insert({
        provider: account.provider,
        subject: account.subject,
        user_id: account.userId,
        email: orNull(account.email),
        verified_email: orNull(account.verifiedEmail),
        ...tokens,
        created_at: account.createdAt,
      })} ON CONFLICT DO NOTHING RETURNING provider`;
    };

    return {
      findByAccount: (provider, subject) =>
        sql<JoinedRow>`SELECT a.provider, a.subject, a.user_id, a.email, a.verified_email,
            a.access_token, a.refresh_token, a.expires_at, a.scopes, a.created_at,
            u.data AS user_data, u.created_at AS user_created_at
          FROM strata_accounts a JOIN strata_users u ON u.id = a.user_id
          WHERE a.provider = ${provider} AND a.subject = ${subject}`.pipe(
          Effect.map((rows) => {
            const row = rows[0];
            return row === undefined
              ? Option.none()
              : Option.some({
                  user: userOf({
                    id: row.user_id,
                    data: row.user_data,
                    created_at: row.user_created_at,
                  }),
                  account: accountOf(row),
                });
          }),
          Effect.mapError(failed("findByAccount")),
        ),
      findUsersByVerifiedEmail: (verifiedEmail) =>
        sql<UserRow>`SELECT DISTINCT u.id, u.data, u.created_at
          FROM strata_accounts a JOIN strata_users u ON u.id = a.user_id
          WHERE a.verified_email = ${verifiedEmail}`.pipe(
          Effect.map((rows) => rows.map(userOf)),
          Effect.mapError(failed("findUsersByVerifiedEmail")),
        ),
      findUser: (id) =>
        sql<UserRow>`SELECT id, data, created_at FROM strata_users WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), userOf)),
          Effect.mapError(failed("findUser")),
        ),
      findAccount: (userId, provider) =>
        sql<AccountRow>`SELECT ${sql.literal(ACCOUNT_COLUMNS)} FROM strata_accounts
          WHERE user_id = ${userId} AND provider = ${provider}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), accountOf)),
          Effect.mapError(failed("findAccount")),
        ),
      listAccounts: (userId) =>
        sql<AccountRow>`SELECT ${sql.literal(ACCOUNT_COLUMNS)} FROM strata_accounts
          WHERE user_id = ${userId} ORDER BY created_at, provider`.pipe(
          Effect.map((rows) => rows.map(accountOf)),
          Effect.mapError(failed("listAccounts")),
        ),
      createUser: (user, account) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const created = yield* sql`INSERT INTO strata_users ${sql.insert({
                id: user.id,
                data: JSON.stringify(user.data),
                created_at: user.createdAt,
              })} ON CONFLICT DO NOTHING RETURNING id`;
              if (created.length === 0) return yield* new Refused();
              // A concurrent first sign-in linked the account first: undo the user too.
              if ((yield* insertAccount(account)).length === 0) return yield* new Refused();
              return true;
            }),
          )
          .pipe(
            Effect.catchTag("Refused", () => Effect.succeed(false)),
            Effect.mapError(failed("createUser")),
          ),
      insertAccount: (account) =>
        insertAccount(account).pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.mapError(failed("insertAccount")),
        ),
      updateUser: (id, data) =>
        sql`UPDATE strata_users SET data = ${JSON.stringify(data)} WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.mapError(failed("updateUser")),
        ),
      updateAccount: (provider, subject, update) =>
        sql`UPDATE strata_accounts SET ${sql.update({
          email: orNull(update.email),
          verified_email: orNull(update.verifiedEmail),
          ...(update.tokens === undefined ? {} : tokenColumns(update.tokens)),
        })} WHERE provider = ${provider} AND subject = ${subject}`.pipe(
          Effect.asVoid,
          Effect.mapError(failed("updateAccount")),
        ),
      removeAccount: (userId, provider) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              // PostgreSQL: the user's row locked, so two unlinks of one user take turns
              // (SQLite's BEGIN IMMEDIATE already serialises writers).
              yield* sql.onDialectOrElse({
                pg: () => sql`SELECT id FROM strata_users WHERE id = ${userId} FOR UPDATE`,
                orElse: () => Effect.void,
              });
              const rows = yield* sql<{
                provider: string;
              }>`SELECT provider FROM strata_accounts WHERE user_id = ${userId}`;
              if (!rows.some((row) => row.provider === provider)) return "missing" as const;
              if (rows.length <= 1) return "last" as const;
              yield* sql`DELETE FROM strata_accounts WHERE user_id = ${userId} AND provider = ${provider}`;
              return "removed" as const;
            }),
          )
          .pipe(Effect.mapError(failed("removeAccount"))),
      claimRefresh: (provider, subject, now, until) =>
        sql`UPDATE strata_accounts SET refresh_claimed_until = ${until}
          WHERE provider = ${provider} AND subject = ${subject}
            AND (refresh_claimed_until IS NULL OR refresh_claimed_until <= ${now})
          RETURNING provider`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.mapError(failed("claimRefresh")),
        ),
      releaseRefresh: (provider, subject, until, tokens) =>
        (tokens === undefined
          ? sql`UPDATE strata_accounts SET refresh_claimed_until = NULL
              WHERE provider = ${provider} AND subject = ${subject}
                AND refresh_claimed_until = ${until}`
          : sql`UPDATE strata_accounts SET ${sql.update(tokenColumns(tokens))},
              refresh_claimed_until = CASE WHEN refresh_claimed_until = ${until}
                THEN NULL ELSE refresh_claimed_until END
              WHERE provider = ${provider} AND subject = ${subject}`
        ).pipe(Effect.asVoid, Effect.mapError(failed("releaseRefresh"))),
    } satisfies AccountStoreService;
  });
