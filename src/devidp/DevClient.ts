/**
 * Client registrations of the development identity provider, and client authentication at
 * its token endpoints: HTTP Basic (`client_secret_basic`) or form fields
 * (`client_secret_post`), as each real provider accepts, or a public client's bare
 * `client_id`.
 *
 * @since 0.1.0
 */
import { timingSafeEqual } from "node:crypto";
import * as Either from "effect/Either";
import * as Redacted from "effect/Redacted";
import type { SupportedProvider } from "../oauth/SupportedProvider.js";
import type { RequestParams } from "./RequestParams.js";

/**
 * One registered client. Without a secret it is a public client (only microsoft and twitter
 * have them; PKCE is then mandatory).
 *
 * @since 0.1.0
 * @category clients
 */
export interface DevClient {
  readonly clientId: string;
  readonly clientSecret?: string | Redacted.Redacted<string> | null;
  /** The one redirect URI registered for the client; requests must use it exactly. */
  readonly redirectUri: string;
}

/**
 * The registered clients, one per provider dialect served.
 *
 * @since 0.1.0
 * @category clients
 */
export type DevClients = { readonly [P in SupportedProvider]?: DevClient };

/**
 * How a client may authenticate at a dialect's token endpoint.
 *
 * @since 0.1.0
 * @category clients
 */
export type ClientAuthMethod = "client_secret_basic" | "client_secret_post";

/** Why client authentication failed (an `invalid_client` answer). @since 0.1.0 @category clients */
export interface ClientAuthFailure {
  readonly description: string;
}

const sameSecret = (expected: string, actual: string): boolean => {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
};

const toSecret = (client: DevClient): Redacted.Redacted<string> =>
  typeof client.clientSecret === "string"
    ? Redacted.make(client.clientSecret)
    : (client.clientSecret as Redacted.Redacted<string>);

/** `client_id:client_secret` of a Basic header (each form-decoded, RFC 6749 2.3.1). */
const basicCredentials = (
  header: string | undefined,
): { readonly id: string; readonly secret: string } | undefined => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const unform = (value: string) => {
    try {
      return decodeURIComponent(value.replaceAll("+", " "));
    } catch {
      return value;
    }
  };
  return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
};

/**
 * Authenticates the client of a token request for `provider`: exactly one method, one the
 * dialect accepts, naming the registered client with its secret; a public client sends only
 * its `client_id`. Returns the client on success.
 *
 * @since 0.1.0
 * @category clients
 */
export const authenticateClient = (
  clients: DevClients,
  provider: SupportedProvider,
  methods: ReadonlyArray<ClientAuthMethod>,
  authorization: string | undefined,
  body: RequestParams,
): Either.Either<DevClient, ClientAuthFailure> => {
  const client = clients[provider];
  const fail = (description: string) => Either.left({ description });
  if (client === undefined) return fail("No client is registered for this provider");
  const basic = basicCredentials(authorization);
  const postedId = body.get("client_id");
  const postedSecret = body.get("client_secret");
  if (basic !== undefined && postedSecret !== undefined) {
    return fail("Use one client authentication method, not two");
  }
  const secret = client.clientSecret == null ? undefined : Redacted.value(toSecret(client));
  if (secret === undefined) {
    // A public client: its id only, no credentials.
    if (basic !== undefined || postedSecret !== undefined) {
      return fail("This is a public client: send client_id only");
    }
    return postedId === client.clientId ? Either.right(client) : fail("Unknown client_id");
  }
  if (basic !== undefined) {
    if (!methods.includes("client_secret_basic")) {
      return fail("HTTP Basic client authentication is not accepted here");
    }
    if (postedId !== undefined && postedId !== basic.id) return fail("client_id mismatch");
    return basic.id === client.clientId && sameSecret(secret, basic.secret)
      ? Either.right(client)
      : fail("Invalid client credentials");
  }
  if (postedSecret !== undefined) {
    if (!methods.includes("client_secret_post")) {
      return fail("Send the client credentials in an HTTP Basic header");
    }
    return postedId === client.clientId && sameSecret(secret, postedSecret)
      ? Either.right(client)
      : fail("Invalid client credentials");
  }
  return fail("Client authentication is required");
};

/** `true` for a public client (registered without a secret). @since 0.1.0 @category clients */
export const isPublicClient = (client: DevClient): boolean => client.clientSecret == null;
