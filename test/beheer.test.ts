/**
 * Beheer's server suite on SQLite (test/helpers/beheer-suite.ts; docs/beheer.md §1–§7).
 */
import { beheerSuite } from './helpers/beheer-suite.js';

beheerSuite('SQLite', async () => ({}));
