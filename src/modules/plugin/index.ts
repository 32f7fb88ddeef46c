export { PluginModule } from './plugin.module.js';
export { UpgradeRegistry, type UpgradeRoutine } from './upgrade-registry.js';
export { HostPluginsService, PAGE_BUILDER_PLUGIN, type HostPluginState } from './host-plugins.service.js';
