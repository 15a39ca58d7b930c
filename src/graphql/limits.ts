import depthLimit from 'graphql-depth-limit';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  KnownFragmentNamesRule,
  Kind,
  Lexer,
  NoFragmentCyclesRule,
  NoSchemaIntrospectionCustomRule,
  Source,
  specifiedRules,
  TokenKind,
  type ValidationRule,
  validate,
  visit,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator, type ComplexityEstimatorArgs } from 'graphql-query-complexity';
import { textProblem } from '../db/storable';
import { reservedKeys, unstorable } from '../services/shared/storable';
import { DEFAULT_PAGE_SIZE } from './input';
import { selectedFields } from './selection';

/** Deepest selection accepted (a campaign's calls' agents are 7 levels deep). */
export const MAX_DEPTH = 10;
/** Most complexity points per operation: a field costs 1, a list or page its size times its selection (see perNode). */
export const MAX_COMPLEXITY = 25_000;
/** Parsing stops past this many tokens: thousands of aliases are refused before validation. */
export const MAX_TOKENS = 5000;

/**
 * A connection's `totalCount`: a count of every match, over the company's rows by index (a
 * page reads `first`). Charged once per connection, not per node.
 */
export const COUNT_COST = 50;
/**
 * A `search`: a trigram index scan whose work grows with the matches, whatever `first` is
 * (a word of one or two letters matches most contacts), and one more for its `totalCount`.
 */
export const SEARCH_COST = 2000;
/** A campaign's `audience`: a count over up to AUDIENCE_COUNT_LIMIT (10,000) contacts its selection matches. */
export const AUDIENCE_COST = SEARCH_COST;
/** Most aliases of one field in one selection set, fragments spread into it included. */
export const MAX_FIELD_ALIASES = 20;

/** What the complexity estimators get besides a field: the document's fragments, by name. */
interface CostContext {
  fragments: Map<string, FragmentDefinitionNode>;
}

/**
 * Complexity of a field returning a page or a list of about `first` nodes: its selection
 * counted once per node, plus COUNT_COST when `totalCount` is selected (that field itself
 * costs nothing, so it is not counted per node), plus SEARCH_COST for each scan a `search`
 * makes (the page's, and the count's). Used as `@Field({ complexity: perNode })`.
 */
export const perNode = ({ args, childComplexity, node, context }: ComplexityEstimatorArgs): number => {
  const counted = selectedFields(node.selectionSet, (context as CostContext).fragments).some((field) => field.name.value === 'totalCount');
  const scans = args.search ? (counted ? 2 : 1) : 0;
  return 1 + childComplexity * (typeof args.first === 'number' ? args.first : DEFAULT_PAGE_SIZE) + (counted ? COUNT_COST : 0) + scans * SEARCH_COST;
};

/** Complexity of a list without a size argument (a company's agents, webhooks, numbers). */
export const unboundedList = ({ childComplexity }: ComplexityEstimatorArgs): number => 1 + childComplexity * 50;

/** Deepest nesting of braces, brackets and parentheses a document may have (selections and literals). */
export const MAX_NESTING = 32;

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Refuses, before parsing, a document nested deeper than MAX_NESTING: graphql-js parses
 * recursively, and a few thousand `{` (well within MAX_TOKENS) overflow the stack. The
 * lexer is iterative; a lexing error is left for the parser to report.
 */
export function checkNesting(query: string): void {
  const lexer = new Lexer(new Source(query));
  let depth = 0;
  try {
    for (let token = lexer.advance(), count = 0; token.kind !== TokenKind.EOF && count < MAX_TOKENS; token = lexer.advance(), count++) {
      if (CLOSING.has(token.kind)) depth--;
      else if (OPENING.has(token.kind) && ++depth > MAX_NESTING) break;
    }
  } catch {
    return;
  }
  if (depth > MAX_NESTING) {
    throw new GraphQLError(`Document is nested more than ${MAX_NESTING} levels deep`, { extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { status: 400 } } });
  }
}

/**
 * graphql-depth-limit, for documents whose fragment spreads are sound: it follows spreads
 * without a guard, so a fragment cycle overflows the stack and an unknown fragment throws.
 * GraphQL's own rules (run beside this one) report both as validation errors.
 */
const depthRule: ValidationRule = (context) =>
  validate(context.getSchema(), context.getDocument(), [KnownFragmentNamesRule, NoFragmentCyclesRule]).length > 0 ? {} : (depthLimit(MAX_DEPTH) as ValidationRule)(context);

/**
 * Refuses a selection set asking for one field under more than MAX_FIELD_ALIASES aliases
 * (fragments spread into it included): hundreds of aliases of a costly field would each
 * run its statements. Fragments' and inline fragments' own selection sets are counted where
 * they are spread.
 */
const fieldAliasLimit: ValidationRule = (context) => {
  const fragments = new Map(
    context
      .getDocument()
      .definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  return {
    SelectionSet(node, _key, parent) {
      if (parent && 'kind' in parent && (parent.kind === Kind.FRAGMENT_DEFINITION || parent.kind === Kind.INLINE_FRAGMENT)) return;
      const aliases = new Map<string, Set<string>>();
      for (const field of selectedFields(node, fragments)) {
        const keys = aliases.get(field.name.value) ?? new Set<string>();
        aliases.set(field.name.value, keys.add(field.alias?.value ?? field.name.value));
      }
      for (const [name, keys] of aliases) {
        if (keys.size > MAX_FIELD_ALIASES) {
          context.reportError(new GraphQLError(`Field "${name}" is selected under ${keys.size} aliases; at most ${MAX_FIELD_ALIASES} are allowed`, { nodes: node }));
        }
      }
    },
  };
};

/** Validation rules added to GraphQL's own, on HTTP and on websockets alike. */
export function extraRules(introspection: boolean): ValidationRule[] {
  return [depthRule, fieldAliasLimit, ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
}

export const validationRules = (introspection: boolean): ValidationRule[] => [...specifiedRules, ...extraRules(introspection)];

/** Complexity per document (Apollo hands out the same parsed document for the same query) and variables. */
const known = new WeakMap<DocumentNode, Map<string, number>>();
const KNOWN_PER_DOCUMENT = 100;

function complexityOf(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>, operationName?: string | null): number {
  const key = `${operationName ?? ''} ${JSON.stringify(variables)}`;
  const byVariables = known.get(document) ?? new Map<string, number>();
  known.set(document, byVariables);
  const cached = byVariables.get(key);
  if (cached !== undefined) return cached;
  let complexity: number;
  try {
    complexity = getComplexity({
      schema,
      query: document,
      variables,
      ...(operationName ? { operationName } : {}),
      context: { fragments: new Map(document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d])) } satisfies CostContext,
      estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch (err) {
    // The count coerces the variables first: a value that does not fit its type is the
    // caller's error, answered as execution would answer it, not a failure of ours.
    if (!(err instanceof GraphQLError)) throw err;
    throw new GraphQLError(err.message, { nodes: err.nodes, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
  }
  if (byVariables.size >= KNOWN_PER_DOCUMENT) byVariables.clear();
  byVariables.set(key, complexity);
  return complexity;
}

/**
 * Refuses an operation costlier than MAX_COMPLEXITY, with code QUERY_TOO_COMPLEX. Runs
 * after validation, once variables are known (`first: $n`).
 */
export function checkComplexity(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string | null): void {
  const complexity = complexityOf(schema, document, variables ?? {}, operationName);
  if (complexity > MAX_COMPLEXITY) {
    throw new GraphQLError(`Query is too complex: ${complexity} points, the limit is ${MAX_COMPLEXITY}`, {
      extensions: { code: 'QUERY_TOO_COMPLEX', complexity, maxComplexity: MAX_COMPLEXITY, http: { status: 400 } },
    });
  }
}

/** The first problem of a string literal of each document (null: none), found once per document (`known` above says why that holds). */
const literalProblems = new WeakMap<DocumentNode, string | null>();

function literalProblem(document: DocumentNode): string | null {
  let problem = literalProblems.get(document);
  if (problem === undefined) {
    let found: string | null = null;
    visit(document, {
      StringValue(node) {
        found ??= textProblem(node.value);
      },
    });
    problem = found;
    literalProblems.set(document, problem);
  }
  return problem;
}

/**
 * Refuses input no service could store, with code BAD_USER_INPUT (HTTP 400): NUL characters
 * or unpaired surrogates in a string literal of the document or in the variables, or
 * variables nested too deeply, and keys that would set a prototype (`__proto__`: a validation
 * failure naming them, relative to the variables); the same rules as REST bodies,
 * src/services/shared/storable.ts.
 */
export function checkInputValues(document: DocumentNode, variables: Record<string, unknown> | undefined): void {
  const problem = unstorable(variables ?? {}) ?? literalProblem(document);
  if (problem) throw new GraphQLError(problem, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
  const reserved = reservedKeys(variables ?? {});
  if (reserved.length > 0) throw new GraphQLError('Validation failed', { extensions: { code: 'BAD_USER_INPUT', fields: reserved, http: { status: 400 } } });
}
