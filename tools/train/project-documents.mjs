// Writes libs/guardrails/eval/project-documents.jsonl: the project's own documentation (README.md and
// docs/*.md) cut into chunks by kb-api's chunker, as benign examples of what the screen meets at
// ingest (indirect injection: every document chunk goes through it). A snapshot, so that editing the
// docs does not change the classifier's training data; rerun it when retraining on newer docs.
//   node -r ./tools/swc-register.cjs tools/train/project-documents.mjs
// Left out: docs/guardrails-eval.md (it quotes held-out prompts of the screening sets), and chunks a
// default rule matches (the classifier never scores those; the rules decide them).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { createGuardrails, DEFAULT_SETTINGS } = require('@platform/guardrails');
const { chunkMarkdown } = require('../../apps/kb-api/src/app/ingest/chunker.ts');
const { PROJECT_DOCUMENTS_PATH } = require('../../libs/guardrails/eval/public-sets.ts');

const EXCLUDED = new Set(['docs/guardrails-eval.md']);
const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)].filter((f) => !EXCLUDED.has(f));

const rulesOnly = createGuardrails({ ...DEFAULT_SETTINGS, 'input_screen.classifier_enabled': false }, {}, { matchTimeoutMs: 2000, compileTimeoutMs: 10_000 });
await rulesOnly.warmUp();
const rows = [];
let ruled = 0;
for (const file of files) {
  // No overlap between neighbouring chunks (the ingest default repeats about 256 characters): the
  // set is split chunk by chunk, and a held-out chunk must not share text with a trained one.
  for (const chunk of chunkMarkdown(readFileSync(join(root, file), 'utf8'), { overlapTokens: 0 })) {
    if ((await rulesOnly.tryScreen(chunk.text)).blocked) {
      ruled++;
      continue;
    }
    rows.push(JSON.stringify({ text: chunk.text, attack: false, lang: 'en', file }));
  }
}
await rulesOnly.close();
writeFileSync(PROJECT_DOCUMENTS_PATH, `${rows.join('\n')}\n`);
process.stderr.write(`${rows.length} chunks from ${files.length} files (${ruled} matched by a rule, left out)\n`);
