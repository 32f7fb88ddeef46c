/**
 * The id of a field the gateway may send as an id or, expanded, as the object itself
 * (`customer: "cus_…"` or `customer: { id: "cus_…", … }`); null when absent or empty.
 */
export function expandableId(value: unknown): string | null {
  if (typeof value === 'string') return value.length > 0 ? value : null;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const id = (value as { id?: unknown }).id;
    return typeof id === 'string' && id.length > 0 ? id : null;
  }
  return null;
}
