// Roles in the console: every console page and console API route declares what a member's role must allow, the kit
// refuses the rest (403 `role_forbidden` in the API, a 403 page), the navigation shows only what a role may open, and
// a role changed or a membership removed acts on the next request.
import { expect } from 'chai';
import { NAV } from '../../api/console/kit/render.ts';
import { consolePageRoutes } from '../../api/console/page-routes.ts';
import { consoleRoutes } from '../../api/console/routes.ts';
import { answerOf, surfaceOf, type AnyRoute } from '../../api/http/route.ts';
import { ROLE_AREAS, ROLES, roleAllows, type Role, type RoleNeed } from '../../services/team/roles.ts';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { signedInMember } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Declared = AnyRoute & { method: string; path: string; role: RoleNeed };
const sessionRoutes = (routes: readonly AnyRoute[]) => routes.filter((r) => surfaceOf(r) === 'session') as Declared[];
const apiRoutes = sessionRoutes(consoleRoutes);
const pageRoutes = sessionRoutes(consolePageRoutes).filter((r) => answerOf(r) === 'page');

// Ids no account has, in each parameter's form: the kit decides on the role before it looks at them.
const filled = (path: string) => path.replace(/:(id|user_id)\b/g, '987654321').replace(/:key\b/g, 'no_such_field');
// Signing out, ending one's other sessions and leaving the account end the walk's own sessions: checked on their own
// (below, and in test/team/changes.test.ts).
const walked = (routes: Declared[]) => routes.filter((r) => !r.path.endsWith('/sign-out') && !r.path.endsWith('/revoke-others') && !r.path.endsWith('/team/leave'));
const REFUSED_PAGE = 'Not available to your role';

describe('console roles: every route declares one', () => {
  for (const route of [...apiRoutes, ...pageRoutes]) {
    const name = `${route.method.toUpperCase()} ${route.path}`;
    it(`${name} declares a role need the kit knows`, () => {
      const need = route.role;
      if (typeof need === 'string') expect(['member', 'admin', 'owner']).to.include(need);
      else {
        expect(ROLE_AREAS).to.include(need.area);
        expect(['view', 'manage']).to.include(need.level);
        // A route that changes something needs `manage`.
        if (route.method !== 'get') expect(need.level, name).to.equal('manage');
      }
    });
  }

  it('each navigation link needs what its page declares', () => {
    const byPath = new Map(pageRoutes.filter((r) => r.method === 'get').map((r) => [`/v2/console${r.path === '/' ? '/' : r.path}`, r.role]));
    for (const item of NAV.flatMap((i) => i.children ?? [i])) {
      const path = item.href.replace(/#.*$/, '');
      expect(byPath.has(path), path).to.equal(true);
      expect(item.need, item.href).to.deep.equal(byPath.get(path));
    }
  });
});

describe('console roles: a member of each role on every route', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let account: TestAccount;

  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
  });

  for (const role of ROLES) {
    describe(`as ${role}`, () => {
      let member: Awaited<ReturnType<typeof signedInMember>>;
      before(async () => {
        member = await signedInMember(stack, account, role);
      });

      it('the console API refuses exactly the routes the role does not allow, naming the role and the need', async () => {
        for (const route of walked(apiRoutes)) {
          const name = `${route.method.toUpperCase()} ${route.path}`;
          const res = await member.client.call(route.method.toUpperCase(), filled(route.path), route.method === 'get' ? {} : { body: {} });
          const code = res.body.code;
          if (roleAllows(role, route.role)) {
            expect([code, res.status], name).to.not.deep.equal(['role_forbidden', 403]);
            expect(code, name).to.not.equal('owner_only');
          } else {
            expect(res.status, name).to.equal(403);
            expect(code, name).to.equal(route.role === 'owner' ? 'owner_only' : 'role_forbidden');
            expect(res.body.role, name).to.equal(role);
            expect(res.body.required, name).to.be.a('string');
          }
        }
      });

      it('the console’s pages answer a 403 page exactly where the role may not go', async () => {
        for (const route of walked(pageRoutes)) {
          const name = `${route.method.toUpperCase()} ${route.path}`;
          const path = `/v2/console${filled(route.path)}`;
          const res = route.method === 'get' ? await member.browser.get(path) : await member.browser.post(path, { _csrf: member.csrf });
          const html = await res.text();
          if (roleAllows(role, route.role)) expect(html, name).to.not.include(REFUSED_PAGE);
          else {
            expect(res.status, name).to.equal(403);
            expect(html, name).to.include(REFUSED_PAGE);
            // The refusal keeps the console around it: the navigation and the sign-out form.
            expect(html, name).to.include('aria-label="Console sections"');
          }
        }
      });

      it('Me names the role and the accounts', async () => {
        const me = await member.client.ok<{ role: Role; user: { id: number }; accounts: { account_id: number; name: string; role: Role }[] }>('GET', '/me');
        expect(me.role).to.equal(role);
        expect(me.user.id).to.equal(member.user.id);
        const live = await stack.models.Account.findByPk(account.accountId, { rejectOnEmpty: true });
        expect(me.accounts).to.deep.equal([{ account_id: account.accountId, name: live.name, role }]);
      });
    });
  }
});

describe('console roles: what each role sees and may do', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;

  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
  });

  const navLinks = (html: string) => [...(/<nav aria-label="Console sections">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '').matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

  it('a viewer’s navigation has no keys, webhooks, settings, import or sending', async () => {
    const viewer = await signedInMember(stack, account, 'viewer');
    const links = navLinks(await (await viewer.browser.get('/v2/console/')).text());
    expect(links).to.include.members(['/v2/console/sends', '/v2/console/widgets', '/v2/console/directory/members', '/v2/console/rewards']);
    for (const hiddenLink of ['/v2/console/keys', '/v2/console/webhooks', '/v2/console/local-time', '/v2/console/directory/import', '/v2/console/send']) {
      expect(links).to.not.include(hiddenLink);
    }
  });

  it('a designer’s navigation has the design areas and no directory, rewards or developers', async () => {
    const designer = await signedInMember(stack, account, 'designer');
    const links = navLinks(await (await designer.browser.get('/v2/console/')).text());
    expect(links).to.include.members(['/v2/console/widgets', '/v2/console/ecards', '/v2/console/brands', '/v2/console/sends']);
    for (const hiddenLink of ['/v2/console/directory/members', '/v2/console/rewards', '/v2/console/keys', '/v2/console/webhooks', '/v2/console/send']) {
      expect(links).to.not.include(hiddenLink);
    }
    // Developers shows only what a designer may open: the confirmation tokens of the design areas.
    expect(links).to.include('/v2/console/tokens');
  });

  it('the decisions’ table holds: spot checks of each role against the routes', async () => {
    const checks: [Role, string, string, boolean][] = [
      ['viewer', 'GET', '/outbox', true],
      ['viewer', 'GET', '/secret', false],
      ['viewer', 'POST', '/custom-fields', false],
      ['designer', 'GET', '/custom-fields', false],
      ['designer', 'GET', '/rewards/orders', false],
      ['sender', 'GET', '/rewards/orders', true],
      ['sender', 'POST', '/rewards/settings', false],
      ['sender', 'POST', '/campaigns/987654321/delete', true],
      ['designer', 'POST', '/campaigns/987654321/delete', false],
      ['sender', 'GET', '/keys', false],
      ['admin', 'GET', '/keys', true],
      ['admin', 'POST', '/secret/rotate', true],
    ];
    const clients = new Map<Role, Awaited<ReturnType<typeof signedInMember>>>();
    for (const [role, method, path, allowed] of checks) {
      if (!clients.has(role)) clients.set(role, await signedInMember(stack, account, role));
      const res = await clients.get(role)!.client.call(method, path, method === 'GET' ? {} : { body: {} });
      const refused = res.status === 403 && res.body.code === 'role_forbidden';
      expect(refused, `${role} ${method} ${path}`).to.equal(!allowed);
    }
  });

  it('a token is issued only for a purpose whose area the role manages', async () => {
    const designer = await signedInMember(stack, account, 'designer');
    const refused = await designer.client.call('POST', '/tokens', { body: { purpose: 'gc_campaign_send', resource_id: 1 } });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.include({ role: 'designer', required: 'gift_cards: manage' });
    const page = await (await designer.browser.get('/v2/console/tokens')).text();
    expect(page).to.include('value="brand_delete"');
    expect(page).to.not.include('value="gc_campaign_send"');
  });

  it('a role lowered acts on the next request', async () => {
    const admin = await signedInMember(stack, account, 'admin');
    expect((await admin.client.call('GET', '/keys')).status).to.equal(200);
    await stack.models.Membership.update({ role: 'viewer' }, { where: { user_id: admin.user.id, account_id: account.accountId } });
    const res = await admin.client.call('GET', '/keys');
    expect(res.status).to.equal(403);
    expect(res.body).to.include({ role: 'viewer', required: 'admin' });
    expect((await admin.browser.get('/v2/console/keys')).status).to.equal(403);
  });

  it('a member removed is signed out of the account at once', async () => {
    const sender = await signedInMember(stack, account, 'sender');
    await stack.models.Membership.destroy({ where: { user_id: sender.user.id, account_id: account.accountId } });
    const res = await sender.client.call('GET', '/me');
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal('session_required');
    const page = await sender.browser.get('/v2/console/');
    expect(page.status).to.equal(303);
    expect(page.headers.get('location')).to.match(/\/v2\/console\/sign-in/);
  });

  it('every member may end their other sessions and sign out', async () => {
    const viewer = await signedInMember(stack, account, 'viewer');
    expect((await viewer.client.ok<{ revoked: number }>('POST', '/me/sessions/revoke-others', {})).revoked).to.equal(1);
    expect((await viewer.client.call('POST', '/sign-out')).status).to.equal(200);
    expect((await viewer.client.call('GET', '/me')).status).to.equal(401);
    const designer = await signedInMember(stack, account, 'designer');
    const ended = await designer.browser.post('/v2/console/profile/sessions/revoke-others', { _csrf: designer.csrf });
    expect(ended.headers.get('location')).to.equal('/v2/console/profile/sessions?ended=others');
    expect((await designer.browser.post('/v2/console/sign-out', { _csrf: designer.csrf })).headers.get('location')).to.match(/\/v2\/console\/sign-in/);
    expect((await designer.browser.get('/v2/console/')).status).to.equal(303);
  });
});
