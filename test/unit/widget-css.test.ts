import { expect } from 'chai';
import { sanitizeWidgetCss, WIDGET_CSS_MAX_BYTES } from '../../services/widgets/public/css.ts';
import { normalizeDomainList } from '../../services/widgets/public/domains.ts';

const clean = (css: string) => {
  const result = sanitizeWidgetCss(css);
  if (!result.ok) throw new Error(result.message);
  return result.css;
};

describe('unit: widgetcss sanitizing', () => {
  it('keeps ordinary rules, media queries and https url() as written', () => {
    const css = '.card { color: #333; background: url("https://cdn.example.com/a.png") no-repeat; }\n@media (max-width: 600px) { .card { padding: 4px; } }';
    expect(clean(css)).to.equal(css);
  });

  it('removes @import rules, whatever they import', () => {
    const out = clean('@import url("https://cdn.example.com/a.css");\n@IMPORT "b.css";\n.a { color: red; }');
    expect(out).not.to.match(/import/i);
    expect(out).to.include('.a { color: red; }');
  });

  it('removes expression(), also written with escapes or comments', () => {
    for (const value of ['expression(alert(1))', 'EXPRESSION(alert(1))', 'expr\\65ssion(alert(1))', 'expression/**/(alert(1))']) {
      const out = clean(`.a { width: ${value}; color: blue; }`);
      expect(out, value).not.to.match(/ssion/i);
      expect(out).to.include('color: blue');
    }
  });

  it('removes behavior and -moz-binding declarations', () => {
    const out = clean('.a { behavior: url(https://x.example/a.htc); -moz-binding: url("https://x.example/b.xml#x"); -ms-behavior: url(a.htc); margin: 0; }');
    expect(out).not.to.match(/behavior|binding/);
    expect(out).to.include('margin: 0');
  });

  it('removes every url() that is not https: http, protocol-relative, relative, data:, javascript:, and in at-rules', () => {
    for (const url of ['http://cdn.example.com/a.png', '//cdn.example.com/a.png', 'a.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)', '"http://x.example/a.png"', "'ht\\74p://x.example/a.png'"]) {
      const out = clean(`.a { background: url(${url}); color: red; }`);
      expect(out, url).not.to.include('url(');
      expect(out).to.include('color: red');
    }
    expect(clean('.a { background: image-set("http://x.example/a.png" 1x); }')).not.to.include('image-set');
    expect(clean('.a { background: image-set("https://x.example/a.avif" type("image/avif"), "http://x.example/a.png" 1x); }')).not.to.include('image-set');
    expect(clean('.a { background: image-set("https://x.example/a.avif" type("image/avif") 1x); }')).to.include('image-set');
    expect(clean('@font-face { font-family: x; src: url(http://x.example/f.woff); }')).not.to.include('url(');
    expect(clean('@namespace svg url(http://www.w3.org/2000/svg); .a { color: red; }')).not.to.include('@namespace');
  });

  it('cannot close the page\'s <style>: comments go, a remaining < is escaped', () => {
    const out = clean('/* </style><script>alert(1)</script> */ .a { content: "</style><script>"; }');
    expect(out).not.to.include('<');
    expect(out).to.include('.a { content: "\\3c /style>\\3c script>"; }');
  });

  it('unreadable CSS is refused with the reason', () => {
    const result = sanitizeWidgetCss('.a { color: red');
    expect(result).to.deep.equal({ ok: false, message: 'not valid CSS: Unclosed block (line 1)' });
    expect(sanitizeWidgetCss('.a { color: "red }').ok).to.equal(false);
  });

  it('refuses more than 20 KB (bytes, not characters)', () => {
    expect(sanitizeWidgetCss(`.a{content:"${'x'.repeat(WIDGET_CSS_MAX_BYTES - 20)}"}`).ok).to.equal(true);
    expect(sanitizeWidgetCss(`.a{content:"${'é'.repeat(WIDGET_CSS_MAX_BYTES / 2)}"}`)).to.deep.equal({ ok: false, message: 'at most 20 KB' });
  });
});

describe('unit: widget domain lists', () => {
  it('comma or newline separated, stored lower-case, one per line, without repeats; empty is none', () => {
    expect(normalizeDomainList(' Example.COM,acme.example.org\r\n\nexample.com , xn--bcher-kva.example')).to.deep.equal({ ok: true, value: 'example.com\nacme.example.org\nxn--bcher-kva.example' });
    expect(normalizeDomainList(' ,\n')).to.deep.equal({ ok: true, value: null });
  });

  it('names the first entry that is not a domain', () => {
    for (const bad of ['localhost', '@example.com', 'user@example.com', '-a.example.com', 'a_b.example.com', 'example.com/path', '1.2.3.4', 'exa mple.com', `${'a'.repeat(64)}.com`]) {
      expect(normalizeDomainList(`ok.example, ${bad}`), bad).to.deep.equal({ ok: false, bad });
    }
  });
});
