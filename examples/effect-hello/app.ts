// The Effect face: routes on @effect/platform's HttpLayerRouter, services as Layers.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { jsonResponse, NotFoundError } from "effect-strata";

export class Users extends Context.Tag("examples/Users")<
  Users,
  { readonly find: (id: number) => Effect.Effect<{ id: number; name: string }, NotFoundError> }
>() {
  static readonly layer = Layer.succeed(Users, {
    find: (id) =>
      id === 1
        ? Effect.succeed({ id, name: "Ada" })
        : Effect.fail(new NotFoundError(`No user ${id}`)),
  });
}

// `jsonResponse`: a JSON response whose body stays a string down to the socket.
const Hello = HttpLayerRouter.add(
  "GET",
  "/hello",
  Effect.sync(() => jsonResponse({ hello: "world" })),
);

// A Schema is a value: build it once, where the module loads (one built in the handler is
// compiled on every request: ~3x fewer requests a second on this route).
const UserPath = Schema.Struct({ id: Schema.NumberFromString });

const UserById = HttpLayerRouter.add(
  "GET",
  "/users/:id",
  Effect.gen(function* () {
    const { id } = yield* HttpLayerRouter.schemaPathParams(UserPath);
    const user = yield* (yield* Users).find(id);
    return jsonResponse(user);
  }),
);

/** Every route of the app; serve it, then provide the services its routes need. */
export const AppRoutes = Layer.mergeAll(Hello, UserById);
