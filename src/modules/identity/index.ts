export { IdentityModule } from './identity.module.js';
export { IdentityService } from './identity.service.js';
export { AuthorizationGuard } from './authorization.guard.js';
