/**
 * The built index.html as a template with three holes: `<html lang>`, the head tags (at the
 * `<!--ssr-head-->` marker, else before `</head>`) and the inside of `<div id="root">`. The
 * template's own `<title>` and meta description give way to the page's. Compiled once, so a
 * render is a few string joins; a template without the marker or the root still works.
 */

export interface ShellParts {
  lang: string;
  head: string;
  root: string;
}

export interface ShellTemplate {
  render(parts: ShellParts): string;
}

const LANG = '\uE000lang\uE000';
const HEAD = '\uE000head\uE000';
const ROOT = '\uE000root\uE000';

export function compileTemplate(html: string): ShellTemplate {
  let source = html
    .replace(/<title\b[^>]*>[\s\S]*?<\/title>[ \t]*\r?\n?/i, '')
    .replace(/<meta\s+name=["']?description["']?[^>]*>[ \t]*\r?\n?/i, '')
    .replace(/<meta\s+name=["']?robots["']?[^>]*>[ \t]*\r?\n?/i, '');

  // <html lang="…"> (added when the template has none)
  source = source.replace(/<html\b([^>]*)>/i, (_match, attributes: string) => {
    const withoutLang = attributes.replace(/\s+lang\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/i, '');
    return `<html lang="${LANG}"${withoutLang}>`;
  });

  if (/<!--\s*ssr-head\s*-->/i.test(source)) source = source.replace(/<!--\s*ssr-head\s*-->/i, HEAD);
  else if (/<\/head>/i.test(source)) source = source.replace(/<\/head>/i, `${HEAD}</head>`);
  else source = source.replace(/<body\b/i, `<head>${HEAD}</head><body`);

  source = source.replace(/(<div\b[^>]*\bid=["']?root["']?[^>]*>)\s*(<\/div>)/i, `$1${ROOT}$2`);

  const pieces = source.split(/(\uE000(?:lang|head|root)\uE000)/);
  return {
    render(parts) {
      let out = '';
      for (const piece of pieces) {
        if (piece === LANG) out += parts.lang;
        else if (piece === HEAD) out += parts.head;
        else if (piece === ROOT) out += parts.root;
        else out += piece;
      }
      return out;
    },
  };
}
