/**
 * JUnit XML of an agent test run, the report format CI systems read (GitHub Actions, GitLab,
 * Jenkins): one `<testsuite>` for the run, one `<testcase>` per scenario, a `<failure>` naming
 * each criterion that failed, an `<error>` for a scenario that could not be run.
 */

/** Characters XML 1.0 cannot hold at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF): dropped. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `text` as XML character data or an attribute value (quoted with "). */
export const xmlText = (text: string): string => text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ENTITIES[c]);

export interface JUnitCase {
  name: string;
  seconds: number;
  /** Failed criteria, one line each; empty when the case passed. */
  failures: string[];
  /** Why the case could not be run; null when it ran. */
  error: string | null;
  /** Written as the case's output (its transcript). */
  output: string;
}

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}="${xmlText(String(v))}"`)
    .join(' ');

function testcase(suite: string, c: JUnitCase): string {
  const body = [
    ...(c.error !== null ? [`      <error ${attrs({ message: c.error, type: 'error' })}/>`] : []),
    ...(c.failures.length ? [`      <failure ${attrs({ message: c.failures[0], type: 'criteria' })}>${xmlText(c.failures.join('\n'))}</failure>`] : []),
    `      <system-out>${xmlText(c.output)}</system-out>`,
  ];
  return [`    <testcase ${attrs({ name: c.name, classname: suite, time: c.seconds.toFixed(3) })}>`, ...body, '    </testcase>'].join('\n');
}

export function junitXml(suite: string, timestamp: Date, cases: readonly JUnitCase[]): string {
  const counts = {
    tests: cases.length,
    failures: cases.filter((c) => c.error === null && c.failures.length > 0).length,
    errors: cases.filter((c) => c.error !== null).length,
    time: cases.reduce((sum, c) => sum + c.seconds, 0).toFixed(3),
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs({ name: 'switchboard test-agent', ...counts })}>`,
    `  <testsuite ${attrs({ name: suite, ...counts, timestamp: timestamp.toISOString().replace(/\.\d{3}Z$/, '') })}>`,
    ...cases.map((c) => testcase(suite, c)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
