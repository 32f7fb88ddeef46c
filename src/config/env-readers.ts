/** Raised for an invalid environment variable; the message names the variable, never its value. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    rule: string,
  ) {
    super(`Invalid configuration: ${variable} ${rule}`);
    this.name = 'ConfigError';
  }
}

type Env = NodeJS.ProcessEnv;

export function envString(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

export function envInteger(env: Env, name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, 'must be a whole number');
  const value = Number(raw);
  if ((range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max)) {
    throw new ConfigError(name, `must be between ${range.min ?? '-∞'} and ${range.max ?? '∞'}`);
  }
  return value;
}

export function envBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, 'must be true or false');
}

export function envEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}`);
  return raw as T;
}

export function envUrl(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? fallback : raw;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be an absolute URL');
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  return value;
}

/** An absolute http(s) URL of a browser script, without credentials, query or fragment (the page adds its own query). */
export function envScriptUrl(env: Env, name: string, fallback: string): string {
  const value = envUrl(env, name, fallback, ['http:', 'https:']);
  const url = new URL(value);
  if (url.username || url.password || url.search || url.hash) throw new ConfigError(name, 'must be a URL without credentials, query or fragment');
  return url.toString();
}

/**
 * A comma-separated list of origins (`scheme://host[:port]`, http or https), each normalised to
 * the form browsers send in `Origin` (lower-case host, no default port). Anything else (a path,
 * a wildcard, `null`) is refused. Unset or empty: none.
 */
export function envOriginList(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  const origins = new Set<string>();
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new ConfigError(name, 'must be a comma-separated list of origins (scheme://host[:port])');
    }
    const bare = !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash && !entry.endsWith('#') && !entry.endsWith('?');
    // A wildcard host parses as a URL but is no origin (and would be a pattern in a CSP source list).
    if (!['http:', 'https:'].includes(url.protocol) || !bare || url.hostname.includes('*')) {
      throw new ConfigError(name, 'must list origins only (http or https scheme, host and optional port; no path, query or credentials)');
    }
    origins.add(url.origin);
  }
  return [...origins];
}
