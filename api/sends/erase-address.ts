// POST /pub/ecard-actions/erase-address: a stranger (not a member of the directory) asks to be forgotten.
import { z } from 'zod';
import { eraseAddress } from '../../services/sends/erasure/erase-address.ts';
import { defineRoute } from '../http/route.ts';

export const eraseAddressRoutes = [
  defineRoute({
    method: 'post',
    path: '/pub/ecard-actions/erase-address',
    audit: 'sends.erase_address',
    summary:
      'Erases an address that is not a member of the directory from the account’s sends, recipients, thank-yous, opt-ins, verification codes, service emails and webhook events (a suppressed address stays suppressed by its hash); a member is 422 directory_member (erase the member instead)',
    tags: ['sends'],
    access: { area: 'sends', level: 'manage' },
    body: z.object({ email: z.string().trim().max(254).email('email is not a valid email address') }),
    response: z.object({ erased: z.literal(true), suppressed: z.boolean().describe('the address stays on the suppression list, by its hash') }),
    async handler({ body }, { services, caller }) {
      const { suppressed } = await eraseAddress(services, caller.account.id, body.email);
      return { erased: true as const, suppressed };
    },
  }),
];
