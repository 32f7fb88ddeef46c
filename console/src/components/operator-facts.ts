import type { Translate } from '../i18n/translate';

/**
 * What a merchant asks the person who runs this service for, per setting of the service's
 * environment (README "Configuration"). Screens speak to the merchant; these facts go behind the
 * "For the person who runs this service" disclosure (components/for-operator.tsx).
 */
export interface OperatorAsk {
  /** What to ask for, in the merchant's words */
  ask: string;
  /** What the operator needs to know, naming the setting */
  detail: string;
}

/** The settings with words of their own in the catalogs (`forOperator.<key>.ask` / `.detail`). */
const ASK_KEYS: Record<string, string> = { SMTP_URL: 'smtp', EMBED_ORIGINS: 'embedOrigins' };

/** True for the name of an environment variable (`SMTP_URL`), as a notice's `setting` may be. */
export function isEnvironmentSetting(setting: string | null | undefined): setting is string {
  return typeof setting === 'string' && /^[A-Z][A-Z0-9_]*$/.test(setting);
}

/** What to ask the operator about `setting`; a setting without words of its own is named as it is. */
export function operatorAsk(setting: string, t: Translate): OperatorAsk {
  const key = Object.hasOwn(ASK_KEYS, setting) ? ASK_KEYS[setting] : 'other';
  return { ask: t(`forOperator.${key}.ask`), detail: t(`forOperator.${key}.detail`, { setting }) };
}
