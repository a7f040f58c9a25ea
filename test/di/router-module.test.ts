import { describe, expect, it } from "vitest";
import { Controller, Get, Module, RouterModule, type Routes } from "../../src/index.js";
import { request } from "../../src/testing/index.js";
import { listeningApp } from "../support/apps.js";

@Controller("users")
class UsersController {
  @Get()
  list() {
    return "users";
  }
}

@Controller()
class BillingController {
  @Get("invoices")
  invoices() {
    return "invoices";
  }
}

@Controller("status")
class StatusController {
  @Get()
  status() {
    return "up";
  }
}

@Module({ controllers: [UsersController] })
class UsersModule {}

@Module({ controllers: [BillingController] })
class BillingModule {}

@Module({ controllers: [StatusController] })
class StatusModule {}

const routes: Routes = [
  {
    path: "admin",
    module: UsersModule,
    children: [{ path: "/billing/", module: BillingModule }],
  },
  { path: "v1", children: [StatusModule] },
];

@Module({
  imports: [UsersModule, BillingModule, StatusModule, RouterModule.register(routes)],
})
class AppModule {}

describe("RouterModule.register", () => {
  const app = listeningApp(AppModule);

  it("serves each module's controllers under its path, children under their parent's", async () => {
    expect(await request(app, "GET", "/admin/users")).toMatchObject({ status: 200, text: "users" });
    expect(await request(app, "GET", "/admin/billing/invoices")).toMatchObject({
      status: 200,
      text: "invoices",
    });
    expect(await request(app, "GET", "/v1/status")).toMatchObject({ status: 200, text: "up" });
  });

  it("leaves no route at the unprefixed paths", async () => {
    for (const path of ["/users", "/invoices", "/status", "/billing/invoices"]) {
      expect(await request(app, "GET", path)).toMatchObject({
        status: 404,
        body: { statusCode: 404 },
      });
    }
  });
});
