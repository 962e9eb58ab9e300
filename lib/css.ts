// Writing untrusted text into CSS: a value inside a quoted CSS string can neither end the string, nor the rule,
// nor the <style> element it sits in.

/** The value with every character outside a small URL-safe set written as a CSS hex escape (`\22 ` for `"`). */
export function cssString(value: string): string {
  return value.replace(/[^A-Za-z0-9\-_.:/?=&%~+#@!$,;]/gu, (ch) => `\\${ch.codePointAt(0)!.toString(16)} `);
}
