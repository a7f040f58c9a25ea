// fastify 5 behind the stack of strata-classic-stack (servers/strata-session.ts with
// `STRATA_VARIANT=middleware`, lib/middleware-stack.ts), from fastify's own plugins, the headers
// and limits set to answer as Strata's defaults do:
// - @fastify/cors with the same one-origin allow-list (`Access-Control-Allow-Origin` echoed,
//   `Vary: Origin`);
// - @fastify/helmet sending what SecurityHeadersMiddleware sends on a JSON answer over http:
//   `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`
//   (Strata adds its CSP only to non-JSON answers and HSTS only on https; helmet's other
//   headers are off);
// - @fastify/rate-limit in memory, per client address, a max never reached, the IETF draft's
//   `RateLimit-Limit`/`-Remaining`/`-Reset` headers as Strata sends;
// - `handlerTimeout` 30 s, fastify's own handler deadline (TimeoutMiddleware's default);
// - @fastify/secure-session, the whole session sealed (libsodium secretbox) in the cookie, as
//   Strata's cookie store, and a `preHandler` on `/session-users/:id` that answers 401 without a
//   signed-in user, as SessionGuard does. `GET /login` signs in.
import cors from "@fastify/cors";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import secureSession from "@fastify/secure-session";
import Fastify from "fastify";

const ALLOWED_ORIGIN = "https://app.example.com"; // lib/middleware-stack.ts

class UsersService {
  find(id) {
    return { id, name: `user ${id}` };
  }
}

const INT = /^-?\d+$/;
const app = Fastify({ logger: false, handlerTimeout: 30_000 });
app.decorate("users", new UsersService());

await app.register(cors, { origin: [ALLOWED_ORIGIN] });
await app.register(helmet, {
  contentSecurityPolicy: false,
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  frameguard: { action: "deny" },
  referrerPolicy: { policy: "no-referrer" },
  xContentTypeOptions: true,
});
await app.register(rateLimit, {
  max: Number.MAX_SAFE_INTEGER,
  timeWindow: 60_000,
  enableDraftSpec: true,
});
await app.register(secureSession, {
  cookieName: "strata_session",
  secret: "bench-session-secret-bench-session-secret",
  salt: "bench-salt-16byt",
  cookie: { path: "/", httpOnly: true, sameSite: "lax", maxAge: 86_400 },
});

const user = (request, reply) => {
  const raw = request.params.id;
  if (!INT.test(raw)) {
    reply.code(400);
    return {
      statusCode: 400,
      message: "Validation failed (numeric string is expected)",
      error: "Bad Request",
    };
  }
  return app.users.find(Number.parseInt(raw, 10));
};

app.get("/hello", async () => ({ hello: "world" }));
app.get("/users/:id", async (request, reply) => user(request, reply));
app.get("/login", async (request) => {
  request.session.set("user", { id: "bench", name: "bench user" });
  return { signedIn: true };
});
// The session guard: a signed-in user or 401, before the handler.
const signedIn = async (request, reply) => {
  if (request.session.get("user") === undefined) {
    reply.code(401);
    return reply.send({ statusCode: 401, message: "Unauthorized" });
  }
};
app.get("/session-users/:id", { preHandler: signedIn }, async (request, reply) =>
  user(request, reply),
);

await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
