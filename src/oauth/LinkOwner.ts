import { hash } from "node:crypto";

/**
 * Who started a link, as kept in its transaction: a SHA-256 digest of the signed-in session's
 * data (its JSON, in its Schema's member order). The callback links only when the session it
 * comes with has the same digest: the same user, not one who signed in since in that browser.
 */
export const linkOwner = (sessionData: unknown): string =>
  hash("sha256", JSON.stringify(sessionData) ?? "", "base64url");
