import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isExcluded, parseTarget } from '../src/filter/canonical.js';

describe('parseTarget: the canonical form of a path (product.md §1)', () => {
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
    ['/%', 'malformed'],
    ['/%zz', 'malformed'],
    ['/%C0%AF', 'malformed'],
    ['*', 'malformed'],
    ['evil.example:443', 'malformed'],
  ];
  for (const [target, expected] of cases) {
    it(`${JSON.stringify(target)} → ${expected}`, () => {
      const parsed = parseTarget(target);
      if (expected === 'malformed') assert.equal(parsed.kind, 'malformed');
      else {
        assert.equal(parsed.kind, 'path');
        assert.equal(parsed.kind === 'path' && parsed.canonical, expected);
      }
    });
  }

  it('keeps the query string apart and unchanged', () => {
    assert.deepEqual(parseTarget('/over/?a=%zz&b'), { kind: 'path', path: '/over/', canonical: '/over', search: '?a=%zz&b' });
  });

  it('never yields a canonical path that a browser reads as another origin', () => {
    for (const t of ['//a', '/\\a', '/%2F/a', '/.//a', '/..//a', 'http://x//a', '/%5C%5Ca']) {
      const p = parseTarget(t);
      if (p.kind === 'path') assert.match(p.canonical, /^\/(?![/\\])/, t);
    }
  });
});

describe('isExcluded: the matcher (product.md §2)', () => {
  const excluded = ['/assets/app.css', '/assets/images/a.png', '/assets/x/y/z.js', '/_image', '/favicon.ico'];
  const filtered = ['/', '/over', '/assets', '/assetsx/a.js', '/assets%2Fa.js', '/_imagex', '/_image/x', '/favicon.icox', '/Favicon.ico', '/ASSETS/a.css', '/x/assets/a.css', '/x/favicon.ico', '/_Image'];
  for (const path of excluded) it(`excludes ${path}`, () => assert.equal(isExcluded(path), true));
  for (const path of filtered) it(`filters ${path}`, () => assert.equal(isExcluded(path), false));
});
