/**
 * `eiland_form_posts_total{form,outcome}` (docs/operations.md §7): every post of a form, counted once
 * when its response closes, by what it ended in. The status tells most outcomes; an action
 * names the ones a status cannot (a honeypot's 303 is not a stored registration).
 */
import type { RequestHandler, Response } from 'express';
import type { FormOutcome, Metrics } from './index.js';

const NAMED = new WeakMap<Response, FormOutcome>();

/**
 * Names a post's outcome where its status alone would mislead.
 * @param res the post's response
 * @param outcome e.g. `honeypot`
 */
export function markFormOutcome(res: Response, outcome: FormOutcome): void {
  NAMED.set(res, outcome);
}

function outcomeOf(res: Response): FormOutcome {
  const named = NAMED.get(res);
  if (named) return named;
  const status = res.statusCode;
  if (status < 400) return 'stored';
  if (status === 422) return 'invalid';
  if (status === 403) return 'forbidden';
  if (status === 429) return 'rate_limited';
  return status < 500 ? 'rejected' : 'error';
}

/**
 * A middleware, first on a form's POST route, that counts the post when its response closes.
 * A post whose client left before any answer is not counted.
 * @param form the form's label, e.g. its path `/aanmelden`
 */
export function countFormPosts(metrics: Metrics, form: string): RequestHandler {
  return function countFormPosts(_req, res, next) {
    res.once('close', () => {
      if (res.headersSent) metrics.formPosts.inc({ form, outcome: outcomeOf(res) });
    });
    next();
  };
}
