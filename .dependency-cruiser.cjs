/**
 * The dependency rules of src (docs/testing.md, "Linters"; docs/architecture.md says why the
 * layers are as they are). `npm run lint` checks them with dependency-cruiser; `import type`
 * counts as an import (tsPreCompilationDeps), since a type-only cycle is still a cycle.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle outside src/entities (whose relations point at each other, as MikroORM entities do).',
      severity: 'error',
      from: { pathNot: '^src/entities/' },
      to: { circular: true, viaOnly: { pathNot: '^src/entities/' } },
    },
    {
      name: 'store-imports-no-service',
      comment: 'A store stores: it never imports a service (the service decides and calls the store).',
      severity: 'error',
      from: { path: '\\.store\\.ts$' },
      to: { path: '\\.service\\.ts$' },
    },
    {
      name: 'transports-import-no-entity-or-store',
      comment: 'REST, the resolvers and GraphQL talk to services only: never to entities or stores.',
      severity: 'error',
      from: { path: '^src/(rest|resolvers|graphql)/' },
      to: { path: ['^src/entities/', '\\.store\\.ts$'] },
    },
    {
      name: 'shared-imports-no-aggregate',
      comment: 'src/services/shared is the kernel every aggregate uses: it imports only itself, src/db, src/config and libraries.',
      severity: 'error',
      from: { path: '^src/services/shared/' },
      to: { path: '^src/', pathNot: ['^src/services/shared/', '^src/db/', '^src/config\\.ts$'] },
    },
    {
      name: 'db-imports-no-service',
      comment: 'src/db (ORM set-up, the SQL kit, transactions) sits under the services: it imports nothing from src/services.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/services/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
