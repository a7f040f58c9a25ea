/**
 * The test users of the development identity provider: who can sign in on its page, and the
 * subject identifier each provider dialect gives them.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto";
import type { SupportedProvider } from "../oauth/SupportedProvider.js";

/**
 * A test user. `emailVerified: false` exercises the paths where a provider's address is not
 * proof of ownership (google and github mark it, microsoft's ID token says `xms_edov: false`,
 * facebook then sends none).
 *
 * @since 0.1.0
 * @category users
 */
export interface DevUser {
  /** A short key, unique among the users (`ada`): also the GitHub login and Twitter handle. */
  readonly key: string;
  readonly name: string;
  readonly email: string;
  readonly emailVerified: boolean;
}

/**
 * The users listed on the sign-in page when none are configured.
 *
 * @since 0.1.0
 * @category users
 */
export const defaultUsers: ReadonlyArray<DevUser> = [
  { key: "ada", name: "Ada Lovelace", email: "ada@example.com", emailVerified: true },
  { key: "grace", name: "Grace Hopper", email: "grace@example.com", emailVerified: true },
  { key: "alan", name: "Alan Turing", email: "alan@example.net", emailVerified: false },
];

const digits = (seed: string, length: number): string => {
  const hash = createHash("sha256").update(seed).digest();
  let out = "";
  for (const byte of hash) {
    if (out.length === length) break;
    out += String(byte % 10);
  }
  return out;
};

/**
 * The stable id a provider gives `user`, in that provider's format: google a 21-digit
 * `sub`, microsoft a pairwise base64url `sub`, github a number, facebook and twitter numeric
 * strings.
 *
 * @since 0.1.0
 * @category users
 */
export const subjectOf = (provider: SupportedProvider, user: DevUser): string => {
  const seed = `strata-devidp:${provider}:${user.key}`;
  switch (provider) {
    case "google":
      return `1${digits(seed, 20)}`;
    case "microsoft":
      return createHash("sha256").update(seed).digest("base64url");
    case "github":
      return String(Number.parseInt(digits(seed, 8), 10) + 1);
    case "facebook":
      return `10${digits(seed, 15)}`;
    case "twitter":
      return `1${digits(seed, 18)}`;
  }
};

/** Given and family name (the last word is the family name). @since 0.1.0 @category users */
export const nameParts = (user: DevUser): { readonly given: string; readonly family: string } => {
  const words = user.name.trim().split(/\s+/);
  return words.length < 2
    ? { given: user.name, family: "" }
    : { given: words.slice(0, -1).join(" "), family: words[words.length - 1] ?? "" };
};
