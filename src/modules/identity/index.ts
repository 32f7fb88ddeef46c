export { IdentityModule } from './identity.module.js';
export { TeamModule } from './team.module.js';
export { IdentityService, type StaleCredentials } from './identity.service.js';
export { AuthorizationGuard } from './authorization.guard.js';
export { AccountService, type SetPasswordTokenInfo } from './accounts/account.service.js';
export type { AccountTokenPurpose } from './accounts/account-token.entity.js';
