import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { graphqlSchema, printSDL } from '../graphql/schema';

/** Writes the GraphQL SDL to schema.graphql at the repository root (`npm run schema:print`). */
const SCHEMA_FILE = path.resolve(__dirname, '../../..', 'schema.graphql');

writeFileSync(SCHEMA_FILE, printSDL(graphqlSchema()));
process.stdout.write(`Wrote ${SCHEMA_FILE}\n`);
