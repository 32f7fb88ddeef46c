export * from './route-auth.js';
export * from './current-user.decorator.js';
export { listRoutes, RouteInventory, type RouteDescription, type RouteEntry } from './route-inventory.js';
