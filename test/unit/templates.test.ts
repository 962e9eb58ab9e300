// renderTemplate with list values (an automation digest's `celebrants`): rows reach `{{#each}}` as plain string
// fields, escaped, with nothing from a prototype.
import { expect } from 'chai';
import { renderTemplate, type TemplateValues } from '../../services/ecards/templates.ts';

describe('renderTemplate with list values', () => {
  const each = '{{#each celebrants}}[{{name}} {{event}} {{occasion_date}} {{years}}]{{/each}}';

  it('renders each row of a list, values escaped', () => {
    const values: TemplateValues = {
      celebrants: [
        { name: 'Ada <b>L</b>', event: 'birthday', occasion_date: '2026-12-10', years: '' },
        { name: 'Bo', event: 'anniversary', occasion_date: '2026-12-11', years: '5' },
      ],
    };
    expect(renderTemplate(each, values, false)).to.equal('[Ada &lt;b&gt;L&lt;/b&gt; birthday 2026-12-10 ][Bo anniversary 2026-12-11 5]');
  });

  it('drops fields that are not strings and reaches nothing through a prototype', () => {
    const row = JSON.parse('{"name":"Cy","years":5,"nested":{"a":"b"},"__proto__":{"event":"polluted"}}') as Record<string, string>;
    const out = renderTemplate('{{#each celebrants}}{{name}}|{{years}}|{{nested.a}}|{{event}}|{{constructor}}|{{toString}}{{/each}}', { celebrants: [row] }, false);
    expect(out).to.equal('Cy|||||');
  });

  it('leaves string tags as they were and an absent list empty', () => {
    expect(renderTemplate('Hi {{first_name}}:{{#each celebrants}}x{{/each}}', { first_name: 'Di' }, false)).to.equal('Hi Di:');
  });
});
