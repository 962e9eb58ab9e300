// The built-in strings: every language has every English key with the same placeholders (adding a key to en.ts
// fails here, naming each language that still needs it), the send's locale picks a language, he and ar read
// right to left, and placeholders are filled.
import { expect } from 'chai';
import { CATALOGUES, type Lang } from '../../services/i18n/catalogues.ts';
import { en } from '../../services/i18n/en.ts';
import { format, languageOf, stringsFor } from '../../services/i18n/locale.ts';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

/** What is wrong with one language's catalogue against en.ts, one sentence per problem (empty: nothing). */
function catalogueProblems(lang: string, catalogue: Record<string, unknown>): string[] {
  const english: Record<string, string> = en;
  const problems: string[] = [];
  for (const key of Object.keys(english)) {
    if (!Object.hasOwn(catalogue, key)) {
      problems.push(`${lang} lacks "${key}": translate “${english[key]}” in services/i18n/${lang.toLowerCase()}.ts`);
    }
  }
  for (const [key, value] of Object.entries(catalogue)) {
    const source = english[key];
    if (source === undefined) {
      problems.push(`${lang} has "${key}", which en.ts does not: remove it or add it to en.ts`);
    } else if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${lang} "${key}" is empty`);
    } else if (placeholders(value).join() !== placeholders(source).join()) {
      problems.push(`${lang} "${key}" has placeholders [${placeholders(value).join(', ')}], English has [${placeholders(source).join(', ')}]`);
    }
  }
  return problems;
}

const LANGS = Object.keys(CATALOGUES) as Lang[];
const TRANSLATED = LANGS.filter((lang) => lang !== 'en');

describe('i18n catalogues', () => {
  it('hold the eleven languages of the decisions', () => {
    expect(LANGS).to.have.members(['en', 'es', 'nl', 'he', 'ko', 'de', 'fr', 'ar', 'pl', 'pt-BR', 'vi']);
  });

  for (const lang of TRANSLATED) {
    describe(lang, () => {
      it('has exactly the keys of en.ts, each non-empty with the English placeholders', () => {
        const problems = catalogueProblems(lang, CATALOGUES[lang]);
        expect(problems, `\n  ${problems.join('\n  ')}\n`).to.deep.equal([]);
      });

      it('is translated, not English', () => {
        const catalogue: Record<string, string> = CATALOGUES[lang];
        const same = Object.entries(en).filter(([key, text]) => catalogue[key] === text).map(([key]) => key);
        expect(catalogue).not.to.equal(en);
        // A few short words ("Email", "Download") may be the same; most strings may not.
        expect(same, `${lang} strings equal to English`).to.have.length.below(4);
      });

      it('uses typographic quotes, not straight ones', () => {
        const straight = Object.entries(CATALOGUES[lang]).filter(([, text]) => /["']/.test(text)).map(([key]) => key);
        expect(straight, `${lang} strings with " or '`).to.deep.equal([]);
      });
    });
  }

  describe('the check itself', () => {
    const good = { ...en };

    it('passes English against itself', () => {
      expect(catalogueProblems('en', good)).to.deep.equal([]);
    });

    it('names a missing key and the English to translate', () => {
      const { claimBy: _, ...missing } = good;
      expect(catalogueProblems('pt-BR', missing)).to.deep.equal([
        'pt-BR lacks "claimBy": translate “Claim it by {date}.” in services/i18n/pt-br.ts',
      ]);
    });

    it('names an extra key', () => {
      expect(catalogueProblems('fr', { ...good, notAKey: 'Répondre' })).to.deep.equal([
        'fr has "notAKey", which en.ts does not: remove it or add it to en.ts',
      ]);
    });

    it('names an empty string', () => {
      expect(catalogueProblems('de', { ...good, print: '  ' })).to.deep.equal(['de "print" is empty']);
    });

    it('names a lost, a misspelt and an added placeholder', () => {
      expect(catalogueProblems('es', { ...good, from: 'De', intro: '{sendr} te ha enviado una tarjeta', open: 'Abre {card}' })).to.deep.equal([
        'es "intro" has placeholders [sendr], English has [sender]',
        'es "open" has placeholders [card], English has []',
        'es "from" has placeholders [], English has [sender]',
      ]);
    });
  });
});

describe('languageOf', () => {
  const cases: [string, Lang][] = [
    ['english', 'en'],
    ['spanish', 'es'],
    ['dutch', 'nl'],
    ['hebrew', 'he'],
    ['korean', 'ko'],
    ['german', 'de'],
    ['french', 'fr'],
    ['arabic', 'ar'],
    ['polish', 'pl'],
    ['brazilian-portuguese', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['nam', 'vi'],
  ];
  for (const [alias, lang] of cases) {
    it(`reads the alias ${alias} as ${lang}`, () => {
      expect(languageOf(alias)).to.equal(lang);
    });
  }

  it('reads each language by its own code', () => {
    for (const lang of LANGS) expect(languageOf(lang), lang).to.equal(lang);
  });

  it('falls back from a region to its language', () => {
    expect(languageOf('fr-CA')).to.equal('fr');
    expect(languageOf('es-MX')).to.equal('es');
    expect(languageOf('de_AT')).to.equal('de');
    expect(languageOf('en-GB')).to.equal('en');
    expect(languageOf('pt-PT')).to.equal('pt-BR');
  });

  it('reads Brazilian Portuguese with a hyphen or an underscore, in any case', () => {
    for (const locale of ['pt-BR', 'pt-br', 'pt_BR', 'pt_br', 'PT-BR']) expect(languageOf(locale), locale).to.equal('pt-BR');
  });

  it('ignores case and surrounding spaces', () => {
    expect(languageOf('FR')).to.equal('fr');
    expect(languageOf('Hebrew')).to.equal('he');
    expect(languageOf('KO-kr')).to.equal('ko');
    expect(languageOf(' nl ')).to.equal('nl');
  });

  it('answers English for an unknown, empty or absent locale', () => {
    for (const locale of ['klingon', 'xx-YY', 'zh', '', '   ', '-', 'constructor', '__proto__', 'toString']) {
      expect(languageOf(locale), JSON.stringify(locale)).to.equal('en');
    }
    expect(languageOf(null)).to.equal('en');
    expect(languageOf(undefined)).to.equal('en');
  });
});

describe('stringsFor', () => {
  it('writes right to left for Hebrew and Arabic only', () => {
    const rtl = LANGS.filter((lang) => stringsFor(lang).dir === 'rtl');
    expect(rtl).to.have.members(['he', 'ar']);
    expect(stringsFor('ar-EG').dir).to.equal('rtl');
    expect(stringsFor('english').dir).to.equal('ltr');
  });

  it('gives the language the locale picks, its strings filled', () => {
    const strings = stringsFor('fr_CA');
    expect(strings.lang).to.equal('fr');
    expect(strings.t('intro', { sender: 'Rita' })).to.equal('Rita vous a envoyé une carte');
    expect(strings.all).to.equal(CATALOGUES.fr);
    expect(stringsFor('pt').t('open')).to.equal('Abra seu cartão');
  });

  it('gives English for an unknown locale', () => {
    const strings = stringsFor('tlh');
    expect(strings.lang).to.equal('en');
    expect(strings.t('gift', { amount: '$25', brand: 'Acme' })).to.equal('You received a $25 Acme gift card.');
  });
});

describe('format', () => {
  it('fills every placeholder, numbers included', () => {
    expect(format('{a} and {b} and {a}', { a: 'x', b: 2 })).to.equal('x and 2 and x');
  });

  it('leaves a missing value out, never writing "undefined"', () => {
    expect(format('From {sender}', {})).to.equal('From ');
    expect(format('From {sender}')).to.equal('From ');
    expect(format('{recipient} opened “{card}”', { recipient: 'Rita' })).to.equal('Rita opened “”');
  });

  it('does not read inherited names as values', () => {
    expect(format('{constructor}{toString}', {})).to.equal('');
  });

  it('does not fill placeholders inside a value', () => {
    expect(format('Hi {name}', { name: '{card}', card: 'no' })).to.equal('Hi {card}');
  });

  it('leaves other braces as they are', () => {
    expect(format('{ not one } {a-b} {}', { a: 'x' })).to.equal('{ not one } {a-b} {}');
  });
});
