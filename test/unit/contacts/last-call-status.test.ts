import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphQLEnumType } from 'graphql';
import { CALL_STATUSES } from '../../../src/entities/call.entity';
import { LAST_CALL_STATUSES } from '../../../src/entities/contact.entity';
import { graphqlSchema } from '../../../src/graphql/schema';
import { PROJECT_ROOT } from '../../../src/project';
import { contactStatusOf } from '../../../src/services/calls/call-transitions';

/** The source files of src (migrations aside: they create the column, they never write it). */
function sources(dir = path.join(PROJECT_ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** The `enum` of `last_call_status` in the committed OpenAPI document (kept equal to the served one by test/api/snapshots). */
function openApiEnum(): unknown {
  const document = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'test/api/snapshots/openapi.json'), 'utf8'));
  const property = document.components.schemas.Contact.properties.last_call_status;
  return property.anyOf.find((variant: { enum?: string[] }) => variant.enum).enum;
}

describe("a contact's last_call_status", () => {
  it('is written in one place, from contactStatusOf', () => {
    // SQL that sets the column, or ORM code that sets the property (declarations aside: the entity's and the contract's, readOnly).
    const writes = /last_call_status\s*=|\blastCallStatus\s*(?:=|:(?!\s*(?:d\(|readOnly\(|Opt<)))/;
    const writers = sources().filter((file) => writes.test(readFileSync(file, 'utf8')));
    expect(writers.map((file) => path.relative(PROJECT_ROOT, file))).toEqual(['src/services/calls/call.store.ts']);
    const store = readFileSync(writers[0], 'utf8');
    expect(store).toMatch(/SET last_call_status = g\.contact_status/);
    // The value is the transition's `contactStatus`, which transitionFields takes from contactStatusOf.
    expect(store.match(/contact_status: .*/g)).toEqual(['contact_status: string;', 'contact_status: fields.contactStatus,']);
    const transitions = readFileSync(path.join(PROJECT_ROOT, 'src/services/calls/call-transitions.ts'), 'utf8');
    expect(transitions.match(/contactStatus: .*/g)).toEqual(['contactStatus: LastCallStatus;', 'contactStatus: contactStatusOf(update.status, update.disconnectReason),']);
  });

  it('takes only values of the list, for every call status and ending', () => {
    const reasons = [undefined, '', 'voicemail_reached', 'timeout', 'agent_hangup', 'dial_failed'];
    const written = new Set(CALL_STATUSES.flatMap((status) => reasons.map((reason) => contactStatusOf(status, reason))));
    expect([...written].filter((value) => !(LAST_CALL_STATUSES as readonly string[]).includes(value))).toEqual([]);
    expect(contactStatusOf('completed', 'voicemail_reached')).toBe('voicemail');
  });

  it('has every value of the list in the OpenAPI and GraphQL enums', () => {
    expect(openApiEnum()).toEqual([...LAST_CALL_STATUSES]);
    const graphql = graphqlSchema().getType('LastCallStatus') as GraphQLEnumType;
    expect(graphql.getValues().map((value) => value.value)).toEqual([...LAST_CALL_STATUSES]);
  });
});
