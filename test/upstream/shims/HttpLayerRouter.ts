// `@effect/platform/HttpLayerRouter` as the upstream suites import it (see platform.ts).
import { HttpLayerRouter } from "./platform.js";

export * from "@effect/platform/HttpLayerRouter";
export const { addHttpApi, serve, toWebHandler } = HttpLayerRouter;
