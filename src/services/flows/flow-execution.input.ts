import { z } from 'zod';
import { page } from '../shared/common.input';

const VARIABLE_NAME = /^[\w.-]{1,100}$/;

/** Trigger (REST `POST /v1/webhooks/{id}/trigger`): the values that fill `{{placeholders}}`. */
export const triggerInput = z.strictObject({
  variables: z
    .record(z.string(), z.unknown())
    .superRefine((vars, ctx) => {
      const names = Object.keys(vars);
      if (names.length > 200) ctx.addIssue({ code: 'custom', message: 'At most 200 variables' });
      for (const name of names.filter((n) => !VARIABLE_NAME.test(n))) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'Variable names are 1 to 100 letters, digits, _, . or -' });
      }
    })
    .nullish()
    .transform((v) => v ?? {}),
});

export type TriggerInput = z.input<typeof triggerInput>;

export const listExecutionsInput = page();
export type ExecutionListInput = z.input<typeof listExecutionsInput>;
