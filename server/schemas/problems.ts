// The one place that turns Ajv errors into `details` entries: `{ field, message }`, the field
// a JSON pointer into the checked value.
import type { ErrorObject } from 'ajv';
import type { FieldProblem } from '../errors.ts';
import { escapePointer } from '../http/body.ts';

export function toProblems(errors: readonly ErrorObject[]): FieldProblem[] {
  // Ajv (allErrors off) stops at the first failing keyword, so a failed oneOf/anyOf comes last,
  // after the errors of every branch it tried: one entry, from the branch that got furthest.
  const last = errors.at(-1);
  if (errors.length > 1 && (last!.keyword === 'oneOf' || last!.keyword === 'anyOf') && !last!.params['passingSchemas']) {
    return [toProblem(bestBranch(errors.slice(0, -1)))];
  }
  return errors.map(toProblem);
}

// A missing or unknown field says the value has another branch's shape; a wrong value at the
// same depth says this branch is the one meant.
const SHAPE_MISMATCH = new Set(['required', 'additionalProperties']);

/** The error deepest into the value (the branch that matched longest); the first on a tie. */
function bestBranch(errors: readonly ErrorObject[]): ErrorObject {
  const score = (error: ErrorObject) => {
    const { field } = toProblem(error);
    return (field === '/' ? 0 : field.split('/').length - 1) - (SHAPE_MISMATCH.has(error.keyword) ? 0.5 : 0);
  };
  return errors.reduce((best, error) => (score(error) > score(best) ? error : best));
}

function toProblem(error: ErrorObject): FieldProblem {
  const at = error.instancePath;
  switch (error.keyword) {
    case 'additionalProperties':
      return { field: `${at}/${escapePointer(String(error.params['additionalProperty']))}`, message: 'is not a known field' };
    case 'required':
      return { field: `${at}/${escapePointer(String(error.params['missingProperty']))}`, message: 'is required' };
    default:
      return { field: at || '/', message: error.message ?? `fails ${error.keyword}` };
  }
}
