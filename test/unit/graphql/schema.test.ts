import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphQLObjectType } from 'graphql';
import { graphqlSchema, printSDL } from '../../../src/graphql/schema';
import { PROJECT_ROOT } from '../../../src/project';

describe('schema.graphql', () => {
  it('matches the schema the code builds (run `npm run schema:print` after changing types)', () => {
    const committed = readFileSync(path.join(PROJECT_ROOT, 'schema.graphql'), 'utf8');
    expect(printSDL(graphqlSchema())).toBe(committed);
  });

  it('names the operations of the contract', () => {
    const schema = graphqlSchema();
    const names = (type: 'Query' | 'Mutation' | 'Subscription') => Object.keys((schema.getType(type) as GraphQLObjectType).getFields());
    expect(names('Query')).toEqual(
      expect.arrayContaining(['call', 'calls', 'campaign', 'campaigns', 'contacts', 'aiAgent', 'aiAgents', 'aiAgentTemplates', 'webhook', 'webhooks', 'integrationTemplates', 'phoneNumbers']),
    );
    expect(names('Mutation')).toEqual(
      expect.arrayContaining([
        'makeCall',
        'createCampaign',
        'updateCampaign',
        'deleteCampaign',
        'createContact',
        'importContacts',
        'updateContact',
        'deleteContact',
        'createAiAgent',
        'updateAiAgent',
        'deleteAiAgent',
        'createPhoneNumber',
        'updatePhoneNumber',
        'deletePhoneNumber',
        'createWebhook',
        'updateWebhook',
        'deleteWebhook',
      ]),
    );
    expect(names('Subscription')).toEqual(['agentTestRunUpdated', 'callStatusChanged', 'webhookExecutionUpdated']);
  });
});
