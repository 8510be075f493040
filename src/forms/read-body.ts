/**
 * Request bodies read as text with a hard size limit (docs/forms.md §6: forms 32 KiB → 413; docs/errors.md §6:
 * client error reports 8 KiB). Over the limit — declared by `Content-Length` or counted while a
 * chunked body arrives — the answer is 413 at once and the connection is closed: the rest of
 * the body is never read (body-parser reads a chunked body to its end before it
 * refuses, and a declared one that never comes ends only in the 30 s request time-out).
 */
import { parse as parseContentType } from 'content-type';
import type { RequestHandler } from 'express';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import getRawBody from 'raw-body';
import { HttpError } from '../errors.js';

/** Decompressors by `Content-Encoding` (as body-parser accepts them); `null`: as it is. */
const DECODERS = new Map<string, (() => Transform) | null>([
  ['identity', null],
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

/** What raw-body rejects with: an http-errors error with a `type`. */
type RawBodyError = Error & { type?: string };

/**
 * A middleware that reads a body of one of `types` as text, decoded in its declared charset
 * (UTF-8 when none), into `req.body`; any other request passes on with `req.body` undefined.
 * @param types media types, e.g. `['application/json', 'text/plain']`
 * @param limit bytes
 * @param charsets the charsets accepted (lower case); by default any iconv-lite knows
 * @returns the middleware; it fails the request with HttpError 413 (over the limit), 415 (a
 *   charset or content coding not accepted) or 400 (a malformed `Content-Type`, a body that
 *   does not inflate, one shorter than declared, or one aborted). On every failure, and for a
 *   body of another type (left unread for the route to refuse), the connection is closed
 *   after the answer: the rest of a body is never read.
 */
export function boundedText(types: string[], limit: number, charsets?: readonly string[]): RequestHandler {
  return function boundedText(req, res, next) {
    req.body = undefined;
    const refuse = (status: number, message: string) => {
      res.setHeader('Connection', 'close');
      next(new HttpError(status, message));
    };
    if (Number(req.get('content-length')) > limit) {
      refuse(413, `Declared body of ${req.get('content-length')} bytes is over the limit of ${limit}`);
      return;
    }
    const type = req.is(types);
    if (type === null) {
      next(); // no body
      return;
    }
    if (type === false) {
      res.setHeader('Connection', 'close'); // another type: the route refuses it unread
      next();
      return;
    }
    let charset: string;
    try {
      charset = parseContentType(req.get('content-type') ?? '').parameters.charset?.toLowerCase() ?? 'utf-8';
    } catch {
      refuse(400, 'Malformed Content-Type');
      return;
    }
    if (charsets && !charsets.includes(charset)) {
      refuse(415, `Unsupported charset "${charset.slice(0, 40)}"`);
      return;
    }
    const coding = (req.get('content-encoding') ?? 'identity').toLowerCase();
    const makeDecoder = DECODERS.get(coding);
    if (makeDecoder === undefined) {
      refuse(415, `Unsupported body encoding "${coding.slice(0, 40)}"`);
      return;
    }
    // A compressed body is counted after decompression; one that does not inflate is a 400.
    const decoder = makeDecoder?.();
    if (decoder) {
      decoder.on('error', () => undefined); // raw-body reports it; this covers a refusal before it listens
      req.once('close', () => req.complete || decoder.destroy(new Error('request aborted')));
      req.pipe(decoder);
    }
    getRawBody(decoder ?? req, { length: decoder ? undefined : req.get('content-length'), limit, encoding: charset }).then(
      (text) => {
        req.body = text;
        next();
      },
      (error: RawBodyError) => {
        if (decoder) {
          req.unpipe(decoder);
          decoder.destroy();
        }
        if (error.type === 'entity.too.large') refuse(413, `Body over the limit of ${limit} bytes`);
        else if (error.type === 'encoding.unsupported') refuse(415, `Unsupported charset "${charset.slice(0, 40)}"`);
        else refuse(400, `Body not read: ${error.type ?? error.message}`);
      },
    );
  };
}
