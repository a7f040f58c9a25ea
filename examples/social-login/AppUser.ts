// The app's user record, kept by effect-strata/accounts (an embedded SQLite file under `npm start`)
// with the provider accounts linked to it.
import * as Schema from "effect/Schema";
import type { NewUserContext } from "effect-strata/accounts";
import type { OAuthUser } from "effect-strata/oauth";

/** A user of the app: its record, whatever providers it signs in with. */
export const AppUser = Schema.Struct({
  id: Schema.String.annotations({ description: "The app's user id" }),
  name: Schema.String,
  email: Schema.optional(Schema.String),
  picture: Schema.optional(Schema.String),
  role: Schema.Literal("user", "admin"),
  tenantId: Schema.String,
});

/** A user of the app. */
export type AppUser = typeof AppUser.Type;

/** The record of a user signing in for the first time, from the provider's profile. */
export const newUser = (profile: OAuthUser, { id }: NewUserContext): AppUser => ({
  id,
  name: profile.name ?? "Anonymous", // the provider may not send a name
  ...(profile.email === undefined ? {} : { email: profile.email }),
  ...(profile.picture === undefined ? {} : { picture: profile.picture }),
  role: "user",
  tenantId: "default",
});
