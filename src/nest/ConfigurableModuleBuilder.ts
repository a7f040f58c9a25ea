/**
 * NestJS's `ConfigurableModuleBuilder`, not supported: constructing it throws saying what to
 * write instead (a static `forRoot(options)` returning a dynamic module).
 *
 * @since 0.1.0
 * @category app
 */
export class ConfigurableModuleBuilder {
  constructor() {
    throw new Error(
      'ConfigurableModuleBuilder is not supported: write a static forRoot(options) returning { module: TheModule, providers: [{ provide: "OPTIONS", useValue: options }], exports: ["OPTIONS"] }, and inject the options with @Inject("OPTIONS").',
    );
  }
}
