// The resources an operation's valid request names, made through the API in the fuzzed account (fresh for each
// operation, so a delete or a send in one leaves the next untouched), and the values that fill ids by field name.
import { call } from '../test/helpers/api.ts';
import type { RequestParts } from './mutations.ts';
import { example, type Operation } from './openapi.ts';

export interface Resources {
  widget: number;
  widgetVanity: string;
  ecard: number;
  ecardVanity: string;
  /** A form token of the widget, issued when the resources were made (the widget API's runs: `publishWidget`). */
  formToken?: string;
  /** A brand that is not the default and that no eCard uses (so delete succeeds). */
  brand: number;
  campaign: number;
  automation: number;
  member: { id: number; email: string; employeeId: string };
  endpoint: number;
  delivery: number;
  /** A scheduled send (cancel-send takes it). */
  sendId: string;
  hookUrl: string;
  /** The newest row of the account's audit log (the saves above wrote some). */
  auditEvent: number;
}

let counter = 0;

/** A 1×1 PNG, for the image fields. */
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The resources, for the operation at `operationPath` (a campaign's cancel and unschedule need it scheduled). */
export async function makeResources(url: string, key: string, hookUrl: string, operationPath: string): Promise<Resources> {
  const n = ++counter;
  const ok = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await call(url, method, `/v2/api${path}`, { key, ...(body === undefined ? {} : { body }) });
    if (res.status !== 200) throw new Error(`fixture ${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const data = async (method: string, path: string, body?: unknown) => (await ok(method, path, body)).data as Record<string, unknown>;

  const email = `member-${n}@example.com`;
  const employeeId = `E${n}`;
  // Three independent chains at once: the machine is small and the fuzzer makes these for every operation.
  const [{ widget, ecard, send, brand }, [campaign, automation], { upserted, endpoint, delivery }] = await Promise.all([
    (async () => {
      const brand = await data('POST', '/brand/save', { brand: { name: `Fuzz brand ${n}` } });
      const widget = await data('POST', '/widget/save', { widget: { name: `Fuzz widget ${n}`, wconfig: {} } });
      const ecard = await data('POST', '/ecard/save', {
        myEcard: { widgetid: widget.id, name: `Fuzz card ${n}`, emailSubject: 'Hello {{recipient_name}}', header: 'Hi', details: '<p>Hi</p>' },
      });
      const send = await ok('POST', '/pub/ecard-actions/send-ecard', {
        ecardId: ecard.id,
        senderEmail: 'sam@example.com',
        senderName: 'Sam',
        recipientName: 'Rita',
        recipientEmail: 'rita@example.com',
        sendAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      });
      return { widget, ecard, send, brand };
    })(),
    Promise.all([
      data('POST', '/campaign/save', { campaign: { campaign_name: `Fuzz campaign ${n}`, from_name: 'HR', from_email: 'hr@example.com' } }),
      data('POST', '/automation/save', { automation: { automation_name: `Fuzz automation ${n}`, event_type: 'birthday' } }),
    ]),
    (async () => {
      const upserted = await data('POST', '/pub/team-member-actions/upsert', { email, employee_id: employeeId, first_name: 'Fuzz' });
      const endpoint = await data('POST', '/pub/team-member-actions/subscribe', { event_type: 'team_member_created', hookUrl: `${hookUrl}/fuzz/${n}` });
      const delivery = await data('POST', '/webhook/test', { endpoint_id: endpoint.id });
      return { upserted, endpoint, delivery };
    })(),
  ]);
  // A campaign ready to schedule and send; scheduled already for the operations that undo that.
  await ok('POST', '/campaign/saveCampaignEcards', { campaignid: campaign.id, ecardIds: [ecard.id] });
  await ok('POST', '/campaign/saveRecipients', { campaignid: campaign.id, directoryMemberIds: [(upserted.member as { id: number }).id] });
  if (operationPath === '/campaign/cancel' || operationPath === '/campaign/unschedule') {
    await ok('POST', '/campaign/schedule', { campaignid: campaign.id, scheduled_at: new Date(Date.now() + 7 * 86_400_000).toISOString(), scheduled_timezone: 'UTC' });
  }
  const [newest] = (await ok('GET', '/audit/events?perPage=1')).data as Array<{ id: number }>;
  return {
    widget: widget.id as number,
    widgetVanity: widget.vanity_id as string,
    ecard: ecard.id as number,
    ecardVanity: ecard.vanity_id as string,
    brand: brand.id as number,
    campaign: campaign.id as number,
    automation: automation.id as number,
    member: { id: (upserted.member as { id: number }).id, email, employeeId },
    endpoint: endpoint.id as number,
    delivery: delivery.id as number,
    sendId: send.sendId as string,
    hookUrl: `${hookUrl}/fuzz/${n}`,
    auditEvent: newest!.id,
  };
}

/**
 * For the widget API's run: the widget made public with limits no fuzz run reaches (a 429-like refusal would record
 * an abuse row), and a form token issued now (the cases run later than the 3-second rule, so valid ones send).
 */
export async function publishWidget(url: string, key: string, r: Resources): Promise<Resources> {
  const wconfig = { theme: 'light', limitEmailsPerSession: 500, dailySendCap: 100_000 };
  const saved = await call(url, 'POST', '/v2/api/widget/save', { key, body: { widget: { id: r.widget, public_share_enabled: true, wconfig } } });
  if (saved.status !== 200) throw new Error(`fixture widget/save answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  const gallery = await call(url, 'GET', `/v2/widget/${r.widgetVanity}`);
  if (gallery.status !== 200) throw new Error(`fixture GET /v2/widget/${r.widgetVanity} answered ${gallery.status}: ${JSON.stringify(gallery.body)}`);
  return { ...r, formToken: (gallery.body.data as { form_token: string }).form_token };
}

/** The resource an `id` names on a path of this area. */
function idOfArea(path: string, r: Resources): number | undefined {
  if (path.startsWith('/ecard/')) return r.ecard;
  if (path.startsWith('/widget/')) return r.widget;
  if (path.startsWith('/brand/')) return r.brand;
  if (path.startsWith('/campaign/')) return r.campaign;
  if (path.startsWith('/automation/')) return r.automation;
  if (path.startsWith('/webhook/deliveries')) return r.delivery;
  if (path === '/pub/team-member-actions/unsubscribe') return r.endpoint;
  if (path.startsWith('/audit/events/')) return r.auditEvent;
  return undefined;
}

/** The value a field of this name takes in a valid request, or undefined when its schema's example does. */
export function hintFor(operationPath: string, name: string, r: Resources): unknown {
  switch (name) {
    case 'widgetid':
    case 'widgetID':
      return r.widget;
    case 'widgetId':
      // get-ecards takes the vanity id; send-ecard either.
      return r.widgetVanity;
    case 'widgetids':
      return [r.widget];
    // The widget API: its path names the widget by vanity id, its body the eCard by vanity id.
    case 'vanity_id':
      return r.widgetVanity;
    case 'ecard':
      return r.ecardVanity;
    case 'form_token':
      return r.formToken;
    case 'code':
      // Six digits (no code was asked for: the valid request meets 422 code_expired, past the body's checks).
      return operationPath.endsWith('/verify/confirm') ? '000000' : undefined;
    case 'ecardid':
    case 'ecardId':
      return r.ecard;
    case 'ecardids':
    case 'ecardIds':
    case 'ecard_ids':
    case 'neworder':
      return [r.ecard];
    case 'ecardIDs':
      return String(r.ecard);
    case 'ecardbrandid':
      return r.brand;
    case 'campaignid':
    case 'campaign_id':
      return r.campaign;
    case 'automation_id':
      return r.automation;
    case 'endpoint_id':
      return r.endpoint;
    case 'sendId':
      return r.sendId;
    case 'directoryMemberIds':
    case 'member_ids':
    case 'selected_member_ids':
      return [r.member.id];
    case 'email':
      return operationPath.startsWith('/pub/team-member-actions/') ? r.member.email : undefined;
    case 'senderEmail':
      return 'sam@example.com';
    case 'hookUrl':
    case 'url':
      return r.hookUrl;
    case 'timezone':
    case 'scheduled_timezone':
      return 'UTC';
    case 'send_time':
      return '09:00';
    case 'scheduled_at':
      return new Date(Date.now() + 7 * 86_400_000).toISOString();
    case 'csvContent':
      return 'email,name\ncsv@example.com,Casey\n';
    case 'imageBase':
    case 'ecardimg':
      return TINY_PNG;
    case 'id':
      return idOfArea(operationPath, r);
    default:
      return undefined;
  }
}

/** Optional fields a valid request of these operations carries, so their mutations reach past "nothing to do". */
export function extrasFor(operationPath: string, r: Resources): Record<string, unknown> {
  switch (operationPath) {
    // Save endpoints require their names on create only, so the schema marks none.
    case '/widget/save':
      return { widget: { name: 'Fuzzed widget', wconfig: { theme: 'light' } } };
    case '/brand/save':
      return { brand: { name: 'Fuzzed brand', primary_color: '#123456', website: 'https://brand.example.com' } };
    case '/ecard/save':
      return { myEcard: { widgetid: r.widget, name: 'Fuzzed card', emailSubject: 'Hi {{recipient_name}}' } };
    case '/campaign/save':
      return { campaign: { campaign_name: 'Fuzzed campaign', from_email: 'hr@example.com' } };
    case '/automation/save':
      return { automation: { automation_name: 'Fuzzed automation', event_type: 'birthday', selected_ecard_ids: [r.ecard] } };
    case '/automation/toggle':
      return { automation: { id: r.automation, enabled: false } };
    case '/ecard/bulkUpdate':
      return { ecardids: [r.ecard], fieldValue: 'Renamed' };
    case '/pub/ecard-actions/send-ecard':
      return { recipientEmail: 'rita@example.com' };
    case '/pub/team-member-actions/deactivate':
    case '/pub/team-member-actions/reactivate':
    case '/pub/team-member-actions/delete':
      return { email: r.member.email };
    case '/pub/team-member-actions/upsert':
      return { email: 'new-member@example.com', first_name: 'New', departments: ['Sales'] };
    case '/campaign/saveRecipients':
      return { directoryMemberIds: [r.member.id] };
    case '/webhook/test':
      return { endpoint_id: r.endpoint };
    default:
      return {};
  }
}

const asUrlValue = (value: unknown) => (Array.isArray(value) ? value.join(',') : value);

/** A valid request of the operation: required inputs from their schemas, ids and values from the resources. */
export function validRequest(op: Operation, r: Resources): RequestParts {
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const p of op.parameters) {
    const hint = hintFor(op.path, p.name, r);
    if (!p.required && hint === undefined) continue;
    (p.in === 'path' ? params : query)[p.name] = asUrlValue(hint ?? example(p.schema));
  }
  let body: Record<string, unknown> | undefined;
  if (op.body) {
    body = example(op.body) as Record<string, unknown>;
    for (const field of op.fields) {
      if (field.place !== 'body' || !hasPath(body, field.path)) continue;
      const hint = hintFor(op.path, field.path[field.path.length - 1]!, r);
      if (hint !== undefined) setPath(body, field.path, hint);
    }
    Object.assign(body, extrasFor(op.path, r));
  }
  return { method: op.method, path: op.path, params, query, body };
}

function hasPath(root: Record<string, unknown>, path: string[]): boolean {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

function setPath(root: Record<string, unknown>, path: string[], value: unknown): void {
  let node = root;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path[path.length - 1]!] = value;
}
