// URLs that end up in markup and styles: http(s) only, and never a whitespace or control character (which could
// end a CSS value or a header line wherever a URL is written).

// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]/u;

export const hasWhitespaceOrControl = (value: string) => WHITESPACE_OR_CONTROL.test(value);

export const isPlainHttpUrl = (value: string) => /^https?:\/\//i.test(value) && !hasWhitespaceOrControl(value);
