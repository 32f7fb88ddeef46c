/**
 * Parser for the gateway's form encoding: nested keys in brackets (`metadata[x]=y`,
 * `items[0][price]=p`, `enabled_events[]=a`), `+` for spaces, percent-escapes. This is what the
 * `stripe` SDK sends and what the real API accepts.
 */
export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

export function parseStripeForm(raw: string): FormObject {
  const root: FormObject = {};
  if (!raw) return root;
  for (const pair of raw.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    const value = decode(rawValue);
    const segments = splitKey(key);
    if (!segments) throw new Error(`Malformed form key: ${key}`);
    assign(root, segments, value);
  }
  return compact(root) as FormObject;
}

function decode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/** `a[b][0][]` → ['a', 'b', '0', ''] */
function splitKey(key: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return null;
  const segments = [match[1]];
  for (const part of match[2].matchAll(/\[([^[\]]*)\]/g)) segments.push(part[1]);
  return segments;
}

type Container = FormObject | FormValue[];

function assign(container: Container, segments: string[], value: string): void {
  let current: Container = container;
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i];
    const last = i === segments.length - 1;
    const next = segments[i + 1];
    if (Array.isArray(current)) {
      const index = segment === '' ? current.length : Number(segment);
      if (!Number.isInteger(index) || index < 0 || index > 1000) throw new Error(`Bad array index: ${segment}`);
      if (last) current[index] = value;
      else {
        current[index] ??= emptyFor(next);
        current = current[index] as Container;
      }
    } else {
      if (last) current[segment] = value;
      else {
        if (typeof current[segment] !== 'object') current[segment] = emptyFor(next);
        current = current[segment] as Container;
      }
    }
  }
}

function emptyFor(nextSegment: string): Container {
  return nextSegment === '' || /^\d+$/.test(nextSegment) ? [] : {};
}

/** Sparse arrays (indices sent out of order or with gaps) become dense. */
function compact(value: FormValue): FormValue {
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(compact);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  return value;
}
