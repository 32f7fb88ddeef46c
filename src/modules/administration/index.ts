export { AdministrationModule } from './administration.module.js';
