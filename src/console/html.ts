// HTML for the operator console (DESIGN §18), written as tagged templates whose interpolations are
// escaped unless they are already SafeHtml: a value from the database or a request can never
// become markup by accident.

/** Markup known to be safe: produced by `html` or by `raw` over a constant. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A value as it may appear in a template: escaped text, markup, or a list of either. */
export type HtmlValue = SafeHtml | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<td>${name}</td>\``: every interpolation escaped unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Markup from a constant or from a renderer that escapes itself (an SVG chart): never request data. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
