import { MetadataKey, writeMetadata } from "./metadata.js";

/**
 * Makes a module's exports visible in every module of the app without importing it (it must
 * still be imported once, usually by the root module). A dynamic module does the same with
 * `global: true`.
 *
 * @since 0.1.0
 * @category decorators
 */
export const Global = (): ClassDecorator => (target) => {
  writeMetadata(MetadataKey.global, true, target);
};
