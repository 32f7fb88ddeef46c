import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, InvalidParamsError } from '../../common/errors/index.js';
import { CHECKOUT_NAME, CHECKOUT_VERSION } from '../../config/index.js';
import { OptionsService } from '../settings/index.js';
import type { PluginInfoDto, PluginStatusDto } from './plugin.dto.js';
import { compareVersions, KNOWN_RELEASES } from './releases.js';
import { UpgradeRegistry } from './upgrade-registry.js';

const VERSION_OPTION = 'checkout_version';

@Injectable()
export class PluginService {
  private readonly logger = new Logger(PluginService.name);
  private running: Promise<string[]> | null = null;

  constructor(
    private readonly options: OptionsService,
    private readonly upgrades: UpgradeRegistry,
  ) {}

  info(): PluginInfoDto {
    return { name: CHECKOUT_NAME, version: CHECKOUT_VERSION, author: 'Checkout', license: 'GPL-2.0-or-later' };
  }

  async status(): Promise<PluginStatusDto> {
    return { active: true, version: await this.installedVersion() };
  }

  async installedVersion(): Promise<string> {
    return this.options.get<string>(VERSION_OPTION, CHECKOUT_VERSION);
  }

  /** Activation: a fresh site records the running version; an older one is upgraded. */
  async activate(): Promise<void> {
    const stored = await this.options.get<string | null>(VERSION_OPTION, null);
    if (stored === null) await this.options.set(VERSION_OPTION, CHECKOUT_VERSION);
    else if (compareVersions(stored, CHECKOUT_VERSION) < 0) await this.update(CHECKOUT_VERSION);
  }

  /**
   * Runs the upgrade routines of every release after the installed one up to `target`, then
   * records `target`. Only one upgrade runs at a time in this process. Returns the releases applied.
   */
  async update(target: string): Promise<string[]> {
    if (compareVersions(target, CHECKOUT_VERSION) > 0) {
      throw new InvalidParamsError({ version: `version must not be above the running release ${CHECKOUT_VERSION}` });
    }
    if (!(KNOWN_RELEASES as readonly string[]).includes(target)) {
      throw new InvalidParamsError({ version: `version must be a known release (${KNOWN_RELEASES.join(', ')})` });
    }
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.applyUpTo(target);
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async applyUpTo(target: string): Promise<string[]> {
    const installed = await this.installedVersion();
    if (compareVersions(target, installed) < 0) {
      throw new ConflictError('checkout_invalid_state', `The plugin is already at ${installed}; downgrades are not supported.`);
    }
    const pending = KNOWN_RELEASES.filter((release) => compareVersions(release, installed) > 0 && compareVersions(release, target) <= 0);
    for (const release of pending) {
      for (const routine of this.upgrades.routinesFor(release)) {
        this.logger.log({ release, routine: routine.name }, 'running upgrade routine');
        await routine.run();
      }
      await this.options.set(VERSION_OPTION, release);
    }
    return pending;
  }
}
