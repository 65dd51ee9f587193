// `lint show` and `lint set`: a project's lint settings (docs/governance.md), read and saved as
// over HTTP. `set` takes a JSON or YAML file of settings, refuses a bad one naming the problem,
// saves it as the next revision and lints the project's services again before it returns.
import fs from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { InvalidRequest } from '../../server/errors.ts';
import type { LintSettings } from '../../server/lint/settings.ts';
import { CommandError, requiredString, type Command } from './command.ts';
import { REF_OPTION, resolveProject } from './projects.ts';
import { checkAgainst } from './validate.ts';

const human = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export const lintCommands: readonly Command[] = [
  {
    group: 'lint',
    name: 'show',
    summary: 'show a project\'s lint settings in force and their revision (0: the defaults)',
    synopsis: '--project REF',
    options: { project: REF_OPTION },
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      return async ({ tenancy, lints }) => {
        const project = await resolveProject(tenancy, ref);
        const saved = await lints.settings.current(project.id);
        return { json: saved, human: human(saved) };
      };
    },
  },
  {
    group: 'lint',
    name: 'set',
    summary: 'save a project\'s lint settings (rulesets, ruleset documents, severities, exemptions) and lint its services again',
    synopsis: '--project REF --file F',
    options: { project: REF_OPTION, file: { type: 'string', value: 'F', description: 'a JSON or YAML file of lint settings (docs/governance.md)' } },
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      const file = requiredString(args, 'file');
      return async ({ tenancy, lints }) => {
        const project = await resolveProject(tenancy, ref);
        const settings = await settingsIn(file, await fs.readFile(file, 'utf8').catch(() => { throw new CommandError(`cannot read ${file}`); }));
        const saved = await lints.settings.save(project.id, settings);
        await lints.relintProject(project.id);
        await lints.idle();
        return { json: saved, human: `saved revision ${saved.revision}; the project's services are linted again\n` };
      };
    },
  },
];

/** The settings in the file, checked; Spectral is loaded only here, not for every command of the CLI. */
async function settingsIn(file: string, text: string): Promise<LintSettings> {
  const [{ settingsOf }, { spectralDefinition }, { settingsProblems }] = await Promise.all([
    import('../../server/lint/settings.ts'), import('../../server/lint/definition.ts'), import('../../server/lint/settings-schema.ts'),
  ]);
  let body: unknown;
  try {
    body = parseYaml(text);
  } catch (error) {
    throw new CommandError(`${file} is not JSON or YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const shape = settingsProblems(body);
  const problems = shape.length > 0 ? shape : (() => {
    try {
      return spectralDefinition(settingsOf(body as never)).problems;
    } catch (error) {
      if (error instanceof InvalidRequest) return error.details as { field: string; message: string }[];
      throw error;
    }
  })();
  if (problems.length > 0) throw new CommandError(`${file}: ${problems.map(({ field, message }) => `${field} ${message}`).join('; ')}`);
  return settingsOf(body as never);
}
