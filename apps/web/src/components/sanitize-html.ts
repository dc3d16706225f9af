import DOMPurify from 'dompurify';

/**
 * Operator-provided HTML (footer, home page, about, notice) is rendered in every visitor's browser, so it is
 * stripped of scripts, event handlers and javascript: URLs before it reaches the DOM.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, ADD_ATTR: ['target'] });
}
