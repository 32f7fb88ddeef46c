export { FormViewModule } from './form-view.module.js';
export { FormViewService, type PayableGateway, type PublicFormView } from './form-view.service.js';
export { DEFAULT_SUCCESS_MESSAGE, type PayerForm, toPayerForm } from './payer-form.js';
export { accentStylesheetPath, FORM_STYLESHEET_PATH, type FormPageOptions, type RenderMethod, renderFormPage } from './form.renderer.js';
export { accentStylesheet, FormStylesheet } from './form-stylesheet.js';
