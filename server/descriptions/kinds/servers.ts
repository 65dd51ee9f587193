// A Server of the service, a path or an operation. A record's server variable needs an enum of
// at least one value (the contract), OpenAPI's may have none: the import makes one of the
// default and marks it made up, so export leaves it out (GitHub Enterprise's servers).
import type { Fields } from '../../records/record-body.ts';
import { pointer } from '../../json/pointer.ts';
import { defined, isObject, setMember, without, type JsonObject } from '../../json/values.ts';
import { markOf } from '../../store/mark.ts';
import { nonEmpty, obj, str, text, type KindMapping } from './mapping.ts';

export const servers: KindMapping = {
  fields: ['serviceId', 'pathId', 'operationId', 'url', 'description', 'variables'],
  render: (record) => defined({ url: String(record['url']), description: text(record['description']), variables: nonEmpty(serverVariables(record)) }),
};

/** How the mark names a server variable's enum the import made up. */
export function generatedEnum(variable: string): string {
  return pointer('variables', variable, 'enum');
}

/** A server's variables, without the enums the import made up. */
function serverVariables(record: Fields): JsonObject {
  const generated = markOf(record)?.generated ?? [];
  const variables: JsonObject = {};
  for (const [name, variable] of Object.entries(isObject(record['variables']) ? record['variables'] : {})) {
    setMember(variables, name, isObject(variable) && generated.includes(generatedEnum(name)) ? without(variable, 'enum') : variable);
  }
  return variables;
}

/** The Server's fields, and the enums made up for it; `owner`: its `serviceId`, `pathId` or `operationId`. */
export function serverFields(s: JsonObject, owner: Fields): { fields: Fields; generated: string[] } {
  const variables: JsonObject = {};
  const generated: string[] = [];
  for (const [name, variable] of Object.entries(obj(s['variables']))) {
    const v = obj(variable);
    const value = String(v['default'] ?? '');
    const values = Array.isArray(v['enum']) && v['enum'].length > 0 ? v['enum'].map(String) : undefined;
    // Without an enum the default is the value the document certainly allows.
    if (!values) generated.push(generatedEnum(name));
    setMember(variables, name, { default: value, enum: values ?? [value] });
  }
  return { fields: { ...owner, url: s['url'], description: str(s['description']), variables }, generated };
}
