import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/api-error';
import { ErrorNotice, Success } from '../../components/status';
import { useT } from '../../i18n/use-t';
import { savePaymentMethodSettings, setPaymentMethods } from './gateway-calls';
import { type CatalogGateway, type CatalogMethod, methodLocked, parseDomains, type Plan, toggleMethod } from './gateway-logic';
import { useGatewayMutation } from './gateway-mutation';

/**
 * A gateway's payment methods as the catalog lists them: which are active (one list for both
 * modes), Pro-only ones marked and locked on the free plan, and the settings of the methods that
 * have some (device wallets' domain verification).
 */
export function PaymentMethods({ gateway, plan }: { gateway: CatalogGateway; plan: Plan }) {
  const t = useT();
  const saved = gateway.methods.filter((method) => method.active).map((method) => method.id);
  const [active, setActive] = useState<string[]>(saved);
  const savedKey = saved.join(',');
  // The catalog changed (a save here, or elsewhere): start again from what is stored.
  useEffect(() => setActive(savedKey ? savedKey.split(',') : []), [savedKey]);
  const mutation = useGatewayMutation((methods: CatalogMethod['id'][]) => setPaymentMethods(gateway.id, methods));
  const prefix = `${gateway.id}-methods`;
  const changed = active.join(',') !== savedKey;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    mutation.mutate(gateway.methods.map((method) => method.id).filter((id) => active.includes(id)));
  }

  const apiError = mutation.error instanceof ApiError ? mutation.error : null;
  return (
    <section className="methods" aria-labelledby={`${prefix}-title ${gateway.id}-title`}>
      <h3 id={`${prefix}-title`}>{t('gateways.methods.title')}</h3>
      <form onSubmit={submit}>
        <fieldset aria-describedby={apiError?.params.methods ? `${prefix}-error` : undefined}>
          <legend>{t('gateways.methods.legend')}</legend>
          {gateway.methods.map((method) => {
            const checked = active.includes(method.id);
            const locked = methodLocked(method, plan, checked);
            const notes = [
              method.pro_only ? t(locked ? 'gateways.methods.needsPro' : 'gateways.methods.pro') : '',
              method.hosted_page ? '' : t('gateways.methods.notHosted'),
            ].filter(Boolean);
            return (
              <label key={method.id} className="check">
                <input
                  type="checkbox"
                  name="methods"
                  value={method.id}
                  checked={checked}
                  disabled={locked}
                  aria-describedby={notes.length > 0 ? `${prefix}-${method.id}-note` : undefined}
                  onChange={(event) => setActive(toggleMethod(gateway.methods, active, method.id, event.target.checked))}
                />
                {method.label}
                {method.pro_only && <span className="badge badge-pro">{t('gateways.methods.proBadge')}</span>}
                {notes.length > 0 && (
                  <span id={`${prefix}-${method.id}-note`} className="muted">
                    ({notes.join('; ')})
                  </span>
                )}
              </label>
            );
          })}
          {apiError?.params.methods && (
            <p id={`${prefix}-error`} className="field-error">
              {apiError.params.methods}
            </p>
          )}
        </fieldset>
        {plan !== 'pro' && gateway.methods.some((method) => method.pro_only) && (
          <p className="field-help">{t('gateways.methods.proOnly')}</p>
        )}
        {mutation.isError && <ErrorNotice error={mutation.error} />}
        {mutation.isSuccess && !changed && <Success>{t('gateways.methods.saved')}</Success>}
        <button type="submit" className="button button-primary" disabled={mutation.isPending || !changed}>
          {t('gateways.methods.submit')}
        </button>
      </form>
      {gateway.methods
        .filter((method) => method.has_settings)
        .map((method) => (
          <MethodSettings key={method.id} gateway={gateway} method={method} />
        ))}
    </section>
  );
}

type MethodWithSettings = Parameters<typeof savePaymentMethodSettings>[1];

/** Settings of a method that has some (the catalog's `has_settings`): device wallets' domain verification. */
function MethodSettings({ gateway, method }: { gateway: CatalogGateway; method: CatalogMethod }) {
  const t = useT();
  const prefix = `${gateway.id}-${method.id}-settings`;
  const mutation = useGatewayMutation((settings: { domain_verification: boolean; domains: string[] }) =>
    savePaymentMethodSettings(gateway.id, method.id as MethodWithSettings, settings),
  );
  const domainsInput = useRef<HTMLTextAreaElement>(null);
  const apiError = mutation.error instanceof ApiError ? mutation.error : null;
  const domainsError = Object.entries(apiError?.params ?? {}).find(([name]) => name.startsWith('settings.domains'))?.[1];
  const verificationError = apiError?.params['settings.domain_verification'];
  const stored = method.settings ?? null;

  useEffect(() => {
    if (mutation.isError && domainsError) domainsInput.current?.focus();
  }, [mutation.isError, mutation.error, domainsError]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    mutation.mutate({ domain_verification: form.get('domain_verification') === 'on', domains: parseDomains(String(form.get('domains') ?? '')) });
  }

  return (
    <details className="disclosure">
      <summary>{t('gateways.methodSettings.title', { method: method.label })}</summary>
      {/* Keyed by what is stored, so the form starts again from it after a save. */}
      <form key={JSON.stringify(stored)} onSubmit={submit}>
        <label className="check">
          <input
            type="checkbox"
            name="domain_verification"
            defaultChecked={stored?.domain_verification ?? false}
            aria-invalid={verificationError ? true : undefined}
            aria-describedby={verificationError ? `${prefix}-verification-error` : undefined}
          />
          {t('gateways.methodSettings.verification')}
        </label>
        {verificationError && (
          <p id={`${prefix}-verification-error`} className="field-error">
            {verificationError}
          </p>
        )}
        <div className="field">
          <label className="field-label" htmlFor={`${prefix}-domains`}>
            {t('gateways.methodSettings.domains')}
          </label>
          <textarea
            ref={domainsInput}
            id={`${prefix}-domains`}
            name="domains"
            rows={3}
            defaultValue={(stored?.domains ?? []).join('\n')}
            spellCheck={false}
            aria-invalid={domainsError ? true : undefined}
            aria-describedby={[`${prefix}-domains-hint`, domainsError ? `${prefix}-domains-error` : ''].filter(Boolean).join(' ')}
          />
          <span id={`${prefix}-domains-hint`} className="field-help">
            {t('gateways.methodSettings.domainsHelp', { method: method.label })}
          </span>
          {domainsError && (
            <span id={`${prefix}-domains-error`} className="field-error">
              {domainsError}
            </span>
          )}
        </div>
        {mutation.isError && !domainsError && !verificationError && <ErrorNotice error={mutation.error} />}
        {mutation.isSuccess && <Success>{t('gateways.methodSettings.saved', { method: method.label })}</Success>}
        <button type="submit" className="button button-primary" disabled={mutation.isPending}>
          {t('gateways.methodSettings.submit', { method: method.label })}
        </button>
      </form>
    </details>
  );
}
