export { requestIdOf } from './request-id.js';
