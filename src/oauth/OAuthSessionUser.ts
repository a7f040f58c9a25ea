/**
 * The session user the built-in routes sign in by default (`session: {}`): who the provider
 * says the user is, without tokens. An app with its own users gives `session.from` instead.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema";
import type { OAuthSignIn } from "./OAuthResult.js";

/**
 * The Schema of the default session data: `id` is `<provider>:<provider's user id>` (unique
 * across providers, and the `userId` of "sign out everywhere"); `email` only when the provider
 * marked it verified (SECURITY.md 37). Make the app's session with it:
 * `Session.make(OAuthSessionUser)`.
 *
 * @since 0.1.0
 * @category session
 */
export const OAuthSessionUser = Schema.Struct({
  id: Schema.String,
  provider: Schema.String,
  subject: Schema.String,
  name: Schema.optional(Schema.String),
  email: Schema.optional(Schema.String),
  picture: Schema.optional(Schema.String),
}).annotations({ identifier: "OAuthSessionUser", description: "The signed-in user" });

/**
 * The default session data.
 *
 * @since 0.1.0
 * @category session
 */
export type OAuthSessionUser = typeof OAuthSessionUser.Type;

/**
 * The {@link OAuthSessionUser} of a sign-in: its profile, no token, an unverified email left out.
 *
 * @since 0.1.0
 * @category session
 */
export const sessionUserOf = ({ provider, user }: OAuthSignIn): OAuthSessionUser => ({
  id: `${provider}:${user.id}`,
  provider,
  subject: user.id,
  ...(user.name === undefined ? {} : { name: user.name }),
  ...(user.email !== undefined && user.emailVerified === true ? { email: user.email } : {}),
  ...(user.picture === undefined ? {} : { picture: user.picture }),
});
