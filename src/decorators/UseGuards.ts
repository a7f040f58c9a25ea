import type { GuardLike } from "../pipeline/CanActivate.js";
import { appendToList, type ClassOrMethodDecorator } from "./ClassOrMethodDecorator.js";
import { MetadataKey } from "./metadata.js";

/**
 * Guards a controller (every route) or one handler. Guards run in order, global first, then
 * the controller's, then the method's; the first to deny stops the request with 403.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UseGuards = (...guards: ReadonlyArray<GuardLike>): ClassOrMethodDecorator =>
  appendToList(MetadataKey.guards, guards);
