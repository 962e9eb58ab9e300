// Serves uploaded media at /media/<file> (public, not enveloped), with the sniffed type (nosniff comes with every response).
import { z } from 'zod';
import { IMAGE_TYPES, MEDIA_PATH, type ImageExtension } from '../../services/media.ts';
import { defineFile } from '../http/route.ts';

export const mediaRoutes = [
  defineFile({
    method: 'get',
    path: `${MEDIA_PATH}/:file`,
    params: z.object({ file: z.string() }),
    async handler({ params }, { services, koa }) {
      const bytes = await services.mediaStore.get(params.file);
      if (!bytes) return null;
      // Names are never reused, so a file never changes.
      koa.set('Cache-Control', 'public, max-age=31536000, immutable');
      return { type: IMAGE_TYPES[params.file.split('.').pop() as ImageExtension], body: bytes };
    },
  }),
];
