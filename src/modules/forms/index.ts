export { FormsModule } from './forms.module.js';
export { FormsService } from './forms.service.js';
export * from './form-settings.js';
