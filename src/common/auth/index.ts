export * from './route-auth.js';
export * from './current-user.decorator.js';
export { listRoutes, RouteInventory, type RouteDescription, type RouteEntry } from './route-inventory.js';
export { ADMIN_CAPABILITY, Capability, FINER_CAPABILITIES, type FinerCapability, isFinerCapability } from './capabilities.js';
