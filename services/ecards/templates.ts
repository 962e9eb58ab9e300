// eCard text fields are Handlebars templates with merge tags: checked when saved, previewed or accepted (no `log`,
// no partials or decorators, bounded size and nesting), rendered with escaped values, known helpers only, no
// prototype access and a budget (iterations, output); HTML is sanitized after the check and after the render.
import Handlebars from 'handlebars';
import sanitizeHtml from 'sanitize-html';
import { ApiError, invalidTemplate, templateTooLarge } from '../../lib/errors.ts';

const handlebars = Handlebars.create();
const COMPILE_OPTIONS = { knownHelpersOnly: true, strict: false, noEscape: false } as const;
const RUNTIME_OPTIONS = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false } as const;

/** The bounds of a template and of one render of it (decisions.md, "Hardening": templates). */
export const TEMPLATE_LIMITS = { sourceBytes: 100 * 1024, eachDepth: 2, iterations: 10_000, outputBytes: 1024 * 1024, blockDepth: 64 } as const;

// Handlebars' own logger writes to the console (a denied prototype lookup names the template's property): tenant
// text never reaches the service's output. The `log` helper is refused by the check and does nothing anyway.
Handlebars.logger.log = () => undefined;
handlebars.registerHelper('log', () => '');

export const BUILT_IN_TAGS = ['recipient_name', 'recipient_email', 'recipient_first_name', 'sender_name', 'sender_email', 'personal_message', 'ecard_link'] as const;

const SAMPLE_VALUES: Record<string, string> = {
  recipient_name: 'Alex Sample',
  recipient_email: 'alex@example.com',
  recipient_first_name: 'Alex',
  sender_name: 'Sam Sender',
  sender_email: 'sam@example.com',
  personal_message: 'Wishing you a wonderful day!',
  ecard_link: 'https://example.com/e/sample',
};

const invalid = (field: string, reason: string) => invalidTemplate(`${field} is not a valid template: ${reason}`);
const tooLarge = (field: string, reason: string) => templateTooLarge(`${field} ${reason}`);

// Helpers a template may not call: `log` writes to the console, the *Missing hooks are Handlebars' internals.
const REFUSED_HELPERS = new Set(['log', 'helperMissing', 'blockHelperMissing']);

type Node = hbs.AST.Node;
type Call = hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression;

// The helper a mustache, block or sub-expression names: a one-part path or a literal (`{{"log" x}}` calls `log`).
function calleeOf(node: Call): string | null {
  const path = node.path as Node & { parts?: string[]; data?: boolean; value?: string | number | boolean | null };
  if (path.type === 'PathExpression') return !path.data && path.parts?.length === 1 ? path.parts[0]! : null;
  return path.value === undefined ? null : String(path.value);
}

/** Walks the template's tree without recursion: partials, decorators, refused helpers, `#each` and block nesting. */
function checkTree(field: string, program: hbs.AST.Program): void {
  const stack: Array<{ node: Node; each: number; blocks: number }> = [{ node: program, each: 0, blocks: 0 }];
  while (stack.length) {
    const { node, each, blocks } = stack.pop()!;
    const push = (child: Node | null | undefined, e = each, b = blocks) => {
      if (child) stack.push({ node: child, each: e, blocks: b });
    };
    switch (node.type) {
      case 'Program':
        for (const statement of (node as hbs.AST.Program).body) push(statement);
        break;
      case 'PartialStatement':
      case 'PartialBlockStatement':
        throw invalid(field, 'partials ({{> name}}) are not allowed');
      case 'Decorator':
      case 'DecoratorBlock':
        throw invalid(field, 'decorators and inline partials ({{#*inline}}) are not allowed');
      case 'MustacheStatement':
      case 'SubExpression':
      case 'BlockStatement': {
        const call = node as Call;
        const callee = calleeOf(call);
        if (callee !== null && REFUSED_HELPERS.has(callee)) throw invalid(field, `the ${callee} helper is not allowed`);
        for (const param of call.params) push(param);
        for (const pair of call.hash?.pairs ?? []) push(pair.value);
        if (node.type === 'BlockStatement') {
          const block = node as hbs.AST.BlockStatement;
          const innerEach = callee === 'each' ? each + 1 : each;
          if (innerEach > TEMPLATE_LIMITS.eachDepth) throw tooLarge(field, `nests #each more than ${TEMPLATE_LIMITS.eachDepth} deep`);
          if (blocks + 1 > TEMPLATE_LIMITS.blockDepth) throw tooLarge(field, `nests blocks more than ${TEMPLATE_LIMITS.blockDepth} deep`);
          push(block.program, innerEach, blocks + 1);
          push(block.inverse, innerEach, blocks + 1);
        }
        break;
      }
      default:
        break; // content, comments, paths and literals
    }
  }
}

// Templates that passed the check, compiled (a bulk send renders the same texts for every recipient).
const compiled = new Map<string, HandlebarsTemplateDelegate>();
const CACHE_ENTRIES = 200;
const CACHE_SOURCE_BYTES = 16 * 1024;

/** Checks a template (size, then its tree, before anything is compiled) and compiles it; throws a 422 naming the field. */
function checkedTemplate(field: string, template: string): HandlebarsTemplateDelegate {
  const cached = compiled.get(template);
  if (cached) return cached;
  const bytes = Buffer.byteLength(template);
  if (bytes > TEMPLATE_LIMITS.sourceBytes) throw tooLarge(field, `is ${bytes} bytes; at most ${TEMPLATE_LIMITS.sourceBytes} are allowed`);
  let tree: hbs.AST.Program;
  try {
    tree = handlebars.parseWithoutProcessing(template);
  } catch (err) {
    throw invalid(field, firstLine(err));
  }
  checkTree(field, tree);
  let render: HandlebarsTemplateDelegate;
  try {
    handlebars.precompile(template, COMPILE_OPTIONS); // compile errors surface now, not at the first render
    render = handlebars.compile(template, COMPILE_OPTIONS);
  } catch (err) {
    throw invalid(field, firstLine(err));
  }
  if (bytes <= CACHE_SOURCE_BYTES) {
    if (compiled.size >= CACHE_ENTRIES) compiled.delete(compiled.keys().next().value!);
    compiled.set(template, render);
  }
  return render;
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

/** Refuses a template that does not compile, calls `log` or a partial, or is too large (422 naming the field). */
export function assertTemplate(field: string, template: string | null | undefined): void {
  if (!template) return;
  checkedTemplate(field, template);
  // A trial render with the sample values: a built-in helper used wrongly (`{{#if}}` alone) is refused now.
  renderTemplate(template, {}, true, field);
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'font', 'center'],
  allowedAttributes: {
    '*': ['style', 'class', 'align', 'title'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    font: ['color', 'size', 'face'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Scripts, frames, objects and forms are dropped with their content.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'form'],
};

/** Keeps formatting, links, images and inline style; removes scripts, frames, forms, on* and javascript:/data: URLs. */
export function sanitizeHtmlField(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/**
 * An HTML template field as stored: checked as written, then sanitized, then checked again (sanitizing can join
 * what a dropped tag separated, `{<script></script>{log 1}}`, or escape what made it valid).
 */
export function sanitizedTemplate(field: string, template: string): string {
  assertTemplate(field, template);
  const clean = sanitizeHtmlField(template);
  if (clean !== template) assertTemplate(field, clean);
  return clean;
}

/** A list tag (an automation digest's `celebrants`): rows of string fields, for `{{#each}}`. */
export type TemplateList = ReadonlyArray<Readonly<Record<string, string>>>;
/** Merge tag values: strings, or a list of string rows. A send's merge_tags JSON holds the same shape. */
export type TemplateValues = Readonly<Record<string, string | TemplateList>>;

class BudgetExceeded extends Error {}

/** What one render may still spend: iterations of `#each`, its nesting, and characters written. */
class RenderBudget {
  iterations = 0;
  depth = 0;
  written = 0;
  spend(chars: number): void {
    this.written += chars;
    if (this.written > TEMPLATE_LIMITS.outputBytes) throw new BudgetExceeded(`writes more than ${TEMPLATE_LIMITS.outputBytes} bytes`);
  }
}

// The render under way (rendering is synchronous, so one at a time), for the `each` helper.
let current: RenderBudget | null = null;

/**
 * A merge value: counts what it writes before it is written, so a value repeated many times stops the render at
 * the output bound instead of building it. No own keys (`#each` over it does nothing, as over a string).
 */
class MergeValue {
  readonly #value: string;
  readonly #budget: RenderBudget;
  constructor(value: string, budget: RenderBudget) {
    this.#value = value;
    this.#budget = budget;
  }
  [Symbol.toPrimitive](): string {
    this.#budget.spend(this.#value.length);
    return this.#value;
  }
  toString(): string {
    return this[Symbol.toPrimitive]();
  }
}

const builtInEach = handlebars.helpers.each as (this: unknown, context: unknown, options: Handlebars.HelperOptions) => string;
// `#each` (and a section over a list, which Handlebars runs through it) counts iterations, nesting and what each
// iteration wrote beyond the merge values it already counted.
handlebars.registerHelper('each', function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
  const budget = current;
  if (!budget || !options?.fn) return builtInEach.call(this, context, options);
  const fn = options.fn;
  const counted = (value: unknown, frame: unknown) => {
    budget.iterations += 1;
    if (budget.iterations > TEMPLATE_LIMITS.iterations) throw new BudgetExceeded(`iterates more than ${TEMPLATE_LIMITS.iterations} times`);
    budget.depth += 1;
    try {
      if (budget.depth > TEMPLATE_LIMITS.eachDepth) throw new BudgetExceeded(`nests #each more than ${TEMPLATE_LIMITS.eachDepth} deep`);
      const before = budget.written;
      const out = fn(value, frame as Handlebars.RuntimeOptions);
      budget.spend(Math.max(0, out.length - (budget.written - before)));
      return out;
    } finally {
      budget.depth -= 1;
    }
  };
  return builtInEach.call(this, context, { ...options, fn: counted as Handlebars.TemplateDelegate });
});

// Only own string fields reach the template, in objects without a prototype (as the top-level context).
const valueOf = (value: string, budget: RenderBudget) => (value === '' ? '' : new MergeValue(value, budget));
function listRows(list: TemplateList, budget: RenderBudget): Array<Record<string, unknown>> {
  return list.map((row) => {
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, value] of Object.entries(row)) if (typeof value === 'string') copy[key] = valueOf(value, budget);
    return copy;
  });
}

/**
 * Renders a template; unknown tags render empty, values are escaped. `trial` fills missing tags with samples.
 * A template that fails the check or a bound → 422 (`invalid_template`, `template_too_large`) naming `field`.
 */
export function renderTemplate(template: string | null, values: TemplateValues, trial: boolean, field = 'template'): string {
  if (!template) return '';
  const render = checkedTemplate(field, template);
  const budget = new RenderBudget();
  const context = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(trial ? { ...SAMPLE_VALUES, ...values } : values)) {
    if (typeof value === 'string') context[key] = valueOf(value, budget);
    else if (Array.isArray(value)) context[key] = listRows(value, budget);
  }
  const outer = current;
  current = budget;
  try {
    const output = render(context, RUNTIME_OPTIONS);
    if (Buffer.byteLength(output) > TEMPLATE_LIMITS.outputBytes) throw new BudgetExceeded(`writes more than ${TEMPLATE_LIMITS.outputBytes} bytes`);
    return output;
  } catch (err) {
    if (err instanceof BudgetExceeded) throw tooLarge(field, err.message);
    if (err instanceof RangeError) throw tooLarge(field, 'is too large to render');
    if (err instanceof ApiError) throw err;
    // A built-in helper used wrongly (Handlebars' own exception): the template's fault, never a 500.
    throw invalid(field, firstLine(err));
  } finally {
    current = outer;
  }
}
