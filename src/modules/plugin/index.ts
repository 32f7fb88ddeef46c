export { PluginModule } from './plugin.module.js';
export { UpgradeRegistry, type UpgradeRoutine } from './upgrade-registry.js';
