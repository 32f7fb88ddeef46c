import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { unwrap } from '../../api/api-error';
import { api } from '../../api/client';
import { FormattedMessage } from 'react-intl';
import { formErrorsOf } from '../../api/field-errors';
import { type AreaSlug, tagKeys, taggingAreaQuery } from '../../api/tags';
import { Time } from '../../components/time';
import { FieldError, invalid, useFocusFirstInvalid } from '../../components/fields';
import { Page } from '../../components/page';
import { ErrorNotice, QueryView, Success } from '../../components/status';
import { useT } from '../../i18n/use-t';
import { answerOf, type TaggingArea } from './settings-model';
import { SettingsNav } from './settings-nav';

/** The interface's tagging areas, in the order the console shows them (the compiler checks none is missing). */
const AREAS = ['payment-gateways', 'templates', 'form-builder'] as const satisfies readonly AreaSlug[];
type Missing = Exclude<AreaSlug, (typeof AREAS)[number]>;
const everyAreaListed: Missing extends never ? true : never = true;
void everyAreaListed;

const ANSWER_FIELDS = ['tags', 'email_address', 'first_name', 'last_name'] as const;

/**
 * The feature-interest catalog of each admin area (`GET /tagging/area/{slug}`): the admin ticks
 * what they would use and saves the answer (`POST /tagging/apply`), which replaces their earlier one.
 */
export function FeatureRequestsScreen() {
  const t = useT();
  return (
    <Page title={t('settings.features.title')}>
      <SettingsNav />
      <p className="muted">{t('settings.features.intro')}</p>
      <div className="stack">
        {AREAS.map((slug) => (
          <FeatureArea key={slug} slug={slug} />
        ))}
      </div>
    </Page>
  );
}

export function FeatureArea({ slug }: { slug: AreaSlug }) {
  const area = useQuery(taggingAreaQuery(slug));
  return (
    <section className="card">
      <QueryView query={area} what="status.loading.featureList">
        {(data) => <AreaForm area={data} />}
      </QueryView>
    </section>
  );
}

function AreaForm({ area }: { area: TaggingArea }) {
  const t = useT();
  const queries = useQueryClient();
  const [ticked, setTicked] = useState<Set<string>>(() => new Set(area.applied_tags));
  const [person, setPerson] = useState({ email_address: area.email_address, first_name: area.first_name, last_name: area.last_name });
  const [done, setDone] = useState<string | null>(null);
  const apply = useMutation({
    mutationFn: async () => unwrap(await api.POST('/tagging/apply', { body: answerOf(area, ticked, person) })),
    onMutate: () => setDone(null),
    onSuccess: async (answer) => {
      // Every area's form takes its name and email defaults from the latest answer: read them all again.
      await queries.invalidateQueries({ queryKey: tagKeys.areas });
      setDone(answer.message);
    },
  });
  const prefix = `area-${area.slug}`;
  const errors = formErrorsOf(apply.error, ANSWER_FIELDS);
  // The tags' message belongs to the whole list: focus goes to its first box.
  useFocusFirstInvalid(apply.error, errors.first === 'tags' ? (area.features[0]?.tag ?? null) : errors.first, prefix);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    apply.mutate();
  }

  const input = (name: 'email_address' | 'first_name' | 'last_name') => ({
    id: `${prefix}-${name}`,
    value: person[name],
    onChange: (event: { target: { value: string } }) => setPerson({ ...person, [name]: event.target.value }),
    ...invalid(errors.fields[name], `${prefix}-${name}`),
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{area.name}</h2>
      <p>{area.description}</p>
      {done && <Success>{done}</Success>}
      {errors.notice && apply.isError && <ErrorNotice error={apply.error} />}
      <fieldset aria-describedby={errors.fields.tags ? `${prefix}-tags-error` : undefined}>
        <legend>{t('settings.features.features')}</legend>
        {area.features.map((feature) => (
          <label key={feature.tag} className="check">
            <input
              id={`${prefix}-${feature.tag}`}
              type="checkbox"
              checked={ticked.has(feature.tag)}
              onChange={(event) => {
                const next = new Set(ticked);
                if (event.target.checked) next.add(feature.tag);
                else next.delete(feature.tag);
                setTicked(next);
              }}
            />
            {feature.name}
          </label>
        ))}
        <FieldError id={`${prefix}-tags`} message={errors.fields.tags} />
      </fieldset>
      <div className="grid">
        <label className="field">
          <span className="field-label">{t('settings.features.email')}</span>
          <input {...input('email_address')} type="email" autoComplete="email" required maxLength={254} />
          <FieldError id={`${prefix}-email_address`} message={errors.fields.email_address} />
        </label>
        <label className="field">
          <span className="field-label">{t('settings.features.firstName')}</span>
          <input {...input('first_name')} autoComplete="given-name" maxLength={100} />
          <FieldError id={`${prefix}-first_name`} message={errors.fields.first_name} />
        </label>
        <label className="field">
          <span className="field-label">{t('settings.features.lastName')}</span>
          <input {...input('last_name')} autoComplete="family-name" maxLength={100} />
          <FieldError id={`${prefix}-last_name`} message={errors.fields.last_name} />
        </label>
      </div>
      <p className="muted">
        {area.applied_at ? <FormattedMessage id="settings.features.answeredOn" values={{ time: <Time iso={area.applied_at} /> }} /> : t('settings.features.notAnswered')}
      </p>
      <button type="submit" className="button button-primary" disabled={apply.isPending}>
        {apply.isPending ? t('common.saving') : area.submit_text}
      </button>
    </form>
  );
}
