// Every route that changes something declares what it writes to the audit log: an action `area.verb`, or none with
// the reason (decisions.md "Teams": "none is implied").
import { expect } from 'chai';
import { consolePageRoutes } from '../../api/console/page-routes.ts';
import { consoleRoutes } from '../../api/console/routes.ts';
import { surfaceOf, type AnyRoute } from '../../api/http/route.ts';
import { apiRoutes } from '../../api/routes.ts';
import type { AuditDeclaration } from '../../services/audit/record.ts';

type Declared = AnyRoute & { method: string; path: string; audit?: AuditDeclaration };
const unsafe = (routes: readonly AnyRoute[]) =>
  (routes as Declared[]).filter((r) => ['key', 'session'].includes(surfaceOf(r)) && r.method !== 'get');

describe('audit declarations', () => {
  const routes = [...unsafe(apiRoutes), ...unsafe(consoleRoutes), ...unsafe(consolePageRoutes)];

  it('walks every unsafe key and console route (more than a hundred)', () => {
    expect(routes.length).to.be.greaterThan(100);
  });

  for (const route of routes) {
    it(`${route.method.toUpperCase()} ${route.path} (${surfaceOf(route)}) declares an action or why none`, () => {
      const audit = route.audit;
      expect(audit, 'no declaration').to.not.equal(undefined);
      if (typeof audit === 'string') expect(audit).to.match(/^[a-z_]+\.[a-z_]+$/);
      else expect(audit?.none).to.be.a('string').with.length.greaterThan(10);
    });
  }

  it('the send and the directory upsert are not audited', () => {
    const byPath = new Map((apiRoutes as Declared[]).map((r) => [r.path, r.audit]));
    expect(byPath.get('/pub/ecard-actions/send-ecard')).to.have.property('none');
    const upsert = (apiRoutes as Declared[]).find((r) => r.path.endsWith('/upsert'));
    expect(upsert?.audit).to.have.property('none');
  });
});
