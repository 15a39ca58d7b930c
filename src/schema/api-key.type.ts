import { apiKeyContract, type ApiKeyView } from '../services/auth/api-key.contract';
import { contractObjectType } from './contract.type';

/** An API key of your company, from its contract: the key itself only in createApiKey's answer. */
export const ApiKeyType = contractObjectType(apiKeyContract, { description: 'An API key of your company; the key itself (`secret`) is shown once, when it is created.' });
export type ApiKeyType = ApiKeyView;
