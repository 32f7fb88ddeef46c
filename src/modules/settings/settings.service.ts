import { Injectable } from '@nestjs/common';
import { SECTION_B_DEFAULT_GATEWAY } from '../../common/gateway-catalog/index.js';
import { OptionsService } from './options.service.js';
import type { GatewayId, SettingsDto, UpdateSettingsDto } from './settings.dto.js';

const GENERAL_OPTION = 'checkout_general_settings';
const API_KEY_OPTION = 'checkout_general_api_key';

interface StoredGeneralSettings {
  currency: string;
  payment_gateway: GatewayId;
  debug_mode: boolean;
}

const DEFAULTS: StoredGeneralSettings = { currency: 'USD', payment_gateway: SECTION_B_DEFAULT_GATEWAY, debug_mode: false };

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
      return next;
    });
    if (apiKey !== undefined) await this.options.setSecret(API_KEY_OPTION, apiKey);
  }

  async reset(): Promise<void> {
    await this.options.delete([GENERAL_OPTION, API_KEY_OPTION]);
  }
}
