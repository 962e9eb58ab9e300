// How a brand reads: its fields by the decided names, the default flag, the social links as one object.
import type { Brand, BrandFont, BrandSocial } from '../../models/Brand.ts';

export type { BrandFont, BrandSocial };

export interface BrandView {
  id: number;
  name: string;
  is_default: boolean;
  logo_url: string | null;
  website: string | null;
  address: string | null;
  primary_color: string | null;
  accent_color: string | null;
  background_color: string | null;
  text_color: string | null;
  font: BrandFont;
  footer_text: string | null;
  social: BrandSocial;
  created_at: Date;
  updated_at: Date;
}

export function brandView(brand: Brand): BrandView {
  return {
    id: brand.id,
    name: brand.name,
    is_default: brand.default_for !== null,
    logo_url: brand.logo_url,
    website: brand.website,
    address: brand.address,
    primary_color: brand.primary_color,
    accent_color: brand.accent_color,
    background_color: brand.background_color,
    text_color: brand.text_color,
    font: brand.font,
    footer_text: brand.footer_text,
    social: brand.social,
    created_at: brand.created_at,
    updated_at: brand.updated_at,
  };
}
