// Long texts (what a route or an MCP tool says of itself) live in Markdown beside the code that
// serves them, one file per room and one `## key` section per text, so that they read and
// review as prose rather than as one long line of code. A section's soft line breaks are joined
// by a space and its paragraphs by a blank line, as CommonMark reads them; `{name}` is filled in
// from the values given (a limit the text states).
import fs from 'node:fs';

export type Texts = (key: string, values?: Readonly<Record<string, string | number>>) => string;

/** The texts of a Markdown file (read once, when the room's module loads). */
export function textsOf(file: URL): Texts {
  const sections = new Map<string, string>();
  const parts = fs.readFileSync(file, 'utf8').split(/^## (.+)$/m);
  for (let at = 1; at < parts.length; at += 2) sections.set(parts[at]!.trim(), prose(parts[at + 1]!));
  return (key, values = {}) => {
    const text = sections.get(key);
    if (text === undefined) throw new Error(`${file.pathname}: no section "## ${key}"`);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  };
}

function prose(section: string): string {
  return section.trim().split(/\n\s*\n/).map((paragraph) => paragraph.split('\n').map((line) => line.trim()).join(' ')).join('\n\n');
}
