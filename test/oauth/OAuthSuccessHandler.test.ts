// The success handler's types: what it succeeds and fails with stays its own (no unknown), the
// routes' options carry both, and its typed failure is answered by its HTTP status.
import * as Cookies from "@effect/platform/Cookies";
import * as HttpClient from "@effect/platform/HttpClient";
import { describe, expect, expectTypeOf, it, layer } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { UnauthorizedError } from "../../src/index.js";
import { OAuthRoutes, type OAuthUser } from "../../src/oauth/index.js";
import type { OAuthRoutesOptions, OAuthSuccessHandler } from "../../src/oauth/OAuthRoutes.js";
import { MockProvider, serveTest } from "../../src/testing/index.js";

interface Login {
  readonly token: string;
  readonly user: OAuthUser;
}

/** Lets verified emails in, refuses the others with a 401. */
const onlyVerified = ((session) =>
  session.user.emailVerified === true
    ? Effect.succeed<Login>({ token: `app-${session.user.id}`, user: session.user })
    : Effect.fail(new UnauthorizedError("Email not verified"))) satisfies OAuthSuccessHandler;

describe("OAuthSuccessHandler types", () => {
  it("keeps the handler's success and failure types", () => {
    type Returned = ReturnType<typeof onlyVerified>;
    expectTypeOf<Effect.Effect.Success<Returned>>().toEqualTypeOf<Login>();
    expectTypeOf<Effect.Effect.Error<Returned>>().toEqualTypeOf<UnauthorizedError>();
    const options = { onSuccess: onlyVerified } satisfies OAuthRoutesOptions<
      never,
      Login,
      UnauthorizedError
    >;
    expect(options.onSuccess).toBe(onlyVerified);
  });

  it("a handler that answers something else does not fit options that name the result", () => {
    const other = (() => Effect.succeed({ token: 1 })) satisfies OAuthSuccessHandler;
    // @ts-expect-error the handler's result is not a Login
    const options: OAuthRoutesOptions<never, Login> = { onSuccess: other };
    expect(options.onSuccess).toBe(other);
  });
});

layer(
  serveTest(OAuthRoutes.layer({ onSuccess: onlyVerified })).pipe(
    Layer.provide(
      MockProvider.layer(
        { provider: "github", profile: { id: "1", email: "a@example.com", emailVerified: true } },
        {
          provider: "microsoft",
          profile: { id: "2", email: "b@example.com", emailVerified: false },
        },
      ),
    ),
  ),
)("a typed handler behind the routes", (it) => {
  const signIn = (provider: string) =>
    Effect.gen(function* () {
      const start = yield* HttpClient.get(`/auth/${provider}`);
      const state = new URL(start.headers.location ?? "").searchParams.get("state");
      const done = yield* HttpClient.get(`/auth/${provider}/callback?state=${state}&code=c`, {
        headers: { cookie: Cookies.toCookieHeader(start.cookies) },
      });
      return { status: done.status, body: yield* done.json };
    });

  it.effect("its value is the JSON body", () =>
    Effect.gen(function* () {
      expect(yield* signIn("github")).toEqual({
        status: 200,
        body: { token: "app-1", user: { id: "1", email: "a@example.com", emailVerified: true } },
      });
    }),
  );

  it.effect("its typed failure answers the failure's status and message", () =>
    Effect.gen(function* () {
      expect(yield* signIn("microsoft")).toEqual({
        status: 401,
        body: { statusCode: 401, message: "Email not verified" },
      });
    }),
  );
});
