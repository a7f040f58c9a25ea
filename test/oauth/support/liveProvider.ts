import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as Effect from "effect/Effect";
import type { OAuthProviderService } from "../../../src/oauth/index.js";

/** The PKCE verifier of RFC 7636's appendix B example. */
export const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

/** A provider service ready to run in a test. */
export type Make = Effect.Effect<OAuthProviderService, unknown, never>;

/** A live provider service whose HTTP goes through global fetch (intercepted by `mockNetwork`). */
export const live = <Err, R>(make: Effect.Effect<OAuthProviderService, Err, R>): Make =>
  make.pipe(Effect.provide(FetchHttpClient.layer)) as Make;
