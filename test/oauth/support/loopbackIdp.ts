// A scriptable identity provider on a real loopback socket (no mock dispatcher): each test
// says what every path answers, including answers that never end, and sees every request,
// the body as sent and whether the client went away before the answer was complete.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";

/** One request the server saw. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  /** Set when the client closed the connection before the answer was finished. */
  aborted: boolean;
}

/** What a path answers: a JSON body, or a raw handler (streams, hangs). */
export type Route =
  | { readonly status?: number; readonly json: unknown; readonly headers?: Record<string, string> }
  | ((res: ServerResponse, seen: SeenRequest) => void);

/** A running loopback IdP. */
export interface LoopbackIdp {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly seen: Array<SeenRequest>;
  /** Routes keyed by `METHOD /path` (the query is ignored). */
  readonly routes: Map<string, Route>;
  readonly close: () => Promise<void>;
}

/** Starts the IdP; unknown paths answer 404. */
export const startLoopbackIdp = async (): Promise<LoopbackIdp> => {
  const seen: Array<SeenRequest> = [];
  const routes = new Map<string, Route>();
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: SeenRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        aborted: false,
      };
      seen.push(request);
      res.on("close", () => {
        if (!res.writableFinished) request.aborted = true;
      });
      const route = routes.get(`${request.method} ${request.path.split("?")[0]}`);
      if (route === undefined) {
        res.writeHead(404).end();
      } else if (typeof route === "function") {
        route(res, request);
      } else {
        res
          .writeHead(route.status ?? 200, { "content-type": "application/json", ...route.headers })
          .end(JSON.stringify(route.json));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    routes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Streams `chunk` forever (until the client goes away): an answer without an end. */
export const endless =
  (chunk: string): Route =>
  (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const write = () => {
      while (!res.destroyed && res.write(chunk)) {
        // keep writing until the socket pushes back
      }
      if (!res.destroyed) res.once("drain", write);
    };
    write();
  };

/** Never answers (the request hangs until the client gives up). */
export const hang: Route = () => {};

/** An OpenID issuer at the IdP's origin: discovery, signing keys (`k1` first), ID tokens. */
export const openIdIssuer = async (idp: LoopbackIdp) => {
  const issuer = idp.origin;
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    jwks_uri: `${issuer}/jwks`,
    id_token_signing_alg_values_supported: ["RS256"],
  };
  idp.routes.set("GET /.well-known/openid-configuration", { json: metadata });
  const privateKeys = new Map<string, CryptoKey>();
  const published: Array<Record<string, unknown>> = [];
  /** Adds a signing key, published in the key set from now on. */
  const addKey = async (kid: string) => {
    const { publicKey, privateKey } = await generateKeyPair("RS256");
    privateKeys.set(kid, privateKey);
    published.push({ ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" });
    idp.routes.set("GET /jwks", { json: { keys: [...published] } });
  };
  await addKey("k1");
  /** An ID token for `aud` signed with key `kid`, issued at `nowMs`. */
  const idToken = (aud: string, claims: JWTPayload = {}, kid = "k1", nowMs = Date.now()) => {
    const key = privateKeys.get(kid);
    if (key === undefined) throw new Error(`no key ${kid}`);
    const now = Math.floor(nowMs / 1000);
    return new SignJWT({ iss: issuer, aud, sub: "user-1", iat: now, exp: now + 300, ...claims })
      .setProtectedHeader({ alg: "RS256", kid })
      .sign(key);
  };
  /** The key set as published (for answers built around it). */
  const keySet = () => ({ keys: [...published] });
  return { issuer, metadata, addKey, idToken, keySet };
};
