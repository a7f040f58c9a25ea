import * as Redacted from "effect/Redacted";
import { describe, expect, it } from "vitest";
import { Controller, CsrfMiddleware, Get, Module, Post, StrataApp } from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { capturingLogger, startedApps } from "../support/started.js";

@Controller()
class FormController {
  @Get("form")
  form() {
    return { form: true };
  }
  @Post("submit")
  submit() {
    return { saved: true };
  }
  @Post("hooks/github")
  hook() {
    return { hook: true };
  }
}

@Module({ controllers: [FormController] })
class AppModule {}

const SECRET = "a-csrf-test-secret-of-32-bytes-or-more";
const REFUSED = { statusCode: 403, message: "Invalid CSRF token" };
const SIGNED = /^[\w-]{24}\.[\w-]{43}$/;

/** The `name=value` of the first Set-Cookie named `name`, and its attributes. */
const cookieOf = (headers: Headers, name: string) => {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (line === undefined) return undefined;
  const [pair, ...attributes] = line.split(";").map((part) => part.trim());
  return { value: pair.slice(name.length + 1), attributes, line };
};

/**
 * A browser talking to one app: it keeps the cookies the app sets and sends them back, and
 * sends its token cookie in `x-csrf-token` when asked to.
 */
const browser = (app: StrataApp, prefix = "") => {
  const jar = new Map<string, string>();
  const send = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await request(app, method, path, {
      headers: cookie === "" ? headers : { cookie, ...headers },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return response;
  };
  return {
    jar,
    send,
    get token() {
      return String(jar.get(`${prefix}csrf-token`));
    },
    get client() {
      return String(jar.get(`${prefix}csrf-client`));
    },
    /** A POST that sends the token cookie's value back in the header, as a page script would. */
    submit: (headers: Record<string, string> = {}) =>
      send("POST", "/submit", {
        "x-csrf-token": String(jar.get(`${prefix}csrf-token`)),
        ...headers,
      }),
  };
};

/** A POST with exactly these cookies and this header, nothing kept. */
const postWith = (app: StrataApp, cookies: Record<string, string>, header: string | undefined) =>
  request(app, "POST", "/submit", {
    headers: {
      cookie: Object.entries(cookies)
        .map(([name, value]) => `${name}=${value}`)
        .join("; "),
      ...(header === undefined ? {} : { "x-csrf-token": header }),
    },
  });

/** Flips the first character of a signed value's random part: its signature no longer fits. */
const tamper = (signed: string) => `${signed[0] === "A" ? "B" : "A"}${signed.slice(1)}`;

describe("CsrfMiddleware", () => {
  const start = startedApps();
  const protectedApp = (options: ConstructorParameters<typeof CsrfMiddleware>[0] = {}) =>
    start(AppModule, {}, (app) => app.use(new CsrfMiddleware({ secret: SECRET, ...options })));

  it("issues a script-readable token cookie and an HttpOnly client cookie on a safe request", async () => {
    const app = await protectedApp();
    const response = await request(app, "GET", "/form");
    expect(response.status).toBe(200);
    const token = cookieOf(response.headers, "csrf-token");
    expect(token?.value).toMatch(SIGNED);
    expect(token?.attributes).toEqual(expect.arrayContaining(["Path=/", "SameSite=Strict"]));
    expect(token?.line).not.toMatch(/HttpOnly|Secure/);
    const client = cookieOf(response.headers, "csrf-client");
    expect(client?.value).toMatch(SIGNED);
    expect(client?.attributes).toEqual(
      expect.arrayContaining(["Path=/", "SameSite=Strict", "HttpOnly"]),
    );
    expect(client?.line).not.toMatch(/Secure/);
    // Holding a valid pair, the next safe request gets no new cookie.
    const again = await request(app, "GET", "/form", {
      headers: { cookie: `csrf-token=${token?.value}; csrf-client=${client?.value}` },
    });
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it("accepts an unsafe request that sends the cookie's token back in x-csrf-token", async () => {
    const app = await protectedApp();
    const alice = browser(app);
    await alice.send("GET", "/form");
    const response = await alice.submit();
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ saved: true });
  });

  it("answers 403 in the standard shape without a token, with a mismatched or forged one", async () => {
    const app = await protectedApp();
    const alice = browser(app);
    await alice.send("GET", "/form");
    const { token, client } = alice;
    const [nonce] = token.split(".");
    const forged = `${nonce}.${"A".repeat(43)}`;
    const attempts: Array<[Record<string, string>, string | undefined]> = [
      [{}, undefined],
      [{ "csrf-client": client }, undefined],
      [{ "csrf-client": client, "csrf-token": token }, undefined],
      [{ "csrf-client": client }, token],
      [{ "csrf-client": client, "csrf-token": token }, `${token}x`],
      [{ "csrf-client": client, "csrf-token": forged }, forged],
      [{ "csrf-client": client, "csrf-token": "not-a-token" }, "not-a-token"],
    ];
    for (const [cookies, header] of attempts) {
      const response = await postWith(app, cookies, header);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(REFUSED);
    }
  });

  it("check 23, check 39: without identify, a token is bound to the client cookie it was minted for", async () => {
    const app = await protectedApp();
    const alice = browser(app);
    const bob = browser(app);
    await alice.send("GET", "/form");
    await bob.send("GET", "/form");
    expect(alice.client).not.toBe(bob.client);
    // Alice's token (as her cookie and her header) with Bob's client cookie: refused.
    const replayed = await postWith(
      app,
      { "csrf-client": bob.client, "csrf-token": alice.token },
      alice.token,
    );
    expect(replayed.status).toBe(403);
    expect(replayed.body).toEqual(REFUSED);
    // The refused client gets a token bound to its own client cookie, which it keeps.
    const fresh = cookieOf(replayed.headers, "csrf-token")?.value;
    expect(fresh).toMatch(SIGNED);
    expect(fresh).not.toBe(alice.token);
    expect(cookieOf(replayed.headers, "csrf-client")).toBeUndefined();
    expect(
      (await postWith(app, { "csrf-client": bob.client, "csrf-token": String(fresh) }, fresh))
        .status,
    ).toBe(201);
    // Bob's own pair and Alice's own pair still work; swapping the tokens does not.
    expect((await bob.submit()).status).toBe(201);
    expect((await alice.submit()).status).toBe(201);
    expect(
      (await postWith(app, { "csrf-client": alice.client, "csrf-token": bob.token }, bob.token))
        .status,
    ).toBe(403);
  });

  it("check 39: a forged, tampered or missing client cookie is refused, and replaced", async () => {
    const app = await protectedApp();
    const alice = browser(app);
    await alice.send("GET", "/form");
    const { token, client } = alice;
    const [value] = client.split(".");
    const badClients = [
      tamper(client), // altered value, original signature
      `${value}.${"A".repeat(43)}`, // forged signature
      token, // a token is not a client cookie
      "not-signed",
      "",
    ];
    for (const bad of badClients) {
      const response = await postWith(app, { "csrf-client": bad, "csrf-token": token }, token);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(REFUSED);
      const replaced = cookieOf(response.headers, "csrf-client");
      expect(replaced?.value).toMatch(SIGNED);
      expect(replaced?.value).not.toBe(client);
      expect(response.text).not.toContain(client);
    }
    // No client cookie at all.
    const without = await postWith(app, { "csrf-token": token }, token);
    expect(without.status).toBe(403);
    expect(cookieOf(without.headers, "csrf-client")?.value).toMatch(SIGNED);
    // The client cookie's value is not a token either.
    expect(
      (await postWith(app, { "csrf-client": client, "csrf-token": client }, client)).status,
    ).toBe(403);
  });

  it("check 23: with identify, a token minted for one session is refused for another", async () => {
    const app = await protectedApp({ identify: (request) => request.cookies.sid });
    const tokenFor = async (sid: string) => {
      const response = await request(app, "GET", "/form", { headers: { cookie: `sid=${sid}` } });
      // The session binds the token: no client cookie is needed.
      expect(cookieOf(response.headers, "csrf-client")).toBeUndefined();
      return String(cookieOf(response.headers, "csrf-token")?.value);
    };
    const alice = await tokenFor("alice");
    const post = (sid: string, token: string) =>
      request(app, "POST", "/submit", {
        headers: { cookie: `sid=${sid}; csrf-token=${token}`, "x-csrf-token": token },
      });
    expect((await post("alice", alice)).status).toBe(201);
    const stolen = await post("mallory", alice);
    expect(stolen.status).toBe(403);
    expect(stolen.body).toEqual(REFUSED);
    // The refused client gets a token of its own to retry with.
    expect(cookieOf(stolen.headers, "csrf-token")?.value).not.toBe(alice);
    // A pair minted with another key is refused too.
    const other = await start(AppModule, {}, (other) =>
      other.use(new CsrfMiddleware({ secret: Redacted.make(`another-${SECRET}`) })),
    );
    const foreign = browser(other);
    await foreign.send("GET", "/form");
    expect(
      (
        await postWith(
          app,
          { "csrf-client": foreign.client, "csrf-token": foreign.token },
          foreign.token,
        )
      ).status,
    ).toBe(403);
  });

  it("check 39: with identify but no session, the token is bound to the client cookie", async () => {
    const app = await protectedApp({ identify: (request) => request.cookies.sid });
    const alice = browser(app);
    const bob = browser(app);
    await alice.send("GET", "/form");
    await bob.send("GET", "/form");
    expect(alice.client).toMatch(SIGNED);
    expect((await alice.submit()).status).toBe(201);
    expect(
      (await postWith(app, { "csrf-client": bob.client, "csrf-token": alice.token }, alice.token))
        .status,
    ).toBe(403);
    // A session-less token is no token for a session.
    expect(
      (
        await postWith(
          app,
          { sid: "alice", "csrf-client": alice.client, "csrf-token": alice.token },
          alice.token,
        )
      ).status,
    ).toBe(403);
  });

  it("check 39: a secret shorter than 32 bytes fails the start, naming the option", async () => {
    const short = ["test-secret", "x".repeat(31), "é".repeat(15)]; // 11, 31 and 30 bytes
    for (const secret of [...short, Redacted.make(short[1])]) {
      const app = new StrataApp(AppModule).use(new CsrfMiddleware({ secret }));
      const error = await app.listen(0).then(
        () => undefined,
        (e: unknown) => e,
      );
      await app.close();
      const message = String((error as Error | undefined)?.message);
      expect(message).toMatch(/CSRF: option "secret" must be at least 32 bytes/);
      expect(message).toMatch(/leave "secret" out for a random 32-byte key per process/);
      expect(message).not.toContain(Redacted.isRedacted(secret) ? Redacted.value(secret) : secret);
    }
    // 32 bytes is enough.
    const app = await protectedApp({ secret: "y".repeat(32) });
    expect((await request(app, "GET", "/form")).status).toBe(200);
  });

  it("exempts safe methods and excluded paths", async () => {
    const app = await protectedApp({ excludePaths: ["/hooks"] });
    expect((await request(app, "POST", "/hooks/github")).status).toBe(201);
    expect((await request(app, "GET", "/form")).status).toBe(200);
    expect((await request(app, "HEAD", "/form")).status).toBe(200);
    expect((await request(app, "OPTIONS", "/form")).status).not.toBe(403);
    // Safe even with another client's token and a forged client cookie.
    const alice = browser(app);
    await alice.send("GET", "/form");
    const foreign = await request(app, "GET", "/form", {
      headers: { cookie: `csrf-client=${tamper(alice.client)}; csrf-token=${alice.token}` },
    });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual({ form: true });
    expect((await request(app, "POST", "/submit")).status).toBe(403);
  });

  it("names the cookies __Host- and marks them Secure on https", async () => {
    const app = await protectedApp({ trustProxy: 1 });
    const https = { "x-forwarded-proto": "https" };
    const alice = browser(app, "__Host-");
    const response = await alice.send("GET", "/form", https);
    const token = cookieOf(response.headers, "__Host-csrf-token");
    expect(token?.attributes).toEqual(expect.arrayContaining(["Secure", "Path=/"]));
    const client = cookieOf(response.headers, "__Host-csrf-client");
    expect(client?.attributes).toEqual(expect.arrayContaining(["Secure", "Path=/", "HttpOnly"]));
    expect((await alice.submit(https)).status).toBe(201);
  });

  it("warns when no secret is configured", async () => {
    const { logger, lines } = capturingLogger();
    await start(AppModule, { logger }, (app) => app.use(new CsrfMiddleware()));
    expect(lines.some((line) => line.level === "WARN" && line.message.includes("CSRF"))).toBe(true);
  });
});
