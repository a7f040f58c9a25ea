/**
 * A sign-in's input checked: the provider name and the profile's subject and email, with
 * typed failures for anything a store must not keep.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import type { OAuthUser } from "../../oauth/OAuthResult.js";
import { InvalidProfile } from "../AccountsError.js";

/** A provider name as Strata names providers: lower-case letters, digits, `-`, `_`. */
const PROVIDER = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** The longest provider subject kept (providers' ids are far shorter). */
const MAX_SUBJECT = 255;
/** The longest email address (RFC 5321's path limit). */
const MAX_EMAIL = 320;

/** A sign-in's input, checked. */
export interface Checked {
  readonly provider: string;
  readonly subject: string;
  readonly email: string | undefined;
  /** The email normalised, only when the provider marked it verified. */
  readonly verifiedEmail: string | undefined;
}

/** `provider` and `profile` checked: typed failures for anything a store must not keep. */
export const checkSignIn = (
  provider: string,
  profile: OAuthUser,
): Effect.Effect<Checked, InvalidProfile> => {
  if (typeof provider !== "string" || !PROVIDER.test(provider)) {
    return Effect.fail(new InvalidProfile({ provider: "", reason: "provider" }));
  }
  const subject: unknown = profile?.id;
  if (typeof subject !== "string" || subject.length === 0 || subject.length > MAX_SUBJECT) {
    return Effect.fail(new InvalidProfile({ provider, reason: "subject" }));
  }
  const email: unknown = profile.email;
  if (
    (email !== undefined && (typeof email !== "string" || email.length > MAX_EMAIL)) ||
    (email === undefined && profile.emailVerified === true)
  ) {
    return Effect.fail(new InvalidProfile({ provider, reason: "email" }));
  }
  // Only `true` is verified: a missing, false or odd value ("true", 1) never links (check 31).
  const verifiedEmail =
    typeof email === "string" && profile.emailVerified === true
      ? email.trim().toLowerCase()
      : undefined;
  return Effect.succeed({
    provider,
    subject,
    email,
    verifiedEmail: verifiedEmail === "" ? undefined : verifiedEmail,
  });
};
