// The part of mjml's API the email compiler uses (the package ships no types). In v5 mjml2html returns a promise.
declare module 'mjml' {
  interface MjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }
  interface MjmlOptions {
    validationLevel?: 'strict' | 'soft' | 'skip';
    keepComments?: boolean;
    minify?: boolean;
    beautify?: boolean;
    /** Web fonts to import by name; `{}` imports none. */
    fonts?: Record<string, string>;
    filePath?: string;
    ignoreIncludes?: boolean;
  }
  export default function mjml2html(input: string, options?: MjmlOptions): Promise<{ html: string; errors: MjmlError[] }>;
}
