/**
 * The REST base of this installation (`/{REST_ROOT}/checkout/v1`): the service writes it into the
 * page's `<meta name="checkout-rest-base">` when it serves the console (REST_ROOT is configurable).
 */
export function restBase(doc: Document = document): string {
  const value = doc.querySelector<HTMLMetaElement>('meta[name="checkout-rest-base"]')?.content ?? '';
  // The unreplaced placeholder means the page was not served by the service (e.g. opened from disk).
  return value && !value.includes('%') ? value : '/wp-json/checkout/v1';
}
