// An OpenID provider nobody here wrote: `oidc-provider` (a certified OpenID Connect server) on
// loopback, with one test account whose login and consent are completed programmatically,
// and a small browser stand-in that follows redirects with a cookie jar.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type ClientMetadata } from "oidc-provider";

/** The test account every login signs in as. */
export const ACCOUNT = {
  sub: "ada",
  name: "Ada Lovelace",
  email: "ada@example.com",
  email_verified: true,
  picture: "https://example.com/ada.png",
} as const;

/** A running oidc-provider. */
export interface RunningIssuer {
  readonly issuer: string;
  readonly provider: Provider;
  readonly close: () => Promise<void>;
}

const listen = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });

/** A free loopback port (the app's, needed before it starts: its redirect URIs name it). */
export { freePort } from "../support/freePort.js";

/**
 * Starts oidc-provider on a free loopback port with `clients`. PKCE is required of every
 * client; userinfo lives at `/v1/userinfo` (so an endpoint-overridden google provider, whose
 * profile path is `/v1/userinfo` under its API base, finds it at the issuer's root).
 * Interactions are answered by the test itself: login as {@link ACCOUNT}, consent to what is
 * asked.
 */
export const startIssuer = async (
  clients: ReadonlyArray<ClientMetadata>,
): Promise<RunningIssuer> => {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "e2e", alg: "RS256", use: "sig" };
  let handle: (req: IncomingMessage, res: ServerResponse) => void = () => {};
  const server = createServer((req, res) => handle(req, res));
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [...clients],
    jwks: { keys: [jwk] },
    cookies: { keys: ["e2e-cookie-key-0123456789"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ ...ACCOUNT, sub: id }),
    }),
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
      Grant: 600,
      Interaction: 600,
      Session: 600,
    },
    routes: { userinfo: "/v1/userinfo" },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const callback = provider.callback();
  handle = (req, res) => {
    if (req.url?.startsWith("/interaction/") === true) {
      interact(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    callback(req, res);
  };
  return {
    issuer,
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The interaction of a test user: log in as the test account, then grant what is asked. */
const interact = async (
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> => {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: ACCOUNT.sub } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const accountId = details.session?.accountId ?? ACCOUNT.sub;
  const grant =
    details.grantId === undefined
      ? new provider.Grant({ accountId, clientId: String(details.params.client_id) })
      : await provider.Grant.find(details.grantId);
  if (grant === undefined) throw new Error("grant not found");
  const missing = details.prompt.details as {
    missingOIDCScope?: Array<string>;
    missingOIDCClaims?: Array<string>;
  };
  if (missing.missingOIDCScope !== undefined)
    grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims !== undefined) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
};

/** A response read whole, redirects not followed. */
export interface Hop {
  readonly url: string;
  readonly status: number;
  readonly location: string | undefined;
  readonly setCookies: ReadonlyArray<string>;
  readonly text: string;
}

/**
 * What a browser does with redirects and cookies, for one loopback host: cookies kept by
 * name (ports share cookies, as in browsers), Set-Cookie applied, Max-Age=0 deletes.
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  /** GETs `url` with the jar's cookies; the answer's cookies go into the jar. */
  async get(url: string): Promise<Hop> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(url, {
      redirect: "manual",
      headers: cookie === "" ? {} : { cookie },
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";");
      const name = pair.slice(0, pair.indexOf("=")).trim();
      const value = pair.slice(pair.indexOf("=") + 1).trim();
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = response.headers.get("location") ?? undefined;
    return {
      url,
      status: response.status,
      location: location === undefined ? undefined : new URL(location, url).toString(),
      setCookies,
      text: await response.text(),
    };
  }

  /** Follows redirects from `url` until one points under `stopAt` (returned, not fetched). */
  async followUntil(url: string, stopAt: string): Promise<URL> {
    let next = url;
    for (let hops = 0; hops < 20; hops++) {
      if (next.startsWith(stopAt)) return new URL(next);
      const hop = await this.get(next);
      if (hop.location === undefined) {
        throw new Error(`${hop.status} at ${new URL(hop.url).pathname}: ${hop.text.slice(0, 300)}`);
      }
      next = hop.location;
    }
    throw new Error("too many redirects");
  }
}
