import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/project';

/** README.md and docs/*.md, relative to the project root. */
const pages = [
  'README.md',
  ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Relative Markdown link targets (`[text](docs/x.md#part)`) and Markdown files named in code spans (`` `docs/x.md` ``). */
function namedFiles(text: string): string[] {
  const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/i.test(target));
  const spans = [...text.matchAll(/`([\w./-]+\.md)`/g)].map((m) => m[1]);
  return [...links, ...spans];
}

/** A page names a file relative to itself (links) or to the project root (paths in code spans). */
const exists = (page: string, file: string): boolean => existsSync(path.join(PROJECT_ROOT, path.dirname(page), file)) || existsSync(path.join(PROJECT_ROOT, file));

describe('the documentation', () => {
  it.each(pages)('%s names only files the project has', (page) => {
    const missing = namedFiles(readFileSync(path.join(PROJECT_ROOT, page), 'utf8')).filter((file) => !exists(page, file));
    expect(missing).toEqual([]);
  });
});
