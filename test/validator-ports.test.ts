/**
 * The ports of validator.js (islands/lib/validator.ts and the rule modules written out for their
 * options; docs/forms.md §5) judge every string as the installed validator.js does, throwing where
 * it throws: on each table's strings and on thousands made from pieces by a seeded generator (the
 * same strings each run; a failure names the string). A validator.js upgrade that changes a
 * function fails here, naming the input.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import isEmail from 'validator/es/lib/isEmail.js';
import isFQDN from 'validator/es/lib/isFQDN.js';
import isIP from 'validator/es/lib/isIP.js';
import isLength from 'validator/es/lib/isLength.js';
import isLowercase from 'validator/es/lib/isLowercase.js';
import isUppercase from 'validator/es/lib/isUppercase.js';
import isURL from 'validator/es/lib/isURL.js';
import isUUID from 'validator/es/lib/isUUID.js';
import matches from 'validator/es/lib/matches.js';
import * as isLengthRule from '../islands/lib/rules/isLength.js';
import * as isLowercaseRule from '../islands/lib/rules/isLowercase.js';
import * as isMailbox from '../islands/lib/rules/isMailbox.js';
import * as isUppercaseRule from '../islands/lib/rules/isUppercase.js';
import * as isUuid from '../islands/lib/rules/isUuid.js';
import * as isWebsite from '../islands/lib/rules/isWebsite.js';
import * as matchesRule from '../islands/lib/rules/matches.js';
import * as maxLength from '../islands/lib/rules/maxLength.js';
import * as minLength from '../islands/lib/rules/minLength.js';
import { isFQDN as fqdnPort, isIP as ipPort, type FqdnOptions } from '../islands/lib/validator.js';
import { HOSTILE_ADDRESSES, PLAIN_ADDRESSES } from './fixtures/mailboxes.js';
import { FORM_KITS } from './helpers/form.js';

/** A seeded generator of numbers in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` strings of 1 to `most` pieces each, the same for the same seed. */
function made(seed: number, pieces: readonly string[], count: number, most = 8): string[] {
  const next = seeded(seed);
  const pick = () => pieces[Math.floor(next() * pieces.length)]!;
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * most) }, pick).join(''));
}

/** Every combination of one piece from each list, joined. */
const combined = (...lists: readonly (readonly string[])[]): string[] => lists.reduce<string[]>((all, list) => all.flatMap((head) => list.map((piece) => head + piece)), ['']);

/** What a call gives: its value, or the name of what it throws. */
function outcome(call: () => unknown): unknown {
  try {
    return call();
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

/**
 * Asserts that the port and the original agree on every input, naming the first that differs, and
 * unless `mixed` is false (a bound or version that decides alone), that some inputs pass and some
 * are refused (strings all refused would prove nothing).
 */
function agree(inputs: readonly string[], port: (input: string) => unknown, original: (input: string) => unknown, mixed = true): void {
  const seen = new Set<unknown>();
  for (const input of inputs) {
    const expected = outcome(() => original(input));
    assert.deepEqual(outcome(() => port(input)), expected, JSON.stringify(input));
    seen.add(expected);
  }
  if (mixed) assert.ok(seen.has(true) && seen.has(false), `passed and refused among ${inputs.length} inputs`);
}

/** The pieces of host names. */
const HOST_PIECES = ['voorbeeld', 'a', 'Z', '0', '1', '123', '.', '..', '-', '_', 'nl', 'com', 'xn--', 'xn--bcher-kva', 'ü', 'ß', 'Ω', '😀', '\uFF01', '\uFF5F', ' ', '\t', '\u00A0', '\u2028', '*', '*.', 'a'.repeat(63), 'b'.repeat(64), 'localhost'];

describe("the ports of validator.js's functions hold to validator.js (docs/forms.md §5)", () => {
  it('isMailbox: isEmail with the characters a mailbox refuses, throwing where it throws (a lone surrogate)', () => {
    const pieces = ['anna', 'A', '0', '.', '..', '@', '@@', '"', ' ', ',', '<', '>', '\r', '\n', '-', '_', '+', "'", '!', '#', '%', '/', '=', '\\', 'ü', '😀', '\uD800', '\uDC00', '\uFE0F', '\u2028', '[', ']', '127.0.0.1', '[127.0.0.1]', 'a'.repeat(64), 'c'.repeat(250)];
    const kits = Object.values(FORM_KITS).flatMap((kit) => [kit.valid, ...kit.edges].map((fields) => fields.email).filter((email): email is string => typeof email === 'string'));
    const inputs = [
      ...HOSTILE_ADDRESSES,
      ...PLAIN_ADDRESSES,
      ...kits,
      ...made(1, pieces, 10_000),
      ...combined(made(2, pieces, 60, 3), ['@'], made(3, HOST_PIECES, 150, 5)),
    ];
    agree(inputs, (v) => isMailbox.check(v, []), (v) => isEmail(v, { blacklisted_chars: '"<>, \r\n' }));
  });

  it('isWebsite: isURL with http and https only and the protocol required', () => {
    const pieces = ['http', 'https', 'HTTPS', 'ftp', 'javascript', 'mailto:', ':', '//', '/', '@', ':@', 'user', 'pass', '%41', '%', '#', '?', '&', '[', ']', '::1', '[::1]', '[fe80::1%eth0]', '127.0.0.1', '256.1.1.1', '80', '65535', '65536', '0', ...HOST_PIECES, '<', 'c'.repeat(2100)];
    const structured = combined(
      ['', 'http', 'https', 'HTTP', 'ftp', 'a1+.', '1http'],
      ['', ':', '://', ':/', ':///'],
      ['', 'anna@', 'anna:geheim@', ':@', '@', 'a:b:c@', '%41@', 'a%zz@', 'javascript:x@'],
      ['voorbeeld.nl', 'localhost', '127.0.0.1', '[::1]', '[2001:db8::1]', '[::ffff:1.2.3.4]', '[1::2::3]', 'xn--bcher-kva.de', '-a.nl', 'a_b.nl', 'a.123', ''],
      ['', ':8080', ':0', ':65536', ':x', ':', ':80:80'],
      ['', '/', '/pad?x=1#y', '?q', '#f'],
    );
    const kits = Object.values(FORM_KITS).flatMap((kit) => [kit.valid, ...kit.edges].map((fields) => fields.website).filter((url): url is string => typeof url === 'string'));
    agree([...kits, ...structured, ...made(4, pieces, 10_000)], (v) => isWebsite.check(v, []), (v) => isURL(v, { protocols: ['http', 'https'], require_protocol: true }));
  });

  it('isFQDN, with each of its options', () => {
    const options: FqdnOptions[] = [{}, { require_tld: false }, { allow_underscores: true }, { allow_trailing_dot: true }, { allow_numeric_tld: true }, { allow_wildcard: true }, { ignore_max_length: true }, { require_tld: false, allow_numeric_tld: true, allow_trailing_dot: true }];
    const inputs = made(5, HOST_PIECES, 5_000, 6);
    for (const given of options) agree(inputs, (v) => fqdnPort(v, { ...given }), (v) => isFQDN(v, { ...given }));
  });

  it('isIP, of either version and of each', () => {
    const pieces = ['1', '0', '00', '255', '256', '192', '.', ':', '::', 'ffff', 'FFFF', 'g', '2001', 'db8', '%', '%eth0', '1.2.3.4'];
    const inputs = [...made(6, pieces, 10_000, 10), '::1', '::', '1::', '::ffff:1.2.3.4', '2001:db8::1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0', '1.2.3.4', '01.2.3.4'];
    agree(inputs, (v) => ipPort(v), (v) => isIP(v));
    agree(inputs, (v) => ipPort(v, 4), (v) => isIP(v, 4));
    agree(inputs, (v) => ipPort(v, 6), (v) => isIP(v, 6));
  });

  it('minLength, maxLength and isLength: isLength, a character with its presentation selector and a surrogate pair counted once', () => {
    const inputs = made(7, ['a', 'é', 'e\u0301', '😀', '\uD83D', '\uDE00', '\uFE0F', '\uFE0E', '❤\uFE0F', '👍🏽', ' '], 5_000, 6);
    for (const n of [0, 1, 2, 3, 5]) {
      agree(inputs, (v) => minLength.check(v, [n]), (v) => isLength(v, { min: n }), n > 1);
      agree(inputs, (v) => maxLength.check(v, [n]), (v) => isLength(v, { min: 0, max: n }), n > 0);
      agree(inputs, (v) => isLengthRule.check(v, [n, n + 1]), (v) => isLength(v, { min: n, max: n + 1 }));
      agree(inputs, (v) => isLengthRule.check(v, [n, null]), (v) => isLength(v, { min: n }), n > 1);
    }
  });

  it("isUuid: isUUID of each version validator.js knows, and of one it does not", () => {
    const hex = (next: () => number, n: number) => Array.from({ length: n }, () => '0123456789abcdefABCDEF'[Math.floor(next() * 22)]).join('');
    const next = seeded(8);
    const inputs = [
      ...Array.from({ length: 4_000 }, () => [hex(next, 8), hex(next, 4), hex(next, 4), hex(next, 4), hex(next, 12)].join('-')),
      ...combined(['3f2b8c1e-9a4d-'], ['0', '1', '4', '8', '9', 'A'], ['e6f-'], ['0', '8', '9', 'a', 'B', 'c'], ['b7a-1c2d3e4f5a6b', 'b7a-1c2d3e4f5a6', 'b7a-1c2d3e4f5a6bc']),
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
      '',
    ];
    for (const version of [null, 'all', 1, 2, 3, 4, 5, 6, 7, 8, '4', 'nil', 'max', 'loose', 9, 'v4']) {
      agree(inputs, (v) => isUuid.check(v, [version]), (v) => isUUID(v, (version ?? undefined) as Parameters<typeof isUUID>[1]), version !== 9 && version !== 'v4');
    }
  });

  it('isLowercase, isUppercase and matches', () => {
    const inputs = made(9, ['a', 'A', 'ß', 'ẞ', 'İ', 'ı', 'ǅ', 'Σ', 'ς', '1', '_', ' ', '😀', 'é'], 5_000, 5);
    agree(inputs, (v) => isLowercaseRule.check(v, []), (v) => isLowercase(v));
    agree(inputs, (v) => isUppercaseRule.check(v, []), (v) => isUppercase(v));
    for (const [pattern, flags] of [['^[a-z0-9_]+$', undefined], ['a', 'i'], ['^.{2}$', 'u'], ['a', 'g']] as const) {
      agree(inputs, (v) => matchesRule.check(v, [pattern, flags ?? null]), (v) => matches(v, pattern, flags));
      agree(inputs, (v) => matchesRule.check(v, [{ regexp: pattern, flags: flags ?? '' }, null]), (v) => matches(v, new RegExp(pattern, flags)));
    }
  });
});
