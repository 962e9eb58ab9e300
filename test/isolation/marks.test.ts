import { expect } from 'chai';
import { apiDocument, consoleDocument, looksLikeId, NOT_SERVER_IDS, slotsOf, type Document } from './documents.ts';
import { KINDS_MADE } from './fixtures.ts';

// decisions.md (Proof, isolation): every id a route takes is marked with the kind of resource it names, so the
// matrix (matrix.test.ts) can name another account's one in it; a new route with unmarked ids fails here.
describe('x-resource marks on id parameters', () => {
  const unmarked = (doc: Document) =>
    doc.operations.flatMap((op) =>
      slotsOf(doc, op)
        .filter((slot) => looksLikeId(slot.name) && !slot.kind && !(slot.name in NOT_SERVER_IDS))
        .map((slot) => `${op.method.toUpperCase()} ${op.path} ${slot.in}:${slot.at.join('.')}`),
    );
  const kinds = (doc: Document) => new Set(doc.operations.flatMap((op) => slotsOf(doc, op).flatMap((slot) => (slot.kind ? [slot.kind] : []))));

  it('every id parameter of the key API (path, query, body, nested) names its resource', () => {
    expect(unmarked(apiDocument()), 'mark them with resource(kind, schema) from api/schema-helpers.ts').to.deep.equal([]);
  });

  it('every id parameter of the console API names its resource', () => {
    expect(unmarked(consoleDocument()), 'mark them with resource(kind, schema) from api/schema-helpers.ts').to.deep.equal([]);
  });

  it('the matrix makes one of every kind marked', () => {
    for (const kind of [...kinds(apiDocument()), ...kinds(consoleDocument())]) expect(KINDS_MADE, kind).to.include(kind);
  });

  it('the committed document carries the marks', async () => {
    const { readFileSync } = await import('node:fs');
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).to.include('"x-resource": "ecard"');
  });
});
