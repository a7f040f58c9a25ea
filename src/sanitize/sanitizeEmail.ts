import { loadIsEmail } from "./loadValidator.js";

/**
 * An email address, trimmed, when `validator`'s `isEmail` accepts it with its defaults (a
 * plain `local@domain.tld`: no display name, no IP-literal domain, at most 254 characters,
 * the local part at most 64), with the domain lower-cased (the local part is kept as given:
 * it may be case-sensitive); otherwise `""`. No provider-specific rewriting (dots or `+tags`
 * of Gmail addresses are kept).
 *
 * @since 0.1.0
 * @category sanitize
 */
export const sanitizeEmail = (input: string): string => {
  const email = input.trim();
  if (!loadIsEmail()(email)) return "";
  const at = email.lastIndexOf("@");
  return `${email.slice(0, at)}@${email.slice(at + 1).toLowerCase()}`;
};
