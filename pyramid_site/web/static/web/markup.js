// Markup made from templates: what a template interpolates is escaped, except markup made the same way.

export class Markup extends String {}

/** A template tag that escapes what it interpolates, except markup made by itself. */
export function html(strings, ...values) {
  const escape = (value) => value instanceof Markup ? value
    : Array.isArray(value) ? value.map(escape).join("")
      : String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return new Markup(strings.reduce((out, s, i) => out + s + (i < values.length ? escape(values[i]) : ""), ""));
}
