import { doNotCallContract, type DoNotCallView } from '../services/do-not-call/do-not-call.contract';
import { ConnectionType } from './connection.type';
import { contractObjectType } from './contract.type';

/** A number the company must never call: makeCall refuses it, campaigns skip it. From its contract. */
export const DoNotCallNumberType = contractObjectType(doNotCallContract, { description: 'A number on your do-not-call list: no call reaches it.' });
export type DoNotCallNumberType = DoNotCallView;

export const DoNotCallNumberConnection = ConnectionType('DoNotCallNumber', DoNotCallNumberType);
