// Serves uploaded media at /media/<file> (public, not enveloped), with the sniffed type (nosniff comes with every response).
import Router from '@koa/router';
import type { MediaStore } from '../lib/media-store.ts';
import { IMAGE_TYPES, MEDIA_PATH, type ImageExtension } from '../services/media.ts';
import type { ApiState } from './context.ts';

export function mediaRouter(store: MediaStore): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get(`${MEDIA_PATH}/:file`, async (ctx, next) => {
    const file = ctx.params.file!;
    const bytes = await store.get(file);
    if (!bytes) {
      await next();
      return;
    }
    ctx.type = IMAGE_TYPES[file.split('.').pop() as ImageExtension];
    // Names are never reused, so a file never changes.
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = bytes;
  });
  return router;
}
