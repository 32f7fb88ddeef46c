/**
 * The document's tags, in the words of the people who use the API (shop owners' admin UIs and
 * checkout pages), in the order Swagger UI shows them. Every operation carries exactly these names.
 */
export const OPENAPI_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'Checkout',
    description:
      "What the payer's checkout page calls while paying: record the payer's choices, start the card or wallet payment, " +
      'finish it and read the outcome. No login: the payment reference (payment id, payment secret, checkout token) proves ' +
      'the caller started this payment. The amount always comes from the form on the server.',
  },
  {
    name: 'Forms',
    description:
      'Payment forms: list, create, change and delete them, read the form builder’s fields, preview a form with unsaved ' +
      'changes, and send yourself the emails a payment would trigger.',
  },
  {
    name: 'Templates',
    description: 'Ready-made payment forms and page layouts: browse them, see a picture of each, and import one as a new draft form.',
  },
  {
    name: 'Payments',
    description:
      'Payments as the shop owner sees them: charge a card by hand (virtual terminal), look one up, page through the history, ' +
      'filter and search them, read one with its log and provider ids, export a filtered list as CSV.',
  },
  {
    name: 'Gateways',
    description:
      'The payment providers (gateway A: cards; gateway B: wallet): connect and disconnect, switch between test and live, ' +
      'choose the payment methods payers are offered, and check that the provider’s webhooks are set up.',
  },
  {
    name: 'Webhooks',
    description:
      'Notifications the payment providers send when a payment changes (signed, no login), and the log of what arrived; ' +
      'and the events this service sends to your own endpoints (outgoing webhooks), with their delivery log.',
  },
  {
    name: 'Settings',
    description: 'The site’s general settings (currency, default gateway, API key) and the admin dashboard with its notices and quick setup.',
  },
  {
    name: 'Sign-in',
    description:
      'Signing in to the admin console as the host platform’s own admin UI does: a login and an application password open a ' +
      'session kept on the server; the browser holds it in an HttpOnly cookie and the console sends the session’s nonce as ' +
      '`X-WP-Nonce` with every request. API clients keep using HTTP Basic.',
  },
  {
    name: 'Team',
    description:
      'The people who run the shop with you: invite teammates by email, give each a role (administrator, editor, support, ' +
      'viewer), change or remove them, and make or revoke their application passwords.',
  },
  { name: 'Plugin', description: 'About this plugin: name, version and status, running upgrades, and the page-builder plugin it works with.' },
  { name: 'Tags', description: 'Labels for organising forms and payments, and the feature areas an admin said they are interested in.' },
  { name: 'Operations', description: 'Probes for load balancers and orchestrators: is the process alive, and can it serve requests.' },
];
