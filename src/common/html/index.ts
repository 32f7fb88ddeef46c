export { escapeHtml } from './html.js';
