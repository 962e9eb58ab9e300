// An OpenAPI document with its `$ref`s written out, for the readers that walk it (the tests, the fuzzer): the
// generator names shared schemas, headers and error answers once under `components` and refers to them.

/**
 * The document with every local `$ref` (`#/components/…`) replaced by what it names; keys beside a `$ref` override
 * the named object's (OpenAPI 3.1 allows a description there). `components` stays as it is.
 */
export function inlineRefs<T extends object>(document: T): T {
  const lookUp = (ref: string): unknown => {
    if (!ref.startsWith('#/')) throw new Error(`only local references are inlined: ${ref}`);
    const found = ref.slice(2).split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
    if (found === undefined) throw new Error(`${ref} names nothing in the document`);
    return found;
  };
  const inline = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, seen));
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    if (typeof $ref === 'string') {
      if (seen.includes($ref)) throw new Error(`${$ref} refers to itself: it cannot be written out`);
      return inline({ ...(lookUp($ref) as object), ...rest }, [...seen, $ref]);
    }
    return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inline(value, seen)]));
  };
  const { components, ...rest } = document as Record<string, unknown>;
  return { ...(inline(rest, []) as object), ...(components === undefined ? {} : { components }) } as T;
}
