import { MetadataKey, writeMetadata } from "../di/metadata.js";
import type { AbstractType } from "../di/Token.js";

/**
 * Restricts an exception filter to failures that are instances of one of `exceptions`
 * (subclasses included: `@Catch(HttpError)` handles every HTTP error). Without arguments,
 * or without `@Catch` at all, the filter handles every failure.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Catch =
  (...exceptions: ReadonlyArray<AbstractType<unknown>>): ClassDecorator =>
  (target) => {
    writeMetadata(MetadataKey.catch, exceptions, target);
  };
