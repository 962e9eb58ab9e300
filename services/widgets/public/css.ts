// The widget owner's CSS (`widgetcss`), made safe to inline into the widget's page: parsed with postcss, then
// everything that could load or run something other than an https resource is removed — `@import` rules,
// `expression(...)` (old IE), `behavior` and `-moz-binding`, and any declaration or at-rule whose `url()` (or
// `image-set()` string) is not https. Checks read the text with CSS escapes and comments undone, so `expr\65ssion(`
// is caught. Comments are dropped, and a remaining `<` is escaped, so the text cannot close the page's <style>.
import postcss, { type AtRule, type Declaration } from 'postcss';

export const WIDGET_CSS_MAX_BYTES = 20 * 1024;

export type SanitizedCss = { ok: true; css: string } | { ok: false; message: string };

// CSS escapes (`\65`, `\"`) undone and comments removed: what a browser would read.
function plain(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
    .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
    })
    .replace(/\\([^\n])/g, '$1')
    .toLowerCase();
}

const HTTPS = /^https:\/\//;

const URL_FUNCTION = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)/g;

/**
 * Whether a value (a declaration's, an at-rule's parameters) might run script or load something that is not https
 * (selectors and property names load nothing, so they are left alone).
 */
function unsafe(value: string): boolean {
  const text = plain(value);
  if (/expression\s*\(/.test(text) || /javascript:/.test(text)) return true;
  const urls = [...text.matchAll(URL_FUNCTION)].map((m) => (m[1] ?? m[2] ?? m[3] ?? '').trim());
  // A url( the pattern cannot read (unclosed, odd quoting) counts as unsafe.
  if ((text.match(/url\(/g) ?? []).length !== urls.length) return true;
  // image-set() loads its strings too: in a value that has one, every string is an https URL or a type("…/…").
  if (text.includes('image-set(')) {
    for (const str of text.matchAll(/"([^"]*)"|'([^']*)'/g)) {
      const inner = (str[1] ?? str[2] ?? '').trim();
      if (!/^[a-z]+\/[a-z0-9.+-]+$/.test(inner)) urls.push(inner);
    }
  }
  return urls.some((url) => !HTTPS.test(url));
}

const FORBIDDEN_PROPERTY = /(^|-)(behavior|binding)$/;

/** The sanitized text, or why the CSS cannot be read (the save answers 400 naming widgetcss). */
export function sanitizeWidgetCss(css: string): SanitizedCss {
  if (Buffer.byteLength(css, 'utf8') > WIDGET_CSS_MAX_BYTES) return { ok: false, message: `at most ${WIDGET_CSS_MAX_BYTES / 1024} KB` };
  let root;
  try {
    root = postcss.parse(css);
  } catch (err) {
    const reason = err instanceof Error && 'reason' in err ? String((err as { reason: unknown }).reason) : 'unreadable';
    const line = err instanceof Error && 'line' in err ? ` (line ${String((err as { line: unknown }).line)})` : '';
    return { ok: false, message: `not valid CSS: ${reason}${line}` };
  }
  root.walkComments((comment) => {
    comment.remove();
  });
  root.walkAtRules((rule: AtRule) => {
    if (plain(rule.name) === 'import' || unsafe(rule.params)) rule.remove();
  });
  root.walkDecls((decl: Declaration) => {
    if (FORBIDDEN_PROPERTY.test(plain(decl.prop)) || unsafe(decl.value)) decl.remove();
  });
  // `<` has no use outside strings and selectors' text; escaped, it reads the same to CSS and never ends the <style>.
  return { ok: true, css: root.toString().replace(/</g, '\\3c ') };
}
