// Spectral's packages, as this ESM service sees them: they are CommonJS, and Node hands some of
// their exports over as named ones and some only under `default`. One place takes them apart.
import * as CoreModule from '@stoplight/spectral-core';
import * as FormatsModule from '@stoplight/spectral-formats';
import * as FunctionsModule from '@stoplight/spectral-functions';
import * as OwaspModule from '@stoplight/spectral-owasp-ruleset';
import * as ParsersModule from '@stoplight/spectral-parsers';
import * as ResolverModule from '@stoplight/spectral-ref-resolver';
import * as RulesetsModule from '@stoplight/spectral-rulesets';

type Loose = Record<string, any>;
const namespace = (module: object, marker: string): Loose => ((module as Loose)[marker] ? module : (module as Loose)['default']) as Loose;

export const Core = namespace(CoreModule, 'Spectral');
export const Parsers = namespace(ParsersModule, 'Json');
export const Formats = namespace(FormatsModule, 'oas3');
export const Functions = namespace(FunctionsModule, 'truthy');
const ResolverKit = namespace(ResolverModule, 'Resolver');
const Rulesets = namespace(RulesetsModule, 'oas');
const owasp = (OwaspModule as Loose)['default']?.['rules'] ? (OwaspModule as Loose)['default'] : ((OwaspModule as Loose)['default']?.['default'] ?? OwaspModule);

/** The built-in rulesets a project may choose, by the names Spectral's own ruleset files give them. */
export const BUILT_IN_RULESETS: Readonly<Record<string, object>> = {
  'spectral:oas': Rulesets['oas'],
  '@stoplight/spectral-owasp-ruleset': owasp,
};

/**
 * A resolver that resolves nothing outside the document: the exported description's `$ref`s
 * are all internal, and one that is not must not make the catalog read a URL or a file.
 */
export function internalOnlyResolver(): unknown {
  return new ResolverKit['Resolver']({ resolvers: {} });
}
