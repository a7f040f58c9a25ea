/**
 * `effect-strata/accounts`: the app's users and the provider accounts linked to them. One `Accounts`
 * service on the Effect face (`AccountsModule.forRoot` and `AccountsService` on the classic
 * face): sign-in finds the user of `(provider, subject)` or creates one, a signed-in user links
 * more providers, accounts are listed and unlinked (never the last). User records are typed by
 * a Schema the app gives; they live in memory (tests), an embedded SQLite file or PostgreSQL
 * (`SqlAccountStore`). Provider tokens may be kept, sealed, and refreshed once at a time.
 *
 * @since 0.1.0
 */
import "../di/reflectMetadata.js";

export {
  type AccountRecord,
  AccountStore,
  AccountStoreError,
  type AccountStoreService,
  type AccountUpdate,
  type RemoveOutcome,
  type StoredTokens,
  type UserRecord,
  type UserWithAccount,
} from "./AccountStore.js";
export {
  Accounts,
  type AccountsApi,
  type AccountsTag,
  type AppUser,
  type LinkedAccount,
} from "./Accounts.js";
export * from "./AccountsError.js";
export {
  AccountsModule,
  type AccountsModuleOptions,
  type ClassicRefresh,
} from "./AccountsModule.js";
export type {
  AccountsOptions,
  NewUserContext,
  ProviderTokenOptions,
  RefreshProviderToken,
} from "./AccountsOptions.js";
export { AccountsService, type ClassicTokens } from "./AccountsService.js";
/**
 * The in-process `AccountStore`: users and their linked provider accounts in memory (development
 * and tests).
 *
 * @since 0.1.0
 */
export * as MemoryAccountStore from "./MemoryAccountStore.js";
/**
 * An `AccountStore` in SQL (`@effect/sql`): SQLite through `sqlite`, PostgreSQL through `pg`, or
 * any `SqlClient` through `layer`.
 *
 * @since 0.1.0
 */
export * as SqlAccountStore from "./SqlAccountStore.js";
