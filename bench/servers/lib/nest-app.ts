// Shared NestJS application (controllers + module) for nest-express and nest-fastify.
import "reflect-metadata";
import { Controller, Get, Injectable, Module, Param, ParseIntPipe } from "@nestjs/common";

@Injectable()
export class UsersService {
  find(id: number) {
    return { id, name: `user ${id}` };
  }
}

@Controller("users")
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number) {
    return this.users.find(id);
  }
}

@Controller("hello")
export class HelloController {
  @Get()
  hello() {
    return { hello: "world" };
  }
}

@Module({ controllers: [HelloController, UsersController], providers: [UsersService] })
export class AppModule {}
