// An Example of `components.examples`: an externalValue that is not a URL is left to kvStorage.
import type { Fields } from '../../records/record-body.ts';
import { defined, type Json, type JsonObject } from '../../json/values.ts';
import { str, text, type KindMapping } from './mapping.ts';

export const examples: KindMapping = {
  fields: ['name', 'summary', 'description', 'value', 'externalValue'],
  render: (record) => defined({
    summary: text(record['summary']),
    description: text(record['description']),
    value: record['value'] as Json | undefined,
    externalValue: record['externalValue'] as string | undefined,
  }),
};

export function exampleFields(name: string, e: JsonObject): Fields {
  const external = str(e['externalValue']);
  return {
    name,
    summary: str(e['summary']),
    description: str(e['description']),
    value: 'value' in e ? e['value'] : undefined,
    externalValue: external !== undefined && URL.canParse(external) ? external : undefined,
  };
}
