import { ApiError } from './api-error';
import { formErrorsOf } from './field-errors';

const FIELDS = ['currency', 'api_key', 'debug_mode'] as const;

describe('form errors from an API refusal', () => {
  it('puts each named field’s message at its field; the first in the form’s order takes focus', () => {
    const error = new ApiError('Invalid parameter(s): api_key, currency', 400, 'rest_invalid_param', { api_key: 'api_key must be longer', currency: 'currency must be an ISO 4217 currency code' });
    expect(formErrorsOf(error, FIELDS)).toEqual({
      fields: { currency: 'currency must be an ISO 4217 currency code', api_key: 'api_key must be longer' },
      first: 'currency',
      notice: false,
    });
  });

  it('still shows a notice when a param has no field on the form', () => {
    const error = new ApiError('Invalid parameter(s): area_slug', 400, 'rest_invalid_param', { area_slug: 'must be one of…' });
    expect(formErrorsOf(error, FIELDS)).toEqual({ fields: {}, first: null, notice: true });
  });

  it('gives a single-field form’s 409 (a duplicate) or param-less 400 to that field', () => {
    const duplicate = new ApiError('A tag with that name already exists.', 409, 'checkout_tag_exists');
    expect(formErrorsOf(duplicate, ['tag'] as const, 'tag')).toEqual({ fields: { tag: 'A tag with that name already exists.' }, first: 'tag', notice: false });
    // Without a sole field, it is a notice.
    expect(formErrorsOf(duplicate, FIELDS)).toEqual({ fields: {}, first: null, notice: true });
  });

  it('never makes a 403, a 401, a 5xx or a network failure a field’s: they are notices', () => {
    for (const error of [
      new ApiError('Sorry, you are not allowed to do that.', 403, 'rest_forbidden'),
      new ApiError('You are not currently logged in.', 401, 'rest_not_logged_in'),
      new ApiError('The service is unavailable.', 503, 'checkout_unavailable'),
      new ApiError('The service could not be reached.', 0, 'network_error'),
      new Error('boom'),
    ]) {
      expect(formErrorsOf(error, ['tag'] as const, 'tag')).toEqual({ fields: {}, first: null, notice: true });
    }
  });

  it('has nothing to show without an error', () => {
    expect(formErrorsOf(null, FIELDS)).toEqual({ fields: {}, first: null, notice: false });
  });
});
