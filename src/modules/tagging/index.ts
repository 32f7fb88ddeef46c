export { TaggingModule } from './tagging.module.js';
