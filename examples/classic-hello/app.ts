// The classic face: modules, controllers and injectable services, NestJS style.
import {
  Controller,
  Get,
  Injectable,
  Module,
  NotFoundError,
  Param,
  ParseIntPipe,
} from "effect-strata";

export interface User {
  readonly id: number;
  readonly name: string;
}

@Injectable()
export class UsersService {
  private readonly users = new Map<number, User>([
    [1, { id: 1, name: "Ada" }],
    [2, { id: 2, name: "Grace" }],
  ]);

  find(id: number): User {
    const user = this.users.get(id);
    if (user === undefined) throw new NotFoundError(`No user ${id}`);
    return user;
  }
}

@Controller("users")
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number): User {
    return this.users.find(id);
  }
}

@Controller()
export class HelloController {
  @Get("hello")
  hello() {
    return { hello: "world" };
  }
}

@Module({ controllers: [HelloController, UsersController], providers: [UsersService] })
export class AppModule {}
