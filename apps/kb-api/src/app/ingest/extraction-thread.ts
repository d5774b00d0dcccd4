import path from 'node:path';
import { Worker } from 'node:worker_threads';
// The thread loads pdf-parse and mammoth by name at run time. These type imports are also what
// makes them dependencies of this app in the workspace graph, so the build's generated
// package.json installs them.
import type mammoth from 'mammoth';
import type { PageTextResult } from 'pdf-parse';
import { EXTRACTION_THREAD_SOURCE } from './extraction-thread-source';

export interface PdfExtraction {
  title: string | null;
  pages: PageTextResult[];
}

export interface DocxExtraction {
  html: Awaited<ReturnType<typeof mammoth.convertToHtml>>['value'];
}

export interface ExtractionLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

/**
 * A malformed or hostile file can make a parser spin or balloon; the ingest job must still end
 * (and its queue lock keep being renewed), so each binary document is parsed in a thread of its
 * own that is stopped at the deadline or when it outgrows its heap.
 */
export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 120_000, maxHeapMb: 512 };

// Where the thread looks for the parsing libraries: beside this code (a source checkout), beside
// the entry script (a built bundle with its own node_modules), then the working directory.
const resolveFrom = () =>
  [__filename, process.argv[1], path.join(process.cwd(), 'index.js')].filter(
    (p): p is string => typeof p === 'string' && path.isAbsolute(p),
  );

export function extractInThread(
  kind: 'pdf',
  data: Buffer,
  limits?: ExtractionLimits,
): Promise<PdfExtraction>;
export function extractInThread(
  kind: 'docx',
  data: Buffer,
  limits?: ExtractionLimits,
): Promise<DocxExtraction>;
export function extractInThread(
  kind: 'pdf' | 'docx',
  data: Buffer,
  limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS,
): Promise<PdfExtraction | DocxExtraction> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(EXTRACTION_THREAD_SOURCE, {
      eval: true,
      workerData: { kind, data: new Uint8Array(data), resolveFrom: resolveFrom() },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
      // The libraries' console chatter stays in the thread; failures come back as messages.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(new Error(`${kind} conversion did not finish within ${limits.timeoutMs} ms`)),
        ),
      limits.timeoutMs,
    );
    worker.once('message', (m: { result?: PdfExtraction | DocxExtraction; error?: string }) =>
      settle(() =>
        m.error !== undefined
          ? reject(new Error(`${kind} conversion failed: ${m.error}`))
          : resolve(m.result!),
      ),
    );
    worker.once('error', (e) =>
      settle(() => reject(new Error(`${kind} conversion failed: ${e.message}`))),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`${kind} conversion thread exited (code ${code})`))),
    );
  });
}
