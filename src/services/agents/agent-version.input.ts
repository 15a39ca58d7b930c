import { z } from 'zod';
import { described as d, namedObject } from '../shared/contract';
import { intBetween, page, text } from '../shared/common.input';
import { camelKeys } from '../shared/naming';

/** A version number: a positive integer (whether the agent has it is checked against the store). */
export const versionNumber = () => intBetween(1, 2_147_483_647);

/** publish (docs/agents.md, "Versions"): the draft with a note, or an older version again (a rollback). REST's documented body. */
export const publishAgentInput = z.strictObject({
  note: d(text(1000).nullish(), 'What changed, up to 1000 characters.'),
  from_version: d(versionNumber().nullish(), 'Publish this older version again (a rollback) instead of the draft: a new number, its content.'),
});

/** Publish as `AgentVersionService.publish` validates it: the same fields camelCased (GraphQL `publishAiAgent`, REST's body renamed at its edge). */
export const publishAgentWrite = z.strictObject(camelKeys(publishAgentInput.shape));
export type PublishAgentInput = z.input<typeof publishAgentWrite>;

export const listAgentVersionsInput = page();

/** A version number in a path (`/versions/{version}`), read from its text. */
export const agentVersionParam = z.object({ version: z.coerce.number().pipe(versionNumber()) });

/** An A/B split of a campaign's calls between versions of its agent (docs/agents.md, "Versions"). */
const versionWeightInput = namedObject(
  z.strictObject({ version: d(versionNumber(), 'A published version of the agent.'), weight: d(intBetween(1, 1000), 'Its share of the calls, 1 to 1000, relative to the others.') }),
  'VersionWeightInput',
  'One side of an A/B split: a version of the agent and its weight.',
);

export const versionWeights = () =>
  z
    .array(versionWeightInput)
    .min(1, 'Must name at least one version')
    .max(10, 'At most 10 versions')
    .refine((ws) => new Set(ws.map((w) => w.version)).size === ws.length, 'Versions must not repeat');
