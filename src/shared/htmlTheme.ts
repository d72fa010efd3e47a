/**
 * The colour themes of the HTML report (exportHtml.ts), in a module of their own: the command line
 * lists them in its options without loading the report's writers.
 */

/** `auto` follows the reader's system setting (prefers-color-scheme); `light` / `dark` fix it. */
export type HtmlTheme = 'auto' | 'light' | 'dark';
export const HTML_THEMES: readonly HtmlTheme[] = ['auto', 'light', 'dark'];
