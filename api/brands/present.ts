// How a brand is shown: the decided field names, timestamps as ISO text.
import type { z } from 'zod';
import type { BrandView } from '../../services/brands/view.ts';
import type { Brand } from './schema.ts';

export function presentBrand({ created_at, updated_at, ...brand }: BrandView): z.input<typeof Brand> {
  return { ...brand, createdat: created_at.toISOString(), updatedat: updated_at.toISOString() };
}
