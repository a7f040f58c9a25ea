// `@effect/platform` as the upstream suites import it, with Strata's builders, server and document.
import * as StockBuilder from "@effect/platform/HttpApiBuilder";
import * as StockRouter from "@effect/platform/HttpLayerRouter";
import * as StockOpenApi from "@effect/platform/OpenApi";
import {
  fromApi,
  normalizeUrlParams,
  StrataHttpApi,
  StrataServer,
  toWebHandler,
} from "../strata.js";

export * from "@effect/platform";

export const HttpApiBuilder = { ...StockBuilder, group: StrataHttpApi.group, normalizeUrlParams };
export const HttpLayerRouter = {
  ...StockRouter,
  addHttpApi: StrataHttpApi.addHttpApi,
  serve: StrataServer.serve,
  toWebHandler,
};
export const OpenApi = { ...StockOpenApi, fromApi };
