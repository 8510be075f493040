/**
 * The rule list (rules.json, derived from Eiland's DTO by write-rules.mjs) where the
 * island reads it. Eiland's build embeds the list in the island's chunk as
 * `globalThis.EILAND_REGISTRATION_RULES` (esbuild define in build.mjs); importing this
 * module before the island does the same for the Next page's chunk.
 */
import rules from '../rules.json';

globalThis.EILAND_REGISTRATION_RULES = rules;

export default rules;
