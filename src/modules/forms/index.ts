export { FormsModule } from './forms.module.js';
export { FormsService, type FormChanges, type FormSource } from './forms.service.js';
export * from './form-settings.js';
export { type FormTexts, formTextsIn } from './form-texts.js';
export { checkFormSettings, parseFormSettings, toFormSettings, toPaymentFormDto } from './form-settings.mapper.js';
export { PaymentFormSettingsDto, MAX_FORM_AMOUNT } from './payment-form-settings.dto.js';
export { PaymentFormDto } from './payment-form.dto.js';
export { describePrice, FREQUENCY_LABELS } from './price-format.js';
// Method labels are catalog data (gateways/); re-exported for the modules that draw forms.
export { methodLabel } from '../gateways/index.js';
