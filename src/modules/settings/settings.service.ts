import { Injectable } from '@nestjs/common';
import { SECTION_B_DEFAULT_GATEWAY } from '../../common/gateway-catalog/index.js';
import { isPayerLocale, type PayerLocale } from '../../common/i18n/index.js';
import { OptionsService } from './options.service.js';
import type { GatewayId, SettingsDto, UpdateSettingsDto } from './settings.dto.js';

const GENERAL_OPTION = 'checkout_general_settings';
const API_KEY_OPTION = 'checkout_general_api_key';

interface StoredGeneralSettings {
  currency: string;
  payment_gateway: GatewayId;
  debug_mode: boolean;
  /** The payer's language when a form's `auto` locale finds none of the browser's (issue 32) */
  language: PayerLocale;
}

const DEFAULTS: StoredGeneralSettings = { currency: 'USD', payment_gateway: SECTION_B_DEFAULT_GATEWAY, debug_mode: false, language: 'en' };

/** Section B `/settings`: general plugin settings kept in the options store. */
@Injectable()
export class SettingsService {
  constructor(private readonly options: OptionsService) {}

  async read(): Promise<SettingsDto> {
    const stored = await this.options.get<StoredGeneralSettings>(GENERAL_OPTION, DEFAULTS);
    return { ...DEFAULTS, ...stored, api_key: await this.options.getSecretMask(API_KEY_OPTION) };
  }

  async update(changes: UpdateSettingsDto): Promise<void> {
    const { api_key: apiKey, ...general } = changes;
    // Compare-and-set: concurrent updates of different fields do not overwrite each other.
    await this.options.change<StoredGeneralSettings>(GENERAL_OPTION, DEFAULTS, (current) => {
      const next: StoredGeneralSettings = { ...DEFAULTS, ...current };
      if (general.currency !== undefined) next.currency = general.currency;
      if (general.payment_gateway !== undefined) next.payment_gateway = general.payment_gateway;
      if (general.debug_mode !== undefined) next.debug_mode = general.debug_mode;
      if (general.language !== undefined) next.language = general.language;
      return next;
    });
    if (apiKey !== undefined) await this.options.setSecret(API_KEY_OPTION, apiKey);
  }

  /** The site's default payer language (`language`, default `en`). */
  async payerLanguage(): Promise<PayerLocale> {
    const stored = await this.options.get<Partial<StoredGeneralSettings>>(GENERAL_OPTION, DEFAULTS);
    return isPayerLocale(stored.language) ? stored.language : DEFAULTS.language;
  }

  async reset(): Promise<void> {
    await this.options.delete([GENERAL_OPTION, API_KEY_OPTION]);
  }
}
