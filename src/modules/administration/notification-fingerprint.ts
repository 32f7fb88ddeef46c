import { createHash } from 'node:crypto';

type Fact = string | number | boolean | null;

/**
 * The fingerprint of a notification's condition: SHA-256 over its id and its facts (keys sorted,
 * so the order facts were listed in does not matter), first 32 hex digits. A dismissal holds for
 * one fingerprint; when a fact changes (another status, another last error) the notification
 * shows again.
 */
export function notificationFingerprint(id: string, facts: Record<string, Fact>): string {
  const canonical = JSON.stringify([id, Object.keys(facts).sort().map((key) => [key, facts[key]])]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}
