/**
 * Form bodies (docs/forms.md §6): read as text and parsed with URLSearchParams,
 * so every pair survives — duplicates, `__proto__`, nested-looking keys — and
 * the shape check can refuse them with 400 instead of a parser dropping them.
 */
import type { RequestHandler } from 'express';
import { HttpError } from '../errors.js';
import { boundedText } from './read-body.js';

/** Parsed form fields: one string, or an array when a name came more than once. */
type FormFields = Record<string, string | string[]>;

/** Larger bodies → 413 (docs/forms.md §6), in bytes (32 KiB). */
export const FORM_BODY_LIMIT = 32 * 1024;

/**
 * Whether every pair of an urlencoded body decodes: each `%` starts two hex digits that
 * together spell UTF-8 (docs/errors.md §3: a body that does not parse is a 400), and no byte that
 * arrived unencoded was invalid UTF-8 (the text reader made it U+FFFD).
 */
function wellEncoded(body: string): boolean {
  if (body.includes('\uFFFD')) return false;
  try {
    for (const part of body.split(/[&=]/)) decodeURIComponent(part.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/**
 * Middlewares: read an urlencoded body (over 32 KiB, declared or counted → 413 at once and the
 * connection closed; malformed percent-encoding or invalid UTF-8 → 400; unknown charset → 415)
 * into `req.body` as {@link FormFields} with a null prototype. Other content types leave
 * `req.body` undefined.
 */
export function formBody(): RequestHandler[] {
  return [
    boundedText(['application/x-www-form-urlencoded'], FORM_BODY_LIMIT),
    function parseForm(req, _res, next) {
      if (typeof req.body !== 'string') {
        next();
        return;
      }
      if (!wellEncoded(req.body)) {
        next(new HttpError(400, 'Form body: malformed percent-encoding or invalid UTF-8'));
        return;
      }
      const fields: FormFields = Object.create(null) as FormFields;
      for (const [name, value] of new URLSearchParams(req.body)) {
        const prior = fields[name];
        fields[name] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
      }
      req.body = fields;
      next();
    },
  ];
}

/** What a form accepts: which names, and which may repeat. */
export interface FormShape {
  /** Names that carry one value. */
  single: readonly string[];
  /** Names that may carry several values (checkbox groups). */
  multiple: readonly string[];
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks a parsed body against a form's shape.
 * @param body `req.body` after {@link formBody}
 * @returns the fields, each single name a string or undefined, each multiple name a string array
 * @throws HttpError 400 for a non-form body, an unknown, prototype or nested key,
 *   or a single field sent twice — naming the key (for the log only)
 */
export function readShape(body: unknown, shape: FormShape): Record<string, string | string[] | undefined> {
  if (body === undefined || body === null || typeof body !== 'object') throw new HttpError(400, 'Form shape: not an urlencoded form');
  const fields = body as FormFields;
  const out: Record<string, string | string[] | undefined> = Object.create(null) as Record<string, string | string[] | undefined>;
  for (const name of Object.keys(fields)) {
    const label = JSON.stringify(name.slice(0, 40));
    if (PROTOTYPE_KEYS.has(name)) throw new HttpError(400, `Form shape: prototype key ${label}`);
    if (/[[\].]/.test(name)) throw new HttpError(400, `Form shape: nested key ${label}`);
    const value = fields[name]!;
    if (shape.multiple.includes(name)) out[name] = Array.isArray(value) ? value : [value];
    else if (!shape.single.includes(name)) throw new HttpError(400, `Form shape: unknown field ${label}`);
    else if (Array.isArray(value)) throw new HttpError(400, `Form shape: field ${label} sent ${value.length} times`);
    else out[name] = value;
  }
  return out;
}
