/**
 * The Nu Html Checker (docs/qa-kit.md §6): `vnu.jar` from npm's `vnu-jar`, run by Java
 * (`JAVA_PATH`, else `java` on PATH) once over many documents — one JVM start for a whole suite —
 * and its JSON report read back per document as errors and warnings.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checker's jar inside the `vnu-jar` package. */
const VNU_JAR: string = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');

/** An HTML document to check, named for the report (e.g. `bot POST /aanmelden 422 naam`). */
export interface HtmlDocument {
  name: string;
  html: string;
}

/** One message of vnu's `--format json` report. */
interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/** An error or warning the checker reported in one document. */
export interface Finding {
  /** The document's name. */
  document: string;
  kind: 'error' | 'warning';
  message: string;
  /** The markup around it, as vnu quotes it. */
  extract?: string;
  line?: number;
}

/** A warning the suite accepts, with the reason it cannot be fixed in the markup. */
export interface AllowedWarning {
  /** Matches the warning's message. */
  message: RegExp;
  reason: string;
}

/** How a vnu message counts: an error, a warning, or nothing (plain info such as React's `<meta … />`). */
function kindOf(message: VnuMessage): Finding['kind'] | undefined {
  if (message.type === 'error' || message.type === 'non-document-error') return 'error';
  return message.subType === 'warning' ? 'warning' : undefined;
}

/**
 * Runs `java -jar vnu.jar --format json --stdout` over files, in one JVM.
 * @returns vnu's messages
 * @throws Error when Java cannot be started or its output is not vnu's JSON report (stderr quoted)
 */
function runVnu(files: string[]): Promise<VnuMessage[]> {
  const java = process.env.JAVA_PATH || 'java';
  // A small heap and the serial collector: the machine is shared, the documents are small. A run
  // this short is done before the optimizing compiler pays for itself, so the quick one alone
  // compiles (half the CPU time, the same report); its frames are larger, and the checker's
  // schema needs a deep stack.
  const args = ['-Xss8m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-jar', VNU_JAR, '--format', 'json', '--stdout', ...files];
  return new Promise((resolve, reject) => {
    // vnu exits 1 when it found errors: the report on stdout decides, not the status.
    execFile(java, args, { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      try {
        resolve((JSON.parse(stdout) as { messages: VnuMessage[] }).messages);
      } catch (cause) {
        reject(new Error(`${java} -jar ${VNU_JAR}: no JSON report (${error?.message ?? 'exit 0'}; stderr: ${stderr.slice(0, 2000)})`, { cause }));
      }
    });
  });
}

/**
 * Checks documents with the Nu Html Checker, all in one run.
 * @param documents the documents; their names must be unique
 * @returns every error and warning, by document name, in the order vnu reports them; plain
 *   info messages are left out
 * @throws TypeError when two documents share a name; Error when vnu cannot run (see {@link runVnu})
 */
export async function checkHtml(documents: readonly HtmlDocument[]): Promise<Finding[]> {
  const names = new Set(documents.map((d) => d.name));
  if (names.size !== documents.length) throw new TypeError(`checkHtml: document names are not unique (${documents.length} documents, ${names.size} names)`);
  const dir = await mkdtemp(join(tmpdir(), 'eiland-vnu-'));
  try {
    const byFile = new Map<string, string>();
    await Promise.all(
      documents.map(async (doc, i) => {
        const file = join(dir, `${String(i).padStart(4, '0')}.html`);
        byFile.set(file, doc.name);
        await writeFile(file, doc.html);
      }),
    );
    const messages = await runVnu([...byFile.keys()]);
    const findings: Finding[] = [];
    for (const message of messages) {
      const kind = kindOf(message);
      if (!kind) continue;
      const file = message.url?.startsWith('file:') ? fileURLToPath(message.url) : message.url;
      findings.push({ document: byFile.get(file ?? '') ?? String(message.url), kind, message: message.message, extract: message.extract, line: message.lastLine });
    }
    return findings;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The findings a suite must fail on: every error, and every warning no allow-list entry names.
 * @param findings from {@link checkHtml}
 * @param allowed the accepted warnings, each with its reason
 */
export function unexplained(findings: readonly Finding[], allowed: readonly AllowedWarning[]): Finding[] {
  return findings.filter((f) => f.kind === 'error' || !allowed.some((a) => a.message.test(f.message)));
}
