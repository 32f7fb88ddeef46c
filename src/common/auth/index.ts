export * from './route-auth.js';
export * from './current-user.decorator.js';
export { RouteInventory, type RouteEntry } from './route-inventory.js';
