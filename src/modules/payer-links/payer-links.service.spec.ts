import { CryptoService } from '../../common/crypto/index.js';
import type { Clock } from '../../common/clock/index.js';
import type { AppConfig } from '../../config/index.js';
import type { InstallationService, OptionsService } from '../settings/index.js';
import { openPayerLink, sealPayerLink } from './payer-link-token.js';
import { PAYER_LINK_VERSION_OPTION, PayerLinks } from './payer-links.service.js';

const SECRET = 'a-master-secret-that-is-long-enough-for-the-payer-link-tests';
const OTHER_SECRET = 'another-master-secret-long-enough-for-the-payer-link-tests';
const INSTALLATION = '0f3c2c1e-7d3a-4b8e-9a61-5d2f6c0b9e11';
const DAY = 24 * 60 * 60 * 1000;

function links(options: { secret?: string; previous?: string; installation?: string; store?: Map<string, unknown>; now?: { value: Date } } = {}) {
  const store = options.store ?? new Map<string, unknown>();
  const now = options.now ?? { value: new Date('2026-11-28T12:00:00Z') };
  const config = { checkoutSecret: options.secret ?? SECRET, checkoutSecretPrevious: options.previous, dataDir: '/nonexistent', publicBaseUrl: 'https://pay.example.test' } as AppConfig;
  const fakeOptions = {
    get: (name: string, fallback: unknown) => Promise.resolve(store.has(name) ? store.get(name) : fallback),
    change: (name: string, fallback: unknown, change: (current: unknown) => unknown) => {
      const next = change(store.has(name) ? store.get(name) : fallback);
      store.set(name, next);
      return Promise.resolve(next);
    },
  } as unknown as OptionsService;
  const installation = { id: () => options.installation ?? INSTALLATION } as InstallationService;
  const clock = { now: () => now.value } as Clock;
  return { service: new PayerLinks(config, new CryptoService(config), fakeOptions, installation, clock), store, now };
}

describe('PayerLinks', () => {
  it('makes an opaque base64url link under PUBLIC_BASE_URL that verifies to the lower-cased address and the issue time', async () => {
    const { service } = links();
    const url = await service.manageUrl('Jane.Doe@Example.COM');
    const match = /^https:\/\/pay\.example\.test\/pay\/manage\/([A-Za-z0-9_-]+)$/.exec(url);
    expect(match).not.toBeNull();
    const token = match![1];
    // Nothing of the address can be read in it, whichever way it is decoded.
    expect(token.toLowerCase()).not.toContain('jane');
    expect(Buffer.from(token, 'base64url').toString('latin1').toLowerCase()).not.toContain('jane');
    expect(await service.verify(token)).toEqual({ email: 'jane.doe@example.com', issuedAt: new Date('2026-11-28T12:00:00Z') });
    // A random IV: two links for the same address differ.
    expect(await service.issue('jane.doe@example.com')).not.toBe(token);
  });

  it('refuses a tampered, truncated, padded or foreign token', async () => {
    const { service } = links();
    const token = await service.issue('payer@example.com');
    const flipped = token.slice(0, 20) + (token[20] === 'A' ? 'B' : 'A') + token.slice(21);
    expect(await service.verify(flipped)).toBeNull();
    expect(await service.verify(token.slice(0, -4))).toBeNull();
    expect(await service.verify(`${token}AAAA`)).toBeNull();
    expect(await service.verify(`${token}=`)).toBeNull();
    expect(await service.verify('')).toBeNull();
    expect(await service.verify('not a token')).toBeNull();
    // Another installation, another secret: their links open nothing here.
    expect(await links({ installation: '7a1b6c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d' }).service.verify(token)).toBeNull();
    expect(await links({ secret: OTHER_SECRET }).service.verify(token)).toBeNull();
  });

  it('takes a link up to 30 days old; acting needs one at most 24 hours old', async () => {
    const { service, now } = links();
    const token = await service.issue('payer@example.com');
    const issued = now.value;
    now.value = new Date(issued.getTime() + DAY);
    const day = await service.verify(token);
    expect(day && service.canAct(day)).toBe(true);
    now.value = new Date(issued.getTime() + DAY + 1000);
    const older = await service.verify(token);
    expect(older).not.toBeNull();
    expect(service.canAct(older!)).toBe(false);
    now.value = new Date(issued.getTime() + 30 * DAY);
    expect(await service.verify(token)).not.toBeNull();
    now.value = new Date(issued.getTime() + 30 * DAY + 1000);
    expect(await service.verify(token)).toBeNull();
    // Nor one issued well in the future (another key's clock, a forged time cannot be made anyway).
    now.value = new Date(issued.getTime() - 10 * 60 * 1000);
    expect(await service.verify(token)).toBeNull();
  });

  it('revoking moves the stored version and voids every link issued before, not those issued after', async () => {
    const { service, store } = links();
    const before = await service.issue('payer@example.com');
    expect(await service.revokeAll()).toBe(2);
    expect(store.get(PAYER_LINK_VERSION_OPTION)).toBe(2);
    expect(await service.verify(before)).toBeNull();
    const after = await service.issue('payer@example.com');
    expect(await service.verify(after)).toMatchObject({ email: 'payer@example.com' });
  });

  it('a secret rotation keeps links made under the previous secret valid; new links are made under the current one', async () => {
    const store = new Map<string, unknown>();
    const old = links({ secret: OTHER_SECRET, store }).service;
    const token = await old.issue('payer@example.com');
    const rotating = links({ secret: SECRET, previous: OTHER_SECRET, store }).service;
    expect(await rotating.verify(token)).toMatchObject({ email: 'payer@example.com' });
    const fresh = await rotating.issue('payer@example.com');
    expect(await links({ secret: SECRET, store }).service.verify(fresh)).toMatchObject({ email: 'payer@example.com' });
    expect(await old.verify(fresh)).toBeNull();
  });

  it('pads the sealed address, so tokens of short and longer addresses have the same length', () => {
    const key = Buffer.alloc(32, 7);
    const issuedAt = new Date('2026-11-28T12:00:00Z');
    const short = sealPayerLink(key, { email: 'a@b.co', issuedAt });
    const longer = sealPayerLink(key, { email: 'someone.longer@example.org', issuedAt });
    expect(short.length).toBe(longer.length);
    expect(openPayerLink(key, longer)).toEqual({ email: 'someone.longer@example.org', issuedAt });
    expect(openPayerLink(Buffer.alloc(32, 8), longer)).toBeNull();
    expect(() => sealPayerLink(key, { email: '', issuedAt })).toThrow();
  });
});
