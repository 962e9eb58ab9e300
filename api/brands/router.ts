// Brand endpoints: list, findOne, save, delete.
import { deleteBrand, findBrandView, listBrands, saveBrand } from '../../services/brands/brands.ts';
import { defineRoute } from '../http/route.ts';
import { pageMeta } from '../schema-helpers.ts';
import { presentBrand } from './present.ts';
import { Brand, BrandIdParams, BrandList, Deleted, DeleteBrandBody, ListBrandsQuery, PageMeta, SaveBrandBody } from './schema.ts';

const tags = ['brands'];
const view = { area: 'brands', level: 'view' } as const;
const manage = { area: 'brands', level: 'manage' } as const;

export const brandRoutes = [
  defineRoute({
    method: 'get',
    path: '/brand/list',
    summary: 'Brands of the account, paged',
    tags,
    access: view,
    query: ListBrandsQuery,
    response: BrandList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const { rows, count } = await listBrands(services, caller.account.id, query);
      return { data: rows.map(presentBrand), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/brand/findOne/id/:id',
    summary: 'One brand',
    tags,
    access: view,
    params: BrandIdParams,
    response: Brand,
    async handler({ params }, { services, caller }) {
      return presentBrand(await findBrandView(services, caller.account.id, params.id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/brand/save',
    audit: 'brands.save',
    summary: 'Creates (id 0) or updates a brand; fields not sent keep their value; is_default: true moves the default here',
    tags,
    access: manage,
    body: SaveBrandBody,
    response: Brand,
    async handler({ body }, { services, caller }) {
      const { id, ...brand } = body.brand;
      return presentBrand(await saveBrand(services, caller.account.id, { id, brand }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/brand/delete',
    audit: 'brands.delete',
    summary: 'Deletes a brand (never the default: 422); one used by eCards needs its otp_confirmation_token, and they fall back to the default',
    tags,
    access: manage,
    body: DeleteBrandBody,
    response: Deleted,
    async handler({ body }, { services, caller }) {
      return { deleted: await deleteBrand(services, caller.account.id, body.id, body.otp_confirmation_token) };
    },
  }),
];
