export * from './domain-error.js';
export * from './wp-error.js';
export { isDatabaseDown, WpErrorFilter } from './wp-error.filter.js';
export { BootError } from './boot-error.js';
