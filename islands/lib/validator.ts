/**
 * validator.js's functions that the rule checks need (docs/forms.md §5), written out in today's
 * JavaScript. validator.js ships them compiled for old browsers, each with its own copy of the
 * helpers that compiling brings and with option handling the checks never use, a good part of a
 * form page's JavaScript (docs/performance.md §1). Each port does what its original does, step
 * for step and option for option; test/validator-ports.test.ts holds each to the installed
 * validator.js on tables and generated strings. The server's class-validator rules keep calling
 * validator.js itself. Browser code, run on the server too by the custom rules.
 */

/** The options of `isFQDN` (validator.js's defaults: a TLD required, nothing else allowed). */
export interface FqdnOptions {
  require_tld?: boolean;
  allow_underscores?: boolean;
  allow_trailing_dot?: boolean;
  allow_numeric_tld?: boolean;
  allow_wildcard?: boolean;
  ignore_max_length?: boolean;
}

/**
 * validator.js's `isFQDN`: a fully qualified domain name. An option left undefined takes its
 * default, as validator.js's `merge` gives it.
 */
export function isFQDN(text: string, { require_tld = true, allow_underscores, allow_trailing_dot, allow_numeric_tld, allow_wildcard, ignore_max_length }: FqdnOptions = {}): boolean {
  if (allow_trailing_dot && text[text.length - 1] === '.') text = text.slice(0, -1);
  if (allow_wildcard === true && text.indexOf('*.') === 0) text = text.slice(2);
  const parts = text.split('.');
  const tld = parts[parts.length - 1]!;
  if (require_tld && (parts.length < 2 || (!allow_numeric_tld && !/^([a-z\u00A1-\u00A8\u00AA-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]{2,}|xn[a-z0-9-]{2,})$/i.test(tld)) || /\s/.test(tld))) return false;
  if (!allow_numeric_tld && /^\d+$/.test(tld)) return false;
  return parts.every(
    (part) =>
      (part.length <= 63 || ignore_max_length) &&
      /^[a-z_\u00a1-\uffff0-9-]+$/i.test(part) &&
      !/[\uff01-\uff5e]/.test(part) && // full-width characters
      !/^-|-$/.test(part) &&
      (allow_underscores || !/_/.test(part)),
  );
}

const IPV4_PART = '(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])';
const IPV4 = `(${IPV4_PART}[.]){3}${IPV4_PART}`;
const IPV6_PART = '(?:[0-9a-fA-F]{1,4})';
const IPV4_ADDRESS = new RegExp(`^${IPV4}$`);
/** validator.js's, built from the same parts: each way of shortening `::`, a zone after `%`. */
const IPV6_ADDRESS = new RegExp(
  `^((?:${IPV6_PART}:){7}(?:${IPV6_PART}|:)|` +
    `(?:${IPV6_PART}:){6}(?:${IPV4}|:${IPV6_PART}|:)|` +
    `(?:${IPV6_PART}:){5}(?::${IPV4}|(:${IPV6_PART}){1,2}|:)|` +
    `(?:${IPV6_PART}:){4}(?:(:${IPV6_PART}){0,1}:${IPV4}|(:${IPV6_PART}){1,3}|:)|` +
    `(?:${IPV6_PART}:){3}(?:(:${IPV6_PART}){0,2}:${IPV4}|(:${IPV6_PART}){1,4}|:)|` +
    `(?:${IPV6_PART}:){2}(?:(:${IPV6_PART}){0,3}:${IPV4}|(:${IPV6_PART}){1,5}|:)|` +
    `(?:${IPV6_PART}:){1}(?:(:${IPV6_PART}){0,4}:${IPV4}|(:${IPV6_PART}){1,6}|:)|` +
    `(?::((?::${IPV6_PART}){0,5}:${IPV4}|(?::${IPV6_PART}){1,7}|:)))(%[0-9a-zA-Z.]{1,})?$`,
);

/**
 * validator.js's `isIP`: an IPv4 or IPv6 address.
 * @param version 4 or 6; either when left out
 */
export function isIP(text: string, version?: 4 | 6): boolean {
  return version === 4 ? IPV4_ADDRESS.test(text) : version === 6 ? IPV6_ADDRESS.test(text) : IPV4_ADDRESS.test(text) || IPV6_ADDRESS.test(text);
}

/**
 * The length validator.js's `isLength` measures: characters, a surrogate pair and a character
 * with its presentation selector (U+FE0E, U+FE0F) counted once.
 */
export function characters(text: string): number {
  return text.length - (text.match(/[^\uFE0F\uFE0E][\uFE0F\uFE0E]/g) ?? []).length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) ?? []).length;
}
