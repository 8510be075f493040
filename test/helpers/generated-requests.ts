/**
 * Generated requests (fast-check arbitraries) for the tests that hold two ways of answering to the
 * same answer (docs/streaming.md §7): methods, targets and their variations, every kind of `Host`,
 * forwarded headers, request ids, trace context, cookies, user agents, the page-data marker and
 * bodies, written as the raw bytes of an HTTP/1.x request.
 */
import fc from 'fast-check';

/** One generated request. */
export interface Asked {
  /** Which pair of apps answers it: without `PUBLIC_ORIGIN` (`open`), or with it (`public`). */
  site: 'open' | 'public';
  method: string;
  target: string;
  version: '1.1' | '1.0';
  /** Every header line in order, `Host` lines among them; `Content-Length` or `Transfer-Encoding` comes with the body. */
  headers: Array<[string, string]>;
  body: string;
  /** Whether the body goes in chunks instead of with a `Content-Length`. */
  chunked: boolean;
}

/** What the requests are made of: the site's paths and values only the running apps know. */
export interface AskedParts {
  /** The paths the fast path may answer (its pages of a fixed path), asked for most. */
  pages: readonly string[];
  /** Every other path worth asking for: the route table's others, probes, crawler files, assets, unknown paths. */
  paths: readonly string[];
  /** The hosts each site takes for its own: a few of every kind for `open`, its origins' for `public`; the first of each is used to keep pages. */
  hosts: Record<Asked['site'], readonly string[]>;
  /** A session cookie and its CSRF token that both apps accept (docs/filter.md §6), for posts that reach validation. */
  session: { cookie: string; token: string };
}

/** A person's Chrome on Linux: a browser, streamed the shell first (docs/streaming.md §1). */
export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** Browsers, bots (whole document), text browsers (whole document) and others (docs/streaming.md §1). */
const USER_AGENTS = [
  BROWSER,
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Lynx/2.9.0dev.12 libwww-FM/2.14',
  'w3m/0.5.3+git20230121',
  'Links (2.29; Linux 6.1 x86_64; GNU C 12.2; text)',
  'ELinks/0.16.1 (textmode; Linux)',
  'curl/8.5.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36',
  '',
];

/** Odd methods: unknown to Node's parser (refused there), known to it but to no route, or lower case. */
const ODD_METHODS = ['TRACE', 'PROPFIND', 'SEARCH', 'PURGE', 'FOO', 'get', 'CONNECT'];

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const ip = fc.oneof(fc.ipV4(), fc.ipV6());

/** The ways a target differs from a path: each one of the canonical path's rules (docs/pages.md §5) and the parser's. */
const VARIATIONS: Record<string, fc.Arbitrary<(path: string) => string>> = {
  'trailing slash': fc.constant((p) => `${p}/`),
  'double slash': fc.nat().map((at) => (p) => {
    const slashes = [...p.matchAll(/\//g)].map((m) => m.index);
    const i = slashes[at % slashes.length]!;
    return `${p.slice(0, i)}/${p.slice(i)}`;
  }),
  dots: fc.constantFrom((p: string) => `${p}/.`, (p: string) => `${p}/..`, (p: string) => `/.${p}`, (p: string) => `/x/..${p}`, (p: string) => `${p}/%2e%2e`),
  case: fc.constantFrom((p: string) => p.toUpperCase(), (p: string) => p.replace(/[a-z]/, (c) => c.toUpperCase())),
  'percent-encoded': fc.tuple(fc.nat(), fc.boolean()).map(([at, lower]) => (p) => {
    const i = at % p.length;
    const code = `%${p.charCodeAt(i).toString(16).padStart(2, '0')}`;
    return p.slice(0, i) + (lower ? code : code.toUpperCase()) + p.slice(i + 1);
  }),
  'bad percent': fc.constantFrom((p: string) => `${p}%zz`, (p: string) => `${p}%2`, (p: string) => `/%zz${p}`, (p: string) => `${p}%00`, (p: string) => p.replace(/\//g, '%2F')),
  unicode: fc.constantFrom((p: string) => `${p}%C3%A9`, (p: string) => `${p}%E2%80%AE`, (p: string) => `${p}\\x`),
  query: fc.oneof(fc.constantFrom('?', '?uit=1', '?a=1&a=2', '?%zz', '?q=%C3%A9'), fc.webQueryParameters().map((q) => `?${q}`)).map((q) => (p: string) => `${p}${q}`),
  fragment: fc.constant((p) => `${p}#top`),
  'absolute form': fc.constantFrom('http://eiland.example', 'https://eiland.example', 'http://127.0.0.1:3000').map((origin) => (p: string) => `${origin}${p}`),
};
const variation = fc.oneof(...Object.values(VARIATIONS));

/** A target: a path as it is, or changed once or twice; now and then `*` or a path of no route. */
function target(paths: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.tuple(fc.constantFrom(...paths), fc.array(variation, { maxLength: 2 })).map(([path, changes]) => changes.reduce((p, change) => change(p), path)) },
    { weight: 1, arbitrary: fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)) },
    { weight: 1, arbitrary: fc.constant('*') },
  );
}

/** `Host` lines: one of the site's, one of another site, an invalid one, none, or two. */
function hostLines(own: readonly string[], others: readonly string[]): fc.Arbitrary<string[]> {
  const any = fc.oneof(fc.constantFrom(...own, ...others), fc.domain(), ip.map((a) => (a.includes(':') ? `[${a}]` : a)));
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...own).map((h) => [h]) },
    { weight: 2, arbitrary: fc.tuple(any, fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined })).map(([h, port]) => [port === undefined ? h : `${h}:${port}`]) },
    { weight: 1, arbitrary: fc.constantFrom('bad host', 'eiland.example/x', '[::1', 'a:b:c', 'ex@mple', 'eiland.example:80x', '\u00e9.example').map((h) => [h]) },
    { weight: 1, arbitrary: fc.constant<string[]>([]) },
    { weight: 1, arbitrary: fc.tuple(any, any).map(([a, b]) => [a, b]) },
  );
}

/** An optional header line of each kind, in a fixed order. */
function otherLines(parts: AskedParts, site: Asked['site'], page: boolean): fc.Arbitrary<Array<[string, string]>> {
  // Present `present` times in `of`; a failing case shrinks to one without it where it can.
  const line = (name: string, value: fc.Arbitrary<string>, present = 1, of = 2) =>
    fc.oneof({ withCrossShrink: true }, { weight: of - present, arbitrary: fc.constant(undefined) }, { weight: present, arbitrary: value.map((v): [string, string] => [name, v]) });
  const validId = fc.string({ unit: fc.constantFrom(...'ABCZabcz0189._-'), minLength: 1, maxLength: 64 });
  return fc
    .tuple(
      line('User-Agent', fc.constantFrom(...USER_AGENTS), 4, 5),
      line('X-Request-Id', fc.oneof(validId, fc.constantFrom('niet bruikbaar', 'x'.repeat(65), '', 'id\u00e9', 'a,b', 'qa-run.42'))),
      line('traceparent', fc.oneof(fc.tuple(hex(2), hex(32), hex(16), hex(2)).map((p) => p.join('-')), fc.constantFrom('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '00-00000000000000000000000000000000-00f067aa0ba902b7-01', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01', '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later', 'niet-geldig'))),
      line('X-Forwarded-For', fc.oneof(ip, fc.tuple(ip, ip).map((a) => a.join(', ')), fc.constantFrom('unknown', '', '203.0.113.9:443'))),
      line('X-Forwarded-Proto', fc.constantFrom('https', 'http', 'HTTPS', 'https, http', 'http,https', 'wss', '')),
      line('X-Forwarded-Host', fc.oneof(fc.constantFrom(...parts.hosts[site]), fc.constantFrom('rebound.example', 'eiland.example, rebound.example', '', 'bad host')), 1, 4),
      line('Cookie', fc.constantFrom('a=b', 'eiland.sid=s%3Ajunk.sig', 'eiland.csrf=junk; eiland.sid=junk', '__Host-eiland.sid=x', '=; ;', `x=${'y'.repeat(300)}`, parts.session.cookie)),
      line('X-Eiland-Data', fc.constantFrom('1', '1', '0', 'true', ''), 1, page ? 8 : 3),
      line('Accept', fc.constantFrom('text/html', 'application/json', '*/*', 'image/avif,image/webp,*/*')),
      line('Accept-Encoding', fc.constantFrom('gzip, deflate, br', 'br', 'identity', '*')),
      line('If-None-Match', fc.constantFrom('*', '"abc"', 'W/"x"'), 1, 6),
      line('If-Modified-Since', fc.constantFrom('Wed, 21 Oct 2015 07:28:00 GMT', 'Fri, 01 Jan 2100 00:00:00 GMT'), 1, 6),
      line('Range', fc.constantFrom('bytes=0-10', 'bytes=5-', 'bytes=x'), 1, 8),
      line('Origin', fc.constantFrom('http://eiland.example', 'https://eiland.example', 'null', 'http://evil.example'), 1, 4),
      line('Sec-Fetch-Site', fc.constantFrom('same-origin', 'cross-site', 'none', 'same-site'), 1, 4),
      line('Connection', fc.constantFrom('close', 'keep-alive'), 1, 6),
      line('Expect', fc.constantFrom('100-continue', 'iets-anders'), 1, 12),
    )
    .map((lines) => lines.filter((l) => l !== undefined));
}

/** A body: none, form fields (with the CSRF token both apps accept now and then), JSON, or text; its type. */
function body(parts: AskedParts): fc.Arbitrary<{ type?: string; text: string }> {
  const field = fc.tuple(fc.constantFrom('naam', 'email', 'bericht', 'akkoord', 'bedrijf', '_submission', 'x'), fc.string({ maxLength: 12 }));
  const form = fc.tuple(fc.array(field, { maxLength: 4 }), fc.boolean()).map(([fields, token]) => {
    const all = token ? [['_csrf', parts.session.token] as const, ...fields] : fields;
    return all.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ text: '' }) },
    { weight: 4, arbitrary: form.map((text) => ({ type: 'application/x-www-form-urlencoded', text })) },
    { weight: 1, arbitrary: fc.constant({ type: 'application/json', text: '{"message":"kapot","url":"/over"}' }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('text/plain', 'multipart/form-data', 'application/x-www-form-urlencoded; charset=latin1'), fc.string({ maxLength: 20 })).map(([type, text]) => ({ type, text })) },
  );
}

/**
 * Requests of every kind. Three in five are asked as a person asks for a page (a GET of one of
 * `pages` exactly, one of the site's hosts), so that the fast path has its share; the others are
 * anything.
 * @param parts the site's paths and hosts, and a session both apps accept
 */
export function askedRequests(parts: AskedParts): fc.Arbitrary<Asked> {
  const others = [...parts.hosts.open, ...parts.hosts.public, 'rebound.example'];
  const bySite = (['open', 'public'] as const).map((site) => {
    const aPage = fc.record({
      site: fc.constant(site),
      method: fc.constant('GET'),
      target: fc.constantFrom(...parts.pages),
      version: fc.constantFrom<Asked['version']>('1.1', '1.1', '1.1', '1.0'),
      // HTTP/1.0 may leave Host out; HTTP/1.1 may not (Node's parser answers 400).
      host: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...parts.hosts[site]).map((h) => [h]) }, { weight: 1, arbitrary: fc.constant<string[]>([]) }),
      lines: otherLines(parts, site, true),
      // A GET may carry a body, which no step reads.
      body: fc.oneof({ weight: 8, arbitrary: fc.constant<{ type?: string; text: string }>({ text: '' }) }, { weight: 1, arbitrary: body(parts) }),
      chunked: fc.boolean(),
    });
    const anything = fc.record({
      site: fc.constant(site),
      method: fc.oneof({ weight: 4, arbitrary: fc.constant('GET') }, { weight: 4, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'OPTIONS', 'DELETE', 'PATCH') }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) }),
      target: target([...parts.pages, ...parts.paths]),
      version: fc.constantFrom<Asked['version']>('1.1', '1.1', '1.1', '1.0'),
      host: hostLines(parts.hosts[site], others),
      lines: otherLines(parts, site, false),
      body: body(parts),
      chunked: fc.boolean(),
    });
    return fc.oneof({ weight: 3, arbitrary: aPage }, { weight: 2, arbitrary: anything });
  });
  // Header names are case-insensitive: as written, lower or upper case.
  const nameCase = fc.constantFrom((name: string) => name, (name: string) => name, (name: string) => name.toLowerCase(), (name: string) => name.toUpperCase());
  return fc.tuple(fc.oneof(...bySite), nameCase).map(([{ site, method, target, version, host, lines, body, chunked }, named]) => {
    const headers: Array<[string, string]> = [...host.map((h): [string, string] => ['Host', h]), ...lines];
    if (body.type !== undefined) headers.push(['Content-Type', body.type]);
    return { site, method, target, version, headers: headers.map(([name, value]) => [named(name), value]), body: body.text, chunked: chunked && body.text !== '' };
  });
}

/**
 * The request's bytes as they go on the wire: a `Content-Length` for a body given whole, or its
 * chunks; none for a request without a body.
 */
export function askedBytes({ method, target, version, headers, body, chunked }: Asked): Buffer {
  const head = [`${method} ${target} HTTP/${version}`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  const bytes = Buffer.from(body, 'utf8');
  if (chunked) head.push('Transfer-Encoding: chunked');
  else if (bytes.length > 0) head.push(`Content-Length: ${bytes.length}`);
  const framed = chunked ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]) : bytes;
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), framed]);
}
