import { type Dispatch, useState } from 'react';
import { useT } from '../../../i18n/use-t';
import { PAYER_LANGUAGES, type PayerLanguage } from '../../../payer-languages';
import { type BuilderRules, RULE_KEYS } from '../common/builder-rules';
import {
  type DraftAction,
  type FormDraft,
  type TranslatedText,
  optionLines,
  translatedChoice,
  translatedFieldLabel,
  translatedPlanTitle,
  withTranslatedChoice,
  withTranslatedFieldLabel,
  withTranslatedPlanTitle,
  withTranslatedText,
} from '../common/form-draft';
import { Group, SelectInput, TextInput } from './inputs';

type Translation = FormDraft['translations'][number];

interface TranslationsProps {
  draft: FormDraft;
  dispatch: Dispatch<DraftAction>;
  rules: BuilderRules;
}

/**
 * The form's own texts in other payer languages (`settings.translations`, docs/languages.md): one
 * entry per language, each text optional (the form-wide texts and the payer's email subject, each
 * field's label and a select field's choices, each plan's title); payers of that language see them
 * on the hosted page and in their emails.
 */
export function TranslationsSection({ draft, dispatch, rules }: TranslationsProps) {
  const t = useT();
  const present = new Set(draft.translations.map((entry) => entry.locale));
  const available = PAYER_LANGUAGES.filter((language) => !present.has(language.value));
  const [adding, setAdding] = useState<PayerLanguage | ''>('');
  // The language the Add button adds: the one picked, while it is still free; else the first free one.
  const chosen: PayerLanguage | undefined = adding !== '' && !present.has(adding) ? adding : available.at(0)?.value;
  const set = (translations: Translation[]) => dispatch({ type: 'update', patch: { translations } });
  const change = (index: number, next: (entry: Translation) => Translation) => set(draft.translations.map((other, at) => (at === index ? next(other) : other)));
  const original = (text: string) => (text.trim() === '' ? undefined : t('forms.builder.translations.original', { text }));
  const nameOf = (locale: string) => PAYER_LANGUAGES.find((language) => language.value === locale)?.label ?? locale;

  const texts: Array<{ text: TranslatedText; label: string; original: string; maxLength: number | undefined; multiline?: boolean }> = [
    { text: 'title', label: t('forms.builder.translations.title'), original: draft.title, maxLength: rules.maxLength(RULE_KEYS.title) },
    { text: 'description', label: t('forms.builder.translations.description'), original: draft.description, maxLength: rules.maxLength(RULE_KEYS.description), multiline: true },
    { text: 'button_label', label: t('forms.builder.translations.buttonLabel'), original: draft.buttonLabel, maxLength: rules.maxLength(RULE_KEYS.buttonLabel) },
    { text: 'success_message', label: t('forms.builder.translations.successMessage'), original: draft.successMessage, maxLength: rules.maxLength(RULE_KEYS.successMessage), multiline: true },
    { text: 'payer_subject', label: t('forms.builder.translations.payerSubject'), original: draft.email.payer_subject, maxLength: rules.maxLength(RULE_KEYS.payerSubject) },
  ];

  return (
    <section className="card" aria-labelledby="section-translations">
      <h2 id="section-translations">{t('forms.builder.translations.heading')}</h2>
      <p className="muted">{t('forms.builder.translations.intro')}</p>
      {draft.translations.map((entry, index) => (
        <Group key={entry.locale} path={`settings.translations.${index}`} legend={nameOf(entry.locale)} className="plan">
          {texts.map(({ text, label, original: own, maxLength, multiline }) => (
            <TextInput
              key={text}
              path={`settings.translations.${index}.${text}`}
              label={label}
              help={original(own)}
              multiline={multiline}
              maxLength={maxLength}
              value={entry[text] ?? ''}
              onChange={(value) => change(index, (other) => withTranslatedText(other, text, value))}
            />
          ))}
          <Group path={`settings.translations.${index}.fields`} legend={t('forms.builder.translations.fieldLabels')} className="plain">
            {draft.fields.map((field) => {
              // The server names a version by its place in the list it was sent.
              const at = entry.fields?.findIndex((version) => version.name === field.name) ?? -1;
              // A select field's choices, one input each: the payer submits the choice as written whatever is shown.
              const choices = field.type === 'select' ? optionLines(field.options) : [];
              return (
                <div key={field.id}>
                  <TextInput
                    path={at >= 0 ? `settings.translations.${index}.fields.${at}.label` : `settings.translations.${index}.fields.${field.name}`}
                    label={t('forms.builder.translations.fieldLabel', { name: field.name })}
                    help={original(field.label)}
                    maxLength={rules.maxLength(RULE_KEYS.fieldLabel)}
                    value={translatedFieldLabel(entry, field.name)}
                    onChange={(value) => change(index, (other) => withTranslatedFieldLabel(other, field.name, value))}
                  />
                  {choices.map((choice, choiceIndex) => (
                    <TextInput
                      key={`${field.id}-${choiceIndex}`}
                      path={at >= 0 ? `settings.translations.${index}.fields.${at}.options.${choiceIndex}` : `settings.translations.${index}.fields.${field.name}.options.${choiceIndex}`}
                      label={t('forms.builder.translations.choice', { number: choiceIndex + 1, name: field.name })}
                      help={original(choice)}
                      maxLength={rules.maxLength(RULE_KEYS.fieldOptions)}
                      value={translatedChoice(entry, field.name, choiceIndex)}
                      onChange={(value) => change(index, (other) => withTranslatedChoice(other, field.name, choiceIndex, choices.length, value))}
                    />
                  ))}
                </div>
              );
            })}
          </Group>
          <Group path={`settings.translations.${index}.plans`} legend={t('forms.builder.translations.planTitles')} className="plain">
            {draft.plans.map((plan, planIndex) => {
              const at = entry.plans?.findIndex((version) => version.plan_index === planIndex) ?? -1;
              return (
                <TextInput
                  key={plan.id}
                  path={at >= 0 ? `settings.translations.${index}.plans.${at}.title` : `settings.translations.${index}.plans.new-${planIndex}`}
                  label={t('forms.builder.translations.planTitle', { number: planIndex + 1 })}
                  help={original(plan.title)}
                  maxLength={rules.maxLength(RULE_KEYS.planTitle)}
                  value={translatedPlanTitle(entry, planIndex)}
                  onChange={(value) => change(index, (other) => withTranslatedPlanTitle(other, planIndex, value))}
                />
              );
            })}
          </Group>
          <button type="button" className="button button-quiet" onClick={() => set(draft.translations.filter((_, at) => at !== index))}>
            {t('forms.builder.translations.remove', { language: nameOf(entry.locale) })}
          </button>
        </Group>
      ))}
      {chosen !== undefined && (
        <div className="field-row">
          <SelectInput
            path="translations.add"
            label={t('forms.builder.translations.language')}
            value={chosen}
            options={available}
            onChange={(locale) => setAdding(locale as PayerLanguage)}
          />
          <button type="button" className="button" onClick={() => set([...draft.translations, { locale: chosen }])}>
            {t('forms.builder.translations.add')}
          </button>
        </div>
      )}
    </section>
  );
}
