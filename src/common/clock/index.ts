export { Clock } from './clock.js';
export { ClockModule } from './clock.module.js';
