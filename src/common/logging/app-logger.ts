import { Injectable } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

/**
 * Nest's own boot chatter, logged at debug instead of info: a line per module ("dependencies
 * initialized") and a line per route ("Mapped {/path, GET} route"), about 90 lines at every
 * start that bury the ones an operator reads. `LOG_LEVEL=debug` shows them again.
 */
const BOOT_DETAIL_CONTEXTS: ReadonlySet<string> = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** The logger Nest is given (`app.useLogger`): nestjs-pino's, with the boot detail above at debug. */
@Injectable()
export class AppLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && BOOT_DETAIL_CONTEXTS.has(context)) this.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}
