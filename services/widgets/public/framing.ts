// Who may frame a widget's pages: the page's own origin and the widget's `allowedOrigins` (https ones; http ones
// only with WIDGET_ALLOW_HTTP_ORIGINS, for development and tests); an empty list lets any page frame it.
export function frameAncestors(allowedOrigins: readonly string[], allowHttp: boolean): string {
  if (allowedOrigins.length === 0) return '*';
  const origins = allowedOrigins.filter((origin) => origin.startsWith('https://') || (allowHttp && origin.startsWith('http://')));
  return ["'self'", ...origins].join(' ');
}
