// A classic OAuth sign-in (the built-in callback route, the app's callback handler, then
// AccountsService.signIn) runs its accounts work on the request's fiber: the span and the log
// annotation an Effect middleware set on the request are seen by the account store, and the
// request's timeout interrupts the store's work. Over real HTTP, with a mocked provider.
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import type * as Tracer from "effect/Tracer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountStore,
  AccountsModule,
  AccountsService,
  MemoryAccountStore,
} from "../../src/accounts/index.js";
import { Middleware } from "../../src/effect/index.js";
import {
  Controller,
  EffectMiddleware,
  Get,
  Inject,
  Injectable,
  Module,
  type StrataApp,
  TimeoutMiddleware,
} from "../../src/index.js";
import {
  type OAuthCallbackHandler,
  type OAuthCallbackResult,
  OAuthModule,
  OAuthProviderSource,
  OAuthService,
  type SupportedProvider,
} from "../../src/oauth/index.js";
import { MockProvider, request, Test, type TestingModule } from "../../src/testing/index.js";

const User = Schema.Struct({ id: Schema.String, name: Schema.String });
type User = typeof User.Type;

/** What the account store saw on the fiber its `findByAccount` ran on. */
interface Seen {
  readonly subject: string;
  /** The names of the current span and its parents, innermost first. */
  readonly spans: ReadonlyArray<string>;
  readonly annotations: Record<string, unknown>;
}

const seen: Array<Seen> = [];
let interrupted = 0;

const spanNames = (span: Option.Option<Tracer.AnySpan>): ReadonlyArray<string> => {
  const names: Array<string> = [];
  let current = Option.getOrUndefined(span);
  while (current !== undefined) {
    if (current._tag === "Span") names.push(current.name);
    current = current._tag === "Span" ? Option.getOrUndefined(current.parent) : undefined;
  }
  return names;
};

/** The in-memory store, recording what its lookups see; the subject `slow` never answers. */
const probingStore = Layer.effect(
  AccountStore,
  Effect.map(AccountStore, (memory) => ({
    ...memory,
    findByAccount: (provider: string, subject: string) =>
      Effect.gen(function* () {
        const span = yield* Effect.option(Effect.currentSpan);
        const annotations = yield* Effect.logAnnotations;
        seen.push({
          subject,
          spans: spanNames(span),
          annotations: Object.fromEntries(annotations),
        });
        if (subject === "slow") {
          yield* Effect.never.pipe(
            Effect.onInterrupt(() =>
              Effect.sync(() => {
                interrupted += 1;
              }),
            ),
          );
        }
        return yield* memory.findByAccount(provider, subject);
      }),
  })),
).pipe(Layer.provide(MemoryAccountStore.layer()));

/** The app's callback handler: the user of the provider account, through AccountsService. */
@Injectable()
class SignInHandler implements OAuthCallbackHandler<User> {
  constructor(@Inject(AccountsService) private readonly accounts: AccountsService<User>) {}

  handle(result: OAuthCallbackResult, provider: SupportedProvider): Promise<User> {
    return this.accounts.signIn(provider, result.user);
  }
}

/** A classic route that runs the callback handler itself, through OAuthService. */
@Controller("relay")
class RelayController {
  constructor(@Inject(OAuthService) private readonly oauth: OAuthService) {}

  @Get()
  relay() {
    const result: OAuthCallbackResult = { accessToken: "t", user: { id: "relayed", name: "R" } };
    return this.oauth.executeCallback(result, "github");
  }

  @Get("url")
  url() {
    return { url: this.oauth.getAuthorizationUrl("github").url };
  }
}

/** Effect middleware: a span and a log annotation around every request. */
class TracedRequests extends EffectMiddleware {
  build() {
    return Effect.succeed(
      Middleware.make((app) =>
        app.pipe(Effect.annotateLogs("requestTag", "req-7"), Effect.withSpan("classic-request")),
      ),
    );
  }
}

const client = (provider: string) => ({
  clientId: `${provider}-id`,
  clientSecret: `${provider}-secret`,
  redirectUri: `http://localhost/auth/${provider}/callback`,
});

@Module({
  imports: [
    OAuthModule.forRoot({
      providers: { github: client("github"), google: client("google") },
      callbackHandler: SignInHandler,
      sealingKey: "classic-fiber-sealing-key-0123456789-abcdef",
    }),
    AccountsModule.forRoot({
      schema: User,
      createUser: (profile, { id }) => ({ id, name: profile.name ?? "" }),
      store: probingStore,
    }),
  ],
  controllers: [RelayController],
  providers: [SignInHandler],
})
class AppModule {}

let module: TestingModule;
let app: StrataApp;

beforeAll(async () => {
  module = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(OAuthProviderSource)
    .useValue(
      MockProvider.source(
        { provider: "github", profile: { id: "octo", name: "Octocat" } },
        { provider: "google", profile: { id: "slow", name: "Slow" } },
      ),
    )
    .compile();
  app = module.createStrataApp();
  app.use(new TracedRequests());
  app.use(new TimeoutMiddleware({ timeout: 300 }));
  await app.listen(0);
});
afterAll(async () => {
  await app.close();
  await module.close();
});

/** GET /auth/:provider, then its callback with the state and the transaction cookie. */
const signIn = async (provider: string) => {
  const start = await request(app, "GET", `/auth/${provider}`);
  const state = new URL(start.headers.get("location") ?? "").searchParams.get("state");
  const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return request(app, "GET", `/auth/${provider}/callback?state=${state}&code=any`, {
    headers: { cookie },
  });
};

describe("AccountsService in a classic OAuth sign-in runs on the request's fiber", () => {
  it("the store sees the request's span and log annotation", async () => {
    const done = await signIn("github");
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ id: expect.any(String), name: "Octocat" });
    const lookup = seen.find((entry) => entry.subject === "octo");
    // The callback route's span, inside the span the middleware opened for the request.
    expect(lookup?.spans).toEqual(["OAuthRoutes.callback", "classic-request"]);
    expect(lookup?.annotations).toMatchObject({ requestTag: "req-7" });
  });

  it("through OAuthService.executeCallback from a classic route too", async () => {
    const done = await request(app, "GET", "/relay");
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ id: expect.any(String), name: "R" });
    const lookup = seen.find((entry) => entry.subject === "relayed");
    expect(lookup?.spans).toEqual(["classic-request"]);
    expect(lookup?.annotations).toMatchObject({ requestTag: "req-7" });
  });

  it("OAuthService's synchronous getAuthorizationUrl runs on a request's fiber too", async () => {
    const done = await request(app, "GET", "/relay/url");
    expect(done.status).toBe(200);
    const url = new URL((done.body as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe("https://github.com/login/oauth/authorize");
    expect(url.searchParams.get("state")).toMatch(/~github$/);
  });

  it("the request's timeout interrupts the accounts work", async () => {
    const began = Date.now();
    const done = await signIn("google");
    expect(done.status).toBe(408);
    expect(done.body).toEqual({ statusCode: 408, message: "Request Timeout" });
    expect(Date.now() - began).toBeLessThan(2_000);
    // The store's lookup was interrupted with the request, not left running.
    await expect.poll(() => interrupted, { timeout: 1_000 }).toBe(1);
    expect(seen.find((entry) => entry.subject === "slow")?.annotations).toMatchObject({
      requestTag: "req-7",
    });
  });
});
