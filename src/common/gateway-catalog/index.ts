export * from './gateway-catalog.js';
