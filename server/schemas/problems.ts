// The one place that turns Ajv errors into `details` entries: `{ field, message }`, the field
// a JSON pointer into the checked value.
import type { ErrorObject } from 'ajv';
import type { FieldProblem } from '../errors.ts';
import { escapePointer } from '../http/body.ts';

export function toProblems(errors: readonly ErrorObject[]): FieldProblem[] {
  return errors.map(toProblem);
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
