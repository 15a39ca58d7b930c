import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * The JSON Schemas of flow tools' parameters (docs/agents.md, "States and flow tools"):
 * what the model is shown and what its arguments are checked against. Schemas are an
 * agent author's, so keywords Ajv does not know are allowed (`strict: false`).
 */
const ajv = new Ajv({ allErrors: true, strict: false });

/** The schema as enforced: the author's, with no argument beyond the declared properties. */
export const closedParameters = (parameters: Record<string, unknown>): Record<string, unknown> => ({ ...parameters, additionalProperties: false });

/** Why `parameters` is not a usable JSON Schema; null when it compiles. */
export function parametersProblem(parameters: Record<string, unknown>): string | null {
  try {
    ajv.compile(closedParameters(parameters));
    return null;
  } catch (err) {
    return `Not a valid JSON Schema: ${(err as Error).message}`;
  }
}

/** Checks arguments against a tool's parameters: null when they fit, else why not, for the model. */
export type ArgumentCheck = (args: Record<string, unknown>) => string | null;

export function argumentCheck(parameters: Record<string, unknown>): ArgumentCheck {
  const validate: ValidateFunction = ajv.compile(closedParameters(parameters));
  return (args) => (validate(args) ? null : `Invalid arguments: ${(validate.errors ?? []).map(describe).join('; ')}`);
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return `unknown argument ${String(error.params.additionalProperty)}`;
  return `${error.instancePath === '' ? 'arguments' : error.instancePath.slice(1).replaceAll('/', '.')} ${error.message ?? 'is not valid'}`;
}
