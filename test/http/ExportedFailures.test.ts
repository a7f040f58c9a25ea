// Every failure class Strata's entry points export answers its documented status and body when a
// route lets it escape: a classic handler that throws it, an Effect route that fails with it, on
// Strata's server and on `@effect/platform`'s own (HttpLayerRouter.serve on NodeHttpServer). The
// table is checked against the entry points' exports (a new failure class fails this test until
// it has a row) and against the table in docs/errors.md.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as LogLevel from "effect/LogLevel";
import * as Accounts from "../../src/accounts/index.js";
import * as DevIdp from "../../src/devidp/index.js";
import * as EffectFace from "../../src/effect/index.js";
import { StrataServer } from "../../src/effect/index.js";
import { isCodedFailure } from "../../src/http/CodedFailure.js";
import * as Core from "../../src/index.js";
import { Controller, Get, Module, Param, StrataApp } from "../../src/index.js";
import * as OAuth from "../../src/oauth/index.js";
import * as Session from "../../src/session/index.js";
import * as Testing from "../../src/testing/index.js";
import { baseUrlOf } from "../support/baseUrl.js";

/** What a route that lets the failure escape answers: its status and JSON body. */
interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** One failure as a route lets it escape, and what Strata answers for it. */
interface Case {
  readonly make: () => unknown;
  readonly answer: Answer;
  /** On the platform's server with nothing of Strata's: `undefined` for the platform's empty 500. */
  readonly bare: Answer | undefined;
  /** Its status in docs/errors.md, when not a number: `its own`, `its reason's`. */
  readonly documented?: string;
}

const SECRET = "secret internal detail";

const standard = (status: number, message: string): Answer => ({
  status,
  body: { statusCode: status, message },
});
const coded = (status: number, message: string, error: string): Answer => ({
  status,
  body: { statusCode: status, message, error },
});
const internal = standard(500, "Internal Server Error");

const answers = (make: () => unknown, answer: Answer, documented?: string): ReadonlyArray<Case> => [
  { make, answer, bare: answer, ...(documented ? { documented } : {}) },
];
/** A failure of startup or configuration: escaping a route, it is an unexpected 500. */
const notARequestFailure = (make: () => unknown): ReadonlyArray<Case> => [
  { make, answer: internal, bare: undefined },
];

/** Each fixed-status HTTP error: its status and default message (the NestJS spelling too). */
const fixed: ReadonlyArray<readonly [string, number, string]> = [
  ["BadRequest", 400, "Bad Request"],
  ["Unauthorized", 401, "Unauthorized"],
  ["Forbidden", 403, "Forbidden"],
  ["NotFound", 404, "Not Found"],
  ["MethodNotAllowed", 405, "Method Not Allowed"],
  ["NotAcceptable", 406, "Not Acceptable"],
  ["RequestTimeout", 408, "Request Timeout"],
  ["Conflict", 409, "Conflict"],
  ["Gone", 410, "Gone"],
  ["PreconditionFailed", 412, "Precondition Failed"],
  ["PayloadTooLarge", 413, "Payload Too Large"],
  ["UnsupportedMediaType", 415, "Unsupported Media Type"],
  ["ImATeapot", 418, "I'm a teapot"],
  ["Misdirected", 421, "Misdirected"],
  ["UnprocessableEntity", 422, "Unprocessable Entity"],
  ["TooManyRequests", 429, "Too Many Requests"],
  ["InternalServer", 500, "Internal Server Error"],
  ["NotImplemented", 501, "Not Implemented"],
  ["BadGateway", 502, "Bad Gateway"],
  ["ServiceUnavailable", 503, "Service Unavailable"],
  ["GatewayTimeout", 504, "Gateway Timeout"],
  ["HttpVersionNotSupported", 505, "HTTP Version Not Supported"],
];

type ErrorClass = new (...args: ReadonlyArray<never>) => unknown;
const core = Core as unknown as Record<string, ErrorClass>;

const httpRows: ReadonlyArray<readonly [string, ReadonlyArray<Case>]> = fixed.flatMap(
  ([name, status, message]) => {
    const error = core[`${name}Error`] as unknown as new (message?: string) => unknown;
    const exception = core[
      name === "InternalServer" ? "InternalServerErrorException" : `${name}Exception`
    ] as unknown as new (
      message?: string,
    ) => unknown;
    return [
      [`${name}Error`, answers(() => new error(), standard(status, message))],
      [
        name === "InternalServer" ? "InternalServerErrorException" : `${name}Exception`,
        // NestJS's spelling: given a message, the body adds the reason phrase as `error`.
        answers(() => new exception("Said so"), {
          status,
          body: { statusCode: status, message: "Said so", error: message },
        }),
      ],
    ] as const;
  },
);

const providerError = new OAuth.InvalidState({ provider: "github", reason: "state_mismatch" });
const lastAccount = new Accounts.LastAccount({ provider: "github" });

/** Every exported failure class and what a route letting it escape answers. */
const table: ReadonlyMap<string, ReadonlyArray<Case>> = new Map([
  ...httpRows,
  [
    "HttpError",
    answers(
      () => new Core.HttpError(418, "Short and stout"),
      standard(418, "Short and stout"),
      "its own",
    ),
  ],
  [
    "HttpException",
    answers(() => new Core.HttpException("Nope", 400), standard(400, "Nope"), "its own"),
  ],
  [
    "RateLimitStoreError",
    answers(
      () => new EffectFace.RateLimitStore.RateLimitStoreError({ message: SECRET }),
      coded(503, "Service Unavailable", "rate_limit_store_unavailable"),
    ),
  ],
  ["StartupError", notARequestFailure(() => new Core.StartupError({ message: SECRET }))],
  // OAuth
  [
    "UnknownProvider",
    answers(
      () => new OAuth.UnknownProvider(),
      coded(404, "Unknown OAuth provider", "unknown_provider"),
    ),
  ],
  ["InvalidState", answers(() => providerError, coded(401, "Invalid state", "invalid_state"))],
  [
    "ProviderErrorResponse",
    [
      ...answers(
        () => new OAuth.ProviderErrorResponse({ provider: "github", oauthError: "access_denied" }),
        coded(401, "The provider refused the authorization (access_denied)", "provider_error"),
      ),
      ...answers(
        () => new OAuth.ProviderErrorResponse({ provider: "github", oauthError: "other" }),
        coded(401, "The provider refused the authorization", "provider_error"),
      ),
    ],
  ],
  [
    "CodeRejected",
    answers(
      () => new OAuth.CodeRejected({ provider: "github", oauthError: "invalid_grant" }),
      coded(401, "Authorization code rejected", "code_rejected"),
    ),
  ],
  [
    "TokenResponseMalformed",
    answers(
      () => new OAuth.TokenResponseMalformed({ provider: "github", status: 200 }),
      coded(
        502,
        "The provider answered with a malformed token response",
        "token_response_malformed",
      ),
    ),
  ],
  [
    "ProviderUnreachable",
    answers(
      () => new OAuth.ProviderUnreachable({ provider: "github", detail: "ECONNREFUSED" }),
      coded(502, "The provider is unavailable", "provider_unreachable"),
    ),
  ],
  [
    "ProviderTimeout",
    answers(
      () => new OAuth.ProviderTimeout({ provider: "github", operation: "token" }),
      coded(504, "The provider did not answer in time", "provider_timeout"),
    ),
  ],
  [
    "ProfileFetchFailed",
    answers(
      () => new OAuth.ProfileFetchFailed({ provider: "github", reason: "malformed" }),
      coded(502, "Could not fetch the user profile", "profile_fetch_failed"),
    ),
  ],
  [
    "InvalidRedirect",
    answers(
      () => new OAuth.InvalidRedirect({ parameter: "successRedirect" }),
      coded(400, "Invalid redirect", "invalid_redirect"),
    ),
  ],
  [
    "TransactionStoreFull",
    answers(
      () => new OAuth.TransactionStoreFull(),
      coded(503, "Service Unavailable", "transaction_store_full"),
    ),
  ],
  [
    "TooManyTransactions",
    answers(
      () => new OAuth.TooManyTransactions({ retryAfter: 42 }),
      coded(429, "Too Many Requests", "too_many_transactions"),
    ),
  ],
  [
    "TransactionStoreError",
    answers(
      () => new OAuth.TransactionStoreError({ message: SECRET }),
      coded(503, "Service Unavailable", "transaction_store_unavailable"),
    ),
  ],
  [
    "OAuthHttpError",
    answers(
      () => new OAuth.OAuthHttpError(providerError),
      coded(401, "Invalid state", "invalid_state"),
      "its reason's",
    ),
  ],
  ["OAuthConfigError", notARequestFailure(() => new OAuth.OAuthConfigError({ message: SECRET }))],
  [
    "UnsupportedOperation",
    notARequestFailure(
      () => new OAuth.UnsupportedOperation({ provider: "facebook", operation: "refresh" }),
    ),
  ],
  // Sessions
  [
    "SessionStoreError",
    answers(
      () => new Session.SessionStoreError({ message: SECRET }),
      coded(503, "Service Unavailable", "session_store_unavailable"),
    ),
  ],
  [
    "SessionTooLarge",
    answers(
      () => new Session.SessionTooLarge({ size: 5000, limit: 3800 }),
      coded(422, "Session data too large", "session_too_large"),
    ),
  ],
  // Accounts
  [
    "InvalidProfile",
    answers(
      () => new Accounts.InvalidProfile({ provider: "github", reason: "subject" }),
      coded(400, "The provider's profile cannot be used to sign in", "invalid_profile"),
    ),
  ],
  [
    "AccountConflict",
    (
      [
        ["linked-to-another-user", "This account is already linked to another user"],
        ["provider-already-linked", "Another account of this provider is already linked"],
        [
          "ambiguous-email",
          "Several users have this email; sign in with an account already linked",
        ],
        ["user-id-taken", "The new user's id is already taken"],
      ] as const
    ).flatMap(([reason, message]) =>
      answers(
        () => new Accounts.AccountConflict({ provider: "github", reason }),
        coded(409, message, "account_conflict"),
      ),
    ),
  ],
  [
    "AccountNotLinked",
    answers(
      () => new Accounts.AccountNotLinked({ provider: "github" }),
      coded(404, "No account of this provider is linked", "account_not_linked"),
    ),
  ],
  [
    "LastAccount",
    answers(
      () => lastAccount,
      coded(409, "The last linked account cannot be unlinked", "last_account"),
    ),
  ],
  [
    "UserNotFound",
    answers(() => new Accounts.UserNotFound(), coded(404, "Unknown user", "user_not_found")),
  ],
  [
    "ProviderTokenUnavailable",
    [
      ...(["not-stored", "expired", "refresh-rejected"] as const).flatMap((reason) =>
        answers(
          () => new Accounts.ProviderTokenUnavailable({ provider: "github", reason }),
          coded(401, "Sign in with this provider again", "provider_token_unavailable"),
        ),
      ),
      ...answers(
        () =>
          new Accounts.ProviderTokenUnavailable({ provider: "github", reason: "refresh-failed" }),
        coded(502, "The provider is unavailable", "provider_token_unavailable"),
      ),
    ],
  ],
  [
    "AccountStoreError",
    answers(
      () => new Accounts.AccountStoreError({ message: SECRET }),
      coded(503, "Service Unavailable", "account_store_unavailable"),
    ),
  ],
  [
    "AccountsHttpError",
    answers(
      () => new Accounts.AccountsHttpError(lastAccount),
      coded(409, "The last linked account cannot be unlinked", "last_account"),
      "its reason's",
    ),
  ],
  // The development identity provider
  [
    "DevIdentityProviderError",
    notARequestFailure(
      () => new DevIdp.DevIdentityProviderError({ reason: "listen", message: SECRET }),
    ),
  ],
]);

/** Every class an entry point exports whose instances are errors. */
const exportedFailureClasses = (): ReadonlyArray<string> =>
  // The Effect face's entry is namespaces: the failures are their members.
  [Core, ...Object.values(EffectFace), OAuth, Session, Accounts, Testing, DevIdp].flatMap((entry) =>
    Object.entries(entry)
      .filter(
        ([, value]) =>
          typeof value === "function" && (value as ErrorClass).prototype instanceof Error,
      )
      .map(([name]) => name),
  );

/** Each case, named `<class>-<n>` (its path segment). */
const cases = [...table].flatMap(([name, list]) =>
  list.map((failure, index) => ({ id: `${name}-${index}`, ...failure })),
);

@Controller("classic")
class ThrowingController {
  @Get(":id")
  fail(@Param("id") id: string) {
    throw cases.find((failure) => failure.id === id)?.make();
  }
}

@Module({ controllers: [ThrowingController] })
class AppModule {}

/** A plain Effect route that fails with the case named in its path. */
const effectRoute = HttpLayerRouter.add("GET", "/effect/:id", (request) => {
  const id = new URL(request.url, "http://x").pathname.split("/").pop();
  return Effect.fail(cases.find((failure) => failure.id === id)?.make());
});

const app = Layer.mergeAll(StrataApp.layer(AppModule), effectRoute);

const listen = { port: 0, host: "127.0.0.1" } as const;

class Servers extends Context.Tag("test/ExportedFailures/Servers")<
  Servers,
  { readonly strata: string; readonly stock: string; readonly bare: string }
>() {}

const servers = Layer.scoped(
  Servers,
  Effect.all({
    strata: baseUrlOf(
      StrataServer.serve(app).pipe(Layer.provideMerge(StrataServer.layerNode(listen))),
    ),
    stock: baseUrlOf(
      HttpLayerRouter.serve(app).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, listen)),
      ),
    ),
    // The Effect route alone on the platform's router and server: failures answer for themselves.
    bare: baseUrlOf(
      HttpLayerRouter.serve(effectRoute).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, listen)),
      ),
    ),
  }),
).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None)));

interface Received {
  readonly status: number;
  readonly text: string;
}

const get = (url: string) =>
  Effect.promise(async (): Promise<Received> => {
    const response = await fetch(url);
    return { status: response.status, text: await response.text() };
  });

const asAnswer = (received: Received): Answer => ({
  status: received.status,
  body: JSON.parse(received.text) as Record<string, unknown>,
});

/**
 * The documented status of each class in docs/errors.md's table: its first column names the
 * classes (`` `BadRequestError`, `BadRequestException` ``), its second their status.
 */
const documentedStatuses = (): ReadonlyMap<string, string> => {
  const doc = readFileSync(new URL("../../docs/errors.md", import.meta.url), "utf8");
  const rows = new Map<string, string>();
  for (const [, names, status] of doc.matchAll(/^\| ((?:`\w+`,? ?)+) *\| ([^|]+?) *\|/gm)) {
    for (const [, name] of (names as string).matchAll(/`(\w+)`/g)) {
      rows.set(name as string, (status as string).trim());
    }
  }
  return rows;
};

describe("every exported failure class", () => {
  it("has a row in the table, and the table names only exported classes", () => {
    expect([...table.keys()].sort()).toEqual([...new Set(exportedFailureClasses())].sort());
  });

  it("is in docs/errors.md with the status the table pins", () => {
    const documented = documentedStatuses();
    for (const [name, list] of table) {
      const statuses = [
        ...new Set(list.map((failure) => failure.documented ?? failure.answer.status)),
      ].join(" / ");
      expect(documented.get(name), name).toBe(statuses);
    }
  });

  it("docs/accounts.md names each accounts failure with the same status", () => {
    const doc = readFileSync(new URL("../../docs/accounts.md", import.meta.url), "utf8").replace(
      /\s+/g,
      " ",
    );
    for (const name of Object.keys(Accounts).filter((key) => table.has(key))) {
      if (name === "AccountsHttpError") continue;
      const status = (table.get(name) ?? [])[0]?.answer.status;
      expect(doc, name).toContain(`\`${name}\` ${status}`);
    }
  });

  it("the classic face's views (OAuthHttpError, AccountsHttpError) name their reason's answer", () => {
    for (const error of [
      new OAuth.OAuthHttpError(providerError),
      new Accounts.AccountsHttpError(lastAccount),
    ]) {
      expect(isCodedFailure(error)).toBe(true);
      expect([error.httpStatus, error.code, error.publicMessage]).toEqual([
        error.reason.httpStatus,
        error.reason.code,
        error.reason.publicMessage,
      ]);
      expect(error.getResponse()).toEqual({
        statusCode: error.reason.httpStatus,
        message: error.reason.publicMessage,
        error: error.reason.code,
      });
    }
  });

  layer(servers, { excludeTestServices: true })("escaping a route", (it) => {
    it.effect.each(cases)(
      "$id: its status and body on Strata's server and on the platform's",
      (failure) =>
        Effect.gen(function* () {
          const { strata, stock, bare } = yield* Servers;
          const strataClassic = yield* get(`${strata}/classic/${failure.id}`);
          const strataEffect = yield* get(`${strata}/effect/${failure.id}`);
          const stockClassic = yield* get(`${stock}/classic/${failure.id}`);
          const stockEffect = yield* get(`${stock}/effect/${failure.id}`);
          const bareEffect = yield* get(`${bare}/effect/${failure.id}`);
          expect(asAnswer(strataClassic)).toEqual(failure.answer);
          expect(asAnswer(strataEffect)).toEqual(failure.answer);
          expect(asAnswer(stockClassic)).toEqual(failure.answer);
          // `StrataApp.layer`'s routes map every failure, the app's Effect routes' included.
          expect(asAnswer(stockEffect)).toEqual(failure.answer);
          if (failure.bare === undefined) expect(bareEffect).toEqual({ status: 500, text: "" });
          else expect(asAnswer(bareEffect)).toEqual(failure.bare);
          for (const { text } of [
            strataClassic,
            strataEffect,
            stockClassic,
            stockEffect,
            bareEffect,
          ]) {
            expect(text).not.toContain("secret");
          }
        }),
    );
  });
});
