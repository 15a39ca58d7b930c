import { z } from 'zod';
import { page, requiredText, workspace } from './common';

const VARIABLE_NAME = /^[\w.-]{1,100}$/;

/** Trigger (REST `POST /v1/webhooks/{id}/trigger`): the values that fill `{{placeholders}}`. */
export const triggerInput = z.strictObject({
  variables: z
    .record(z.string().regex(VARIABLE_NAME, 'Variable names are 1 to 100 letters, digits, _, . or -'), z.unknown())
    .refine((vars) => Object.keys(vars).length <= 200, 'At most 200 variables')
    .nullish()
    .transform((v) => v ?? {}),
});

export const listExecutionsInput = page();

/** Copy an integration template into the caller's company. */
export const useTemplateInput = z.strictObject({
  workspace: workspace(),
  name: requiredText(200).optional(),
});
