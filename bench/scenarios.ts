import type { Agent } from 'node:http';

export interface BenchContext {
  port: number;
  agent: Agent;
  /** Basic credentials of the admin */
  auth: string;
}

export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expect: number;
}

export interface Scenario {
  name: string;
  prepare(context: BenchContext): Promise<unknown>;
  request(prepared: unknown, iteration: number): RequestSpec;
}

const BASE = '/wp-json/checkout/v1';

export const scenarios: Scenario[] = [
  {
    name: 'healthz',
    prepare: async () => undefined,
    request: () => ({ method: 'GET', path: '/healthz', expect: 200 }),
  },
  {
    // The admin path: Basic auth, application-password lookup, capabilities, options read.
    name: 'admin GET /settings',
    prepare: async (context) => context.auth,
    request: (auth) => ({ method: 'GET', path: `${BASE}/settings`, headers: { authorization: auth as string }, expect: 200 }),
  },
  {
    name: 'admin GET /tags',
    prepare: async (context) => context.auth,
    request: (auth) => ({ method: 'GET', path: `${BASE}/tags`, headers: { authorization: auth as string }, expect: 200 }),
  },
];
