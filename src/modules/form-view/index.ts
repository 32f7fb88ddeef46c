export { FormViewModule } from './form-view.module.js';
export { FormViewService, type PayableGateway, type PublicFormView } from './form-view.service.js';
export { DEFAULT_SUCCESS_MESSAGE, localizePayerForm, type PayerForm, toPayerForm } from './payer-form.js';
export { accentStylesheetPath, FORM_STYLESHEET_PATH, type FormPageOptions, pageMessagesElement, type RenderMethod, renderFormPage } from './form.renderer.js';
export { accentStylesheet, FormStylesheet } from './form-stylesheet.js';
