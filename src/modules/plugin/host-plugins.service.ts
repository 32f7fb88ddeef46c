import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { ConflictError, DomainError, ForbiddenError } from '../../common/errors/index.js';
import { OptionsService } from '../settings/index.js';

/** The one plugin the page-builder routes manage (docs/interface.md: no slug but this one is accepted). */
export const PAGE_BUILDER_PLUGIN = { slug: 'page_builder', name: 'Page builder' } as const;

/** Host-slice options, named as the host platform names them: arrays of plugin slugs. */
export const INSTALLED_PLUGINS_OPTION = 'installed_plugins';
export const ACTIVE_PLUGINS_OPTION = 'active_plugins';

export interface HostPluginState {
  slug: string;
  name: string;
  installed: boolean;
  active: boolean;
}

export class PluginNotAllowedError extends DomainError {
  constructor() {
    super('checkout_plugin_not_allowed', 400, `Only the ${PAGE_BUILDER_PLUGIN.slug} plugin can be installed or activated here.`, {
      params: { slug: `slug must be ${PAGE_BUILDER_PLUGIN.slug}` },
    });
  }
}

/**
 * Installed/active state of the page-builder plugin in the host slice. The host platform's
 * plugin directory is out of reach of this service, so "install" records the plugin as present;
 * activation requires a prior install, as on the host.
 */
@Injectable()
export class HostPluginsService {
  constructor(private readonly options: OptionsService) {}

  async state(slug: string = PAGE_BUILDER_PLUGIN.slug): Promise<HostPluginState> {
    const stored = await this.options.getMany([INSTALLED_PLUGINS_OPTION, ACTIVE_PLUGINS_OPTION]);
    const installed = asSlugList(stored.get(INSTALLED_PLUGINS_OPTION)).includes(slug);
    const active = installed && asSlugList(stored.get(ACTIVE_PLUGINS_OPTION)).includes(slug);
    return { slug, name: PAGE_BUILDER_PLUGIN.name, installed, active };
  }

  /** Host capabilities that gate the two routes on top of the admin capability. */
  canInstall(user: AuthenticatedUser): boolean {
    return user.capabilities.has('install_plugins');
  }

  canActivate(user: AuthenticatedUser): boolean {
    return user.capabilities.has('activate_plugins');
  }

  /** Idempotent: installing an installed plugin changes nothing. Returns whether it was newly installed. */
  async install(user: AuthenticatedUser, slug: string): Promise<{ changed: boolean; state: HostPluginState }> {
    assertAllowed(slug);
    if (!this.canInstall(user)) throw new ForbiddenError('You are not allowed to install plugins.');
    const before = await this.state(slug);
    if (!before.installed) await this.addTo(INSTALLED_PLUGINS_OPTION, slug);
    return { changed: !before.installed, state: await this.state(slug) };
  }

  /** Activation needs a prior install (409 `checkout_plugin_not_installed`). Idempotent otherwise. */
  async activate(user: AuthenticatedUser, slug: string): Promise<{ changed: boolean; state: HostPluginState }> {
    assertAllowed(slug);
    if (!this.canActivate(user)) throw new ForbiddenError('You are not allowed to activate plugins.');
    const before = await this.state(slug);
    if (!before.installed) {
      throw new ConflictError('checkout_plugin_not_installed', `The ${PAGE_BUILDER_PLUGIN.name} plugin must be installed before it can be activated.`);
    }
    if (!before.active) await this.addTo(ACTIVE_PLUGINS_OPTION, slug);
    return { changed: !before.active, state: await this.state(slug) };
  }

  private async addTo(option: string, slug: string): Promise<void> {
    const list = asSlugList(await this.options.get<unknown>(option, []));
    if (!list.includes(slug)) await this.options.set(option, [...list, slug]);
  }
}

function assertAllowed(slug: string): void {
  if (slug !== PAGE_BUILDER_PLUGIN.slug) throw new PluginNotAllowedError();
}

function asSlugList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
