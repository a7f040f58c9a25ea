import { afterEach, describe, expect, it } from "vitest";
import {
  type ContextId,
  ContextIdFactory,
  type ContextIdStrategy,
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  type OnModuleDestroy,
  REQUEST,
  type RequestContext,
  Scope,
} from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { appsClosedAfterEach } from "../support/apps.js";

const { listen } = appsClosedAfterEach();

const destroyed: Array<string> = [];

/** One per tenant once a strategy is applied; REQUEST is the tenant's payload. */
@Injectable({ scope: Scope.REQUEST, durable: true })
class TenantCounter implements OnModuleDestroy {
  count = 0;
  constructor(@Inject(REQUEST) readonly payload: { tenant?: string; headers?: unknown }) {}
  onModuleDestroy() {
    destroyed.push(`tenant ${this.payload.tenant ?? "?"}`);
  }
}

/** Request-scoped, not durable: one per request whatever the strategy. */
@Injectable({ scope: Scope.REQUEST })
class PerRequest {
  count = 0;
}

@Controller("count")
class CountController {
  constructor(
    private readonly tenant: TenantCounter,
    private readonly perRequest: PerRequest,
  ) {}
  @Get()
  count() {
    return {
      tenant: ++this.tenant.count,
      perRequest: ++this.perRequest.count,
      payload: this.tenant.payload.tenant ?? null,
    };
  }
}

@Module({ controllers: [CountController], providers: [TenantCounter, PerRequest] })
class AppModule {}

/** Maps each request to its tenant's context by the x-tenant header; REQUEST gets the tenant. */
class ByTenantHeader implements ContextIdStrategy<RequestContext> {
  private readonly tenants = new Map<string, ContextId>();
  attach(contextId: ContextId, request: RequestContext) {
    const tenant = String(request.headers["x-tenant"] ?? "");
    if (tenant === "") return undefined;
    let shared = this.tenants.get(tenant);
    if (shared === undefined) {
      shared = { id: this.tenants.size + 1 };
      this.tenants.set(tenant, shared);
    }
    const tenantContext = shared;
    return {
      resolve: (info: { isTreeDurable: boolean }) =>
        info.isTreeDurable ? tenantContext : contextId,
      payload: { tenant },
    };
  }
}

const count = async (app: Parameters<typeof request>[0], tenant?: string) => {
  const response = await request(app, "GET", "/count", {
    headers: tenant === undefined ? {} : { "x-tenant": tenant },
  });
  expect(response.status).toBe(200);
  return response.body;
};

describe("durable providers (ContextIdFactory.apply)", () => {
  afterEach(() => {
    ContextIdFactory.strategy = undefined;
  });

  it("keep one instance per tenant, with the tenant's payload as REQUEST, released with the app", async () => {
    destroyed.length = 0;
    ContextIdFactory.apply(new ByTenantHeader());
    const app = await listen(AppModule);
    expect(await count(app, "a")).toEqual({ tenant: 1, perRequest: 1, payload: "a" });
    expect(await count(app, "a")).toEqual({ tenant: 2, perRequest: 1, payload: "a" });
    expect(await count(app, "b")).toEqual({ tenant: 1, perRequest: 1, payload: "b" });
    expect(await count(app, "a")).toEqual({ tenant: 3, perRequest: 1, payload: "a" });
    // The strategy maps this request to no tenant: a per-request instance, REQUEST the request.
    expect(await count(app)).toEqual({ tenant: 1, perRequest: 1, payload: null });
    // Released with its request; the tenants' live until the app closes.
    expect(destroyed).toEqual(["tenant ?"]);
    await app.close();
    expect(destroyed.sort()).toEqual(["tenant ?", "tenant a", "tenant b"]);
  });

  it("are request-scoped until a strategy is applied", async () => {
    const app = await listen(AppModule);
    expect(await count(app, "a")).toEqual({ tenant: 1, perRequest: 1, payload: null });
    expect(await count(app, "a")).toEqual({ tenant: 1, perRequest: 1, payload: null });
  });
});
