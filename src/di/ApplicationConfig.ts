/**
 * NestJS's `ApplicationConfig`, injectable everywhere: a per-app record providers share, of the
 * global prefix they set and read. The app's routes take their prefix from
 * `app.setGlobalPrefix()` (or its options), not from here.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class ApplicationConfig {
  private globalPrefix = "";

  /** Records `prefix` as the global prefix. */
  setGlobalPrefix(prefix: string): void {
    this.globalPrefix = prefix;
  }

  /** The prefix last set with {@link ApplicationConfig.setGlobalPrefix} (`""` before). */
  getGlobalPrefix(): string {
    return this.globalPrefix;
  }
}
