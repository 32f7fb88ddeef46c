import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import type { components } from '../../../../../clients/typescript/index';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { formKeys } from '../../../api/forms';
import { templateListQuery } from '../../../api/templates';
import { restBase } from '../../../api/rest-base';
import { Page } from '../../../components/page';
import { Empty, ErrorNotice, QueryView } from '../../../components/status';
import { useT } from '../../../i18n/use-t';

type FormTemplate = components['schemas']['FormTemplateItemDto'];

/**
 * The bundled form templates, each with its picture: choosing one creates a draft form with the
 * template's settings (`POST /administration/import-template`) and opens it in the builder.
 */
export function FormGalleryScreen() {
  const t = useT();
  const query = useQuery(templateListQuery);
  const navigate = useNavigate();
  const queries = useQueryClient();
  const failure = useRef<HTMLDivElement>(null);
  const create = useMutation({
    mutationFn: async (template: FormTemplate) => unwrap(await api.POST('/administration/import-template', { body: { type: 'form_template', slug: template.slug } })),
    onSuccess: async ({ form_id }) => {
      await queries.invalidateQueries({ queryKey: formKeys.lists });
      await navigate(`/forms/${form_id}`, { state: { created: true } });
    },
  });

  useEffect(() => {
    if (create.isError) failure.current?.focus();
  }, [create.isError]);

  return (
    <Page title={t('forms.gallery.title')} actions={<Link to="/forms">{t('forms.gallery.allForms')}</Link>}>
      <p>{t('forms.gallery.intro')}</p>
      <div ref={failure} tabIndex={-1} className="focus-target">
        {create.isError && <ErrorNotice error={create.error} />}
      </div>
      <QueryView query={query} what="status.loading.templates">
        {(list) =>
          list.form_templates.length === 0 ? (
            <Empty>{t('forms.gallery.empty')}</Empty>
          ) : (
            <ul className="grid gallery" aria-label={t('forms.gallery.label')}>
              {list.form_templates.map((template) => (
                <li key={template.slug} className="card template">
                  <h2 id={`template-${template.slug}`}>{template.name}</h2>
                  {/* The preview route is public and on this origin (the page allows images from 'self'). */}
                  <img src={templatePreviewUrl(template.slug)} alt={t('forms.gallery.preview', { name: template.name })} loading="lazy" />
                  <p>{template.description}</p>
                  <p>
                    <span className="badge">{t('forms.gallery.category', { category: template.category })}</span>
                  </p>
                  <button
                    type="button"
                    className="button button-primary"
                    aria-describedby={`template-${template.slug}`}
                    disabled={create.isPending}
                    onClick={() => create.mutate(template)}
                  >
                    {create.isPending && create.variables?.slug === template.slug ? t('forms.gallery.creating') : t('forms.gallery.use', { name: template.name })}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </Page>
  );
}

/** The template's SVG picture on this origin (the answer's `preview_url` carries PUBLIC_BASE_URL, which may be another host name). */
function templatePreviewUrl(slug: string): string {
  return `${restBase()}/bundled-templates/${encodeURIComponent(slug)}/preview.svg`;
}
