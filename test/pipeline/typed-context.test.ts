import { describe, expect, it } from "vitest";
import {
  type ArgumentsHost,
  type CanActivate,
  Catch,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  ForbiddenException,
  Get,
  Module,
  Req,
  type RequestContext,
  type StrataResponse,
  UseFilters,
  UseGuards,
} from "../../src/index.js";
import { startedApps } from "../support/started.js";

/** What the app's guard leaves on the request, as a NestJS app types its `Request`. */
type TenantRequest = RequestContext & { tenant?: string };

class TenantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    // NestJS's spelling: a type argument on getRequest (TS2558 before).
    const req = context.switchToHttp().getRequest<TenantRequest>();
    const tenant = req.headers["x-tenant"];
    if (tenant === undefined) throw new ForbiddenException("no tenant");
    req.tenant = tenant;
    return true;
  }
}

@Catch(ForbiddenException)
class ForbiddenFilter implements ExceptionFilter {
  catch(_error: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const res = http.getResponse<StrataResponse>();
    const req = http.getRequest<TenantRequest>();
    res.status(403).json({ refused: req.url });
  }
}

@Controller("tenant")
@UseGuards(TenantGuard)
@UseFilters(ForbiddenFilter)
class TenantController {
  @Get()
  which(@Req() req: TenantRequest) {
    return { tenant: req.tenant };
  }
}

@Module({ controllers: [TenantController] })
class AppModule {}

describe("getRequest<T>() and getResponse<T>() take a type argument, as in NestJS", () => {
  const start = startedApps();

  it("a guard and a filter written the NestJS way run over HTTP", async () => {
    const app = await start(AppModule);
    const base = await app.getUrl();
    const ok = await fetch(`${base}/tenant`, { headers: { "x-tenant": "acme" } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ tenant: "acme" });
    const refused = await fetch(`${base}/tenant`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ refused: "/tenant" });
  });
});
