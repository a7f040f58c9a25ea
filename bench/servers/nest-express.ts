// NestJS on @nestjs/platform-express (the default platform).
import "reflect-metadata";
import { NestFactory } from "@nestjs/core";
import { ExpressAdapter, type NestExpressApplication } from "@nestjs/platform-express";
import { AppModule } from "./lib/nest-app.js";

const app = await NestFactory.create<NestExpressApplication>(AppModule, new ExpressAdapter(), {
  logger: false,
});
await app.listen(Number(process.env.PORT), "127.0.0.1");
