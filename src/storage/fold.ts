/**
 * How beheer's search compares text (docs/beheer.md §4): lower case, without accents, so `zoe`
 * finds `Zoë` and `ZOË`.
 */

/**
 * A text folded for search.
 * @param text any text, e.g. `Zoë`
 * @returns e.g. `zoe`
 */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}
