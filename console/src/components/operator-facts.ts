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

const ASKS: Record<string, OperatorAsk> = {
  SMTP_URL: {
    ask: 'Ask them to connect a mail server, so that receipts and payment notifications are sent.',
    detail: 'Set SMTP_URL (smtp:// or smtps://, with the account if the server needs one). Until then every email is written as an .eml file to the outbox folder of the data directory.',
  },
  EMBED_ORIGINS: {
    ask: 'Ask them to allow your site to show this form: give them your site’s address (e.g. https://shop.example.com).',
    detail: 'Add the site’s origin to EMBED_ORIGINS (comma-separated origins); browsers refuse to show the payment page inside other sites.',
  },
};

/** True for the name of an environment variable (`SMTP_URL`), as a notice's `setting` may be. */
export function isEnvironmentSetting(setting: string | null | undefined): setting is string {
  return typeof setting === 'string' && /^[A-Z][A-Z0-9_]*$/.test(setting);
}

/** What to ask the operator about `setting`; a setting without words of its own is named as it is. */
export function operatorAsk(setting: string): OperatorAsk {
  return ASKS[setting] ?? { ask: 'Ask them to look at this service’s configuration.', detail: `The setting concerned is ${setting} (README, “Configuration”).` };
}
