export { SettingsModule } from './settings.module.js';
export { OptionsService } from './options.service.js';
export { SettingsService } from './settings.service.js';
export { InstallationService } from './installation.service.js';
export { SECRET_CANARY_OPTION, SecretCanary, SecretMismatchError } from './secret-canary.service.js';
export { GATEWAY_IDS, type GatewayId } from './settings.dto.js';
