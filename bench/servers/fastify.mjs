// fastify 5, default options (logger off).
import Fastify from "fastify";

class UsersService {
  find(id) {
    return { id, name: `user ${id}` };
  }
}

const INT = /^-?\d+$/;
const app = Fastify({ logger: false });
app.decorate("users", new UsersService()); // singleton service injected into the instance

app.get("/hello", async () => ({ hello: "world" }));
app.get("/users/:id", async function (request, reply) {
  const raw = request.params.id;
  if (!INT.test(raw)) {
    reply.code(400);
    return {
      statusCode: 400,
      message: "Validation failed (numeric string is expected)",
      error: "Bad Request",
    };
  }
  return this.users.find(Number.parseInt(raw, 10));
});

await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
