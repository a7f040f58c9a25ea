// NestJS on @nestjs/platform-fastify, plus `/rx-users/:id`: the `/users/:id` handler behind
// NestJS's transform interceptor (`next.handle().pipe(map(...))`), to compare with
// strata-classic-rxjs (same route, same interceptor).
import "reflect-metadata";
import {
  type CallHandler,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  type NestInterceptor,
  Param,
  ParseIntPipe,
  UseInterceptors,
} from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import { map, type Observable } from "rxjs";
import { HelloController, UsersController, UsersService } from "./lib/nest-app.js";

@Injectable()
class TransformInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((data) => ({ data })));
  }
}

@Controller("rx-users")
@UseInterceptors(TransformInterceptor)
class RxUsersController {
  constructor(private readonly users: UsersService) {}

  @Get(":id")
  get(@Param("id", ParseIntPipe) id: number) {
    return this.users.find(id);
  }
}

@Module({
  controllers: [HelloController, UsersController, RxUsersController],
  providers: [UsersService],
})
class AppModule {}

const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
  logger: false,
});
await app.listen(Number(process.env.PORT), "127.0.0.1");
