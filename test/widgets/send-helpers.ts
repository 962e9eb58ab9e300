// The widget send's calls as its page makes them, for the send tests: a form token issued long enough ago to pass
// the "too fast" trap (or at a given age), a valid body, and the API and form posts.
import type { Ecard } from '../../models/Ecard.ts';
import type { Widget } from '../../models/Widget.ts';
import { issueFormToken } from '../../services/widgets/public/tokens.ts';
import { call, type ApiResponse } from '../helpers/api.ts';
import type { TestStack } from '../helpers/stack.ts';

let counter = 0;
export const address = (name: string, domain = 'example.com') => `${name}-${process.pid}-${++counter}@${domain}`;

/** A form token of the widget issued `ageMs` before `now` (10 s: a person's pace). */
export const formToken = (stack: TestStack, widget: Pick<Widget, 'id'>, ageMs = 10_000, now = Date.now()) => issueFormToken(stack.services.dataKeys, widget.id, new Date(now - ageMs));

export function sendBody(stack: TestStack, widget: Pick<Widget, 'id'>, ecard: Pick<Ecard, 'vanity_id'>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    form_token: formToken(stack, widget),
    fax_number: '',
    ecard: ecard.vanity_id,
    share_mode: 'email',
    sender: { name: 'Sam', email: address('sam') },
    recipients: [{ name: 'Rita', email: address('rita') }],
    personalMessage: 'Happy birthday!',
    ...extra,
  };
}

export const postSend = (url: string, vanity: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  call(url, 'POST', `/v2/widget/${vanity}/send`, { body, headers });
