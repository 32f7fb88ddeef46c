import { RequestMethod } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces/index.js';

export { AdminConsoleModule } from './admin-console.module.js';
export { CONSOLE_CSP } from './admin-console.controller.js';

/** Where the console is served (the boot line prints it). */
export const ADMIN_CONSOLE_PATH = '/admin/';

/** The console's routes, served outside the REST prefix (bootstrap excludes them from the global prefix). */
export const ADMIN_CONSOLE_ROUTES: RouteInfo[] = [
  { path: 'admin', method: RequestMethod.GET },
  { path: 'admin/*path', method: RequestMethod.GET },
];
