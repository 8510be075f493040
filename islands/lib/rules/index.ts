/**
 * Every rule of this folder by name (docs/forms.md §5, §10): with the custom rules forms bring of
 * their own, the server's list of what the browser can evaluate (src/forms/known-rules.ts; a DTO
 * with any other rule is refused when its list is derived) and of the default messages. Like the
 * modules, it imports no server code; only the server imports it: the browser imports the
 * modules' checks alone (islands/lib/validate.ts), never this index. Each module's file is named
 * by its rule.
 */
import * as arrayMaxSize from './arrayMaxSize.js';
import * as arrayMinSize from './arrayMinSize.js';
import * as isDefined from './isDefined.js';
import * as isEmail from './isEmail.js';
import * as isIn from './isIn.js';
import * as isInt from './isInt.js';
import * as isLength from './isLength.js';
import * as isLowercase from './isLowercase.js';
import * as isMailbox from './isMailbox.js';
import * as isNotEmpty from './isNotEmpty.js';
import * as isTrimmed from './isTrimmed.js';
import * as isUppercase from './isUppercase.js';
import * as isUrl from './isUrl.js';
import * as isUuid from './isUuid.js';
import * as isWebsite from './isWebsite.js';
import * as matches from './matches.js';
import * as max from './max.js';
import * as maxLength from './maxLength.js';
import * as min from './min.js';
import * as minLength from './minLength.js';
import type { RuleDefinition } from './rule.js';

/** Rule name → its module's rule. */
export const RULES: Readonly<Record<string, RuleDefinition>> = Object.fromEntries(([arrayMaxSize, arrayMinSize, isDefined, isEmail, isIn, isInt, isLength, isLowercase, isMailbox, isNotEmpty, isTrimmed, isUppercase, isUrl, isUuid, isWebsite, matches, max, maxLength, min, minLength] satisfies RuleDefinition[]).map((rule) => [rule.name, rule]));
