// Strata's classic (decorator) face. No `import "reflect-metadata"`: strata loads it itself.
import {
  Controller,
  Get,
  Injectable,
  Module,
  Param,
  ParseIntPipe,
  Scope,
  StrataApp,
  UseGuards,
  UseInterceptors,
} from "effect-strata";
import { middlewareStack } from "./lib/middleware-stack.js";

const variant = process.env.STRATA_VARIANT;

@Injectable()
class UsersService {
  find(id: number) {
    return { id, name: `user ${id}` };
  }
}

@Injectable({ scope: Scope.REQUEST })
class RequestUsersService {
  find(id: number) {
    return { id, name: `user ${id}` };
  }
}

@Controller("users")
class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number) {
    return this.users.find(id);
  }
}

// Extra route of the `pipeline` variant: the same handler with a request-scoped service.
@Controller("req-users")
class ReqUsersController {
  constructor(private readonly users: RequestUsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number) {
    return this.users.find(id);
  }
}

// Extra route of the `pipeline` variant: the same handler behind one guard and one interceptor
// (and its pipe).
@Injectable()
class AllowGuard {
  canActivate() {
    return true;
  }
}

@Injectable()
class PassInterceptor {
  intercept(_context: unknown, next: () => Promise<unknown>) {
    return next();
  }
}

@Controller("pipeline")
@UseGuards(AllowGuard)
@UseInterceptors(PassInterceptor)
class PipelineController {
  constructor(private readonly users: UsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number) {
    return this.users.find(id);
  }
}

@Controller("hello")
class HelloController {
  @Get()
  hello() {
    return { hello: "world" };
  }
}

// `STRATA_VARIANT=oauth` adds `GET /auth/google`; the hello app itself does not load
// effect-strata/oauth (a dynamic import, only for that variant).
const oauthModules = async () => {
  if (variant !== "oauth") return [];
  const { OAuthModule } = await import("effect-strata/oauth");
  return [
    // `GET /auth/google`: fresh state, PKCE verifier, nonce, sealed cookie, 302.
    OAuthModule.forRoot({
      providers: {
        google: {
          clientId: "bench-client",
          clientSecret: "bench-secret",
          redirectUri: "http://127.0.0.1/auth/google/callback",
        },
      },
      sealingKey: "bench-sealing-key-bench-sealing-key",
    }),
  ];
};

const main = async () => {
  @Module({
    imports: await oauthModules(),
    controllers: [
      HelloController,
      UsersController,
      ...(variant === "pipeline" ? [ReqUsersController, PipelineController] : []),
    ],
    providers: [
      UsersService,
      ...(variant === "pipeline" ? [RequestUsersService, AllowGuard, PassInterceptor] : []),
    ],
  })
  class AppModule {}

  // Third variant, `STRATA_VARIANT=middleware`: the same app behind the full default middleware
  // stack (lib/middleware-stack.ts).
  const middleware = variant === "middleware" ? middlewareStack() : [];

  const app = new StrataApp(AppModule, { globalMiddleware: middleware });
  await app.listen(Number(process.env.PORT), "127.0.0.1");
};

// No top-level await: the same file compiles to CommonJS (dist/cjs) and ESM (dist/esm).
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
