/** The capability every admin route of the API requires (the host platform's name). */
export const CHECKOUT_SETTINGS = 'checkout_settings';
