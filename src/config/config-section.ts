import type { FactoryProvider } from '@nestjs/common';

/**
 * The environment every configuration reader reads: `process.env` in the service; a test
 * application overrides it with its own map (test/support/test-app.ts), so a module's own section
 * sees the same variables as the core configuration.
 */
export const CONFIG_ENV = Symbol('CONFIG_ENV');

/**
 * A module's own configuration (e.g. a gateway slice's variables): the module reads and validates
 * them itself, throwing ConfigError naming the first bad variable (never its value), and gets the
 * result injected under `token`.
 */
export interface ConfigSection<T> {
  readonly token: symbol;
  read(env: NodeJS.ProcessEnv): T;
}

export function configSection<T>(name: string, read: (env: NodeJS.ProcessEnv) => T): ConfigSection<T> {
  return { token: Symbol(name), read };
}

/** The Nest provider of a section: read once, from CONFIG_ENV, when the application starts. */
export function configSectionProvider<T>(section: ConfigSection<T>): FactoryProvider<T> {
  return { provide: section.token, useFactory: (env: NodeJS.ProcessEnv) => section.read(env), inject: [CONFIG_ENV] };
}
