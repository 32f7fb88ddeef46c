import { queryOptions } from '@tanstack/react-query';
import type { paths } from '../../../clients/typescript/index';
import { unwrap } from './api-error';
import { api } from './client';

export type AreaSlug = paths['/tagging/area/{slug}']['get']['parameters']['path']['slug'];

/** Section B's tag vocabulary, and the feature-request (tagging) areas. */
export const tagKeys = {
  all: ['tags'] as const,
  /** Every area: an answer in one changes the name and email defaults of all */
  areas: ['tagging-area'] as const,
  area: (slug: AreaSlug) => [...tagKeys.areas, slug] as const,
};

export const tagsQuery = queryOptions({ queryKey: tagKeys.all, queryFn: async () => unwrap(await api.GET('/tags')) });

export function taggingAreaQuery(slug: AreaSlug) {
  return queryOptions({ queryKey: tagKeys.area(slug), queryFn: async () => unwrap(await api.GET('/tagging/area/{slug}', { params: { path: { slug } } })) });
}
