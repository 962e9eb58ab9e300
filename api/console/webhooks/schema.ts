// Contracts of the console's webhook endpoints. Bodies, lists and views are the key API's (api/webhooks/schema.ts),
// so the console and `/v2/api` accept and show the same things; only ids move into the path here.
import { z } from 'zod';
import { numericId, resource } from '../../schema-helpers.ts';

export const IdParams = z.object({ id: numericId() });
export const EndpointIdParams = z.object({ id: resource('webhook_endpoint', numericId()) });
export const DeliveryIdParams = z.object({ id: resource('webhook_delivery', numericId()) });

/** The signing secret, shown only after a step-up (as `cardsvc webhook secret` prints it). */
export const SigningSecret = z.object({
  secret: z.string(),
  previous: z.string().nullable().describe('the secret before the last rotation while it still signs (24 hours), else null'),
});
