// A copy of a zod schema in which every object, at any depth, refuses unknown keys (response checks in tests).
import { z } from 'zod';

export function deepStrict(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    return z.strictObject(Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, deepStrict(v)])));
  }
  if (schema instanceof z.ZodArray) return z.array(deepStrict(schema.element as z.ZodType));
  if (schema instanceof z.ZodOptional) return deepStrict(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return deepStrict(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodUnion) return z.union((schema.options as z.ZodType[]).map(deepStrict));
  if (schema instanceof z.ZodRecord) return z.record(schema.keyType as z.ZodString, deepStrict(schema.valueType as z.ZodType));
  return schema;
}
