/**
 * The canonical form of a request target (docs/pages.md §5): what a non-canonical path redirects
 * to, and which targets are malformed (a 400) — never a path a browser reads as another origin.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTarget } from '../src/filter/canonical.js';

/** What parseTarget makes of a target: its canonical path, or `malformed`. */
function canonicalOf(target: string): string {
  const parsed = parseTarget(target);
  return parsed.kind === 'path' ? parsed.canonical : parsed.kind;
}

describe('parseTarget: the canonical form of a path (docs/pages.md §5)', () => {
  const cases: Array<[target: string, canonical: string | 'malformed']> = [
    ['/', '/'],
    ['/over', '/over'],
    ['/over/', '/over'],
    ['//over', '/over'],
    ['//evil.example', '/evil.example'],
    ['///evil.example/x', '/evil.example/x'],
    ['/%61anmelden', '/aanmelden'],
    ['/%7Eover', '/~over'],
    ['/assets/../over', '/over'],
    ['/assets/%2e%2e/over', '/over'],
    ['/assets/%2E%2E/over', '/over'],
    ['/a/./b/../c', '/a/c'],
    ['/..', '/'],
    ['/../../over', '/over'],
    ['/a%2fb', '/a%2Fb'],
    ['/assets%2F..%2Fover', '/assets%2F..%2Fover'],
    ['/\\evil.example', '/%5Cevil.example'],
    ['/a%5cb', '/a%5Cb'],
    ['http://evil.example/over', '/over'],
    ['http://evil.example//evil.example', '/evil.example'],
    ['HTTPS://evil.example', '/'],
    // Already canonical (the fast path) and its near misses.
    ['/a_b/c-d/~e', '/a_b/c-d/~e'],
    ['/a../b.c.', '/a../b.c.'],
    ['/a/.b/..c', '/a/.b/..c'],
    ['/a/.', '/a'],
    ['/a/b/..', '/a'],
    ['/a/b/', '/a/b'],
    ['/a//b', '/a/b'],
    ['/%', 'malformed'],
    ['/%zz', 'malformed'],
    ['/%C0%AF', 'malformed'],
    ['*', 'malformed'],
    ['evil.example:443', 'malformed'],
  ];
  for (const [target, expected] of cases) {
    it(`${JSON.stringify(target)} → ${expected}`, () => assert.equal(canonicalOf(target), expected));
  }

  it('keeps the query string apart and unchanged', () => {
    assert.deepEqual(parseTarget('/over/?a=%zz&b'), { kind: 'path', path: '/over/', canonical: '/over', search: '?a=%zz&b' });
  });

  it('never yields a canonical path that a browser reads as another origin', () => {
    const cases: Array<[target: string, canonical: string]> = [
      ['//a', '/a'],
      ['/\\a', '/%5Ca'],
      ['/%2F/a', '/%2F/a'],
      ['/.//a', '/a'],
      ['/..//a', '/a'],
      ['http://x//a', '/a'],
      ['/%5C%5Ca', '/%5C%5Ca'],
    ];
    for (const [target, canonical] of cases) {
      assert.equal(canonicalOf(target), canonical, target);
      assert.match(canonicalOf(target), /^\/(?![/\\])/, target);
    }
  });
});
