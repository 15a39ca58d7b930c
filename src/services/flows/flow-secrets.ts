import { isSecretVariable, type PredefinedVariable } from '../../entities/webhook-flow.entity';
import type { SecretBox } from '../shared/secret-box';

/** Predefined variables as stored: the values of secret ones encrypted (those already sealed stay). */
export const sealPredefined = (variables: PredefinedVariable[], box: SecretBox): PredefinedVariable[] => variables.map((v) => (isSecretVariable(v) ? { ...v, value: box.seal(v.value) } : v));

/** Predefined variables as steps use them: every value in clear. */
export const openPredefined = (variables: PredefinedVariable[], box: SecretBox): PredefinedVariable[] => variables.map((v) => ({ ...v, value: box.open(v.value) }));

/** The clear values of the secret variables among `variables` (in clear), which a step's log never shows. */
export const secretValues = (variables: PredefinedVariable[]): string[] => variables.filter((v) => isSecretVariable(v) && v.value !== '').map((v) => v.value);
