// PII detection over model output as kb-api's output guard meets it (titles and 320-character
// snippets): SciFact's abstracts (prose, numbers) and the markdown inside node_modules (code, URLs,
// versions, colons), each text scanned by every default detector, with each detector's quick test
// (PiiDetector.mayMatch: a character every finding holds) and without it (every text scanned).
// Both ways must find the same; the script stops if they do not. Then markdown neutralization over
// the same texts, with its quick test (neutralizeMarkdown: only text holding [, ] or < takes the full
// pass) and with every text through the full pass (neutralizeMarkdownInFull); same outputs required.
//   node -r ./tools/swc-register.cjs tools/bench/guardrails-pii.bench.mjs --scifact <folder with corpus.jsonl.gz> [--texts 6000] [--rounds 5]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { root } from './lib.mjs';

const require = createRequire(import.meta.url);
const { DEFAULT_PII_DETECTORS, findPii } = require('../../libs/guardrails/src/output/pii/pii-redactor.ts');
const { MARKUP, neutralizeMarkdown, neutralizeMarkdownInFull } = require('../../libs/guardrails/src/output/markdown.ts');

const { values } = parseArgs({
  options: { scifact: { type: 'string' }, texts: { type: 'string', default: '6000' }, rounds: { type: 'string', default: '5' } },
});
if (!values.scifact) throw new Error('--scifact <folder holding corpus.jsonl.gz> is required');
const half = Number(values.texts) / 2;

const abstracts = gunzipSync(readFileSync(path.join(values.scifact, 'corpus.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim())
  .slice(0, half / 2)
  .map((line) => JSON.parse(line))
  .flatMap((d) => [d.title, d.text.slice(0, 320)]);
// Markdown files of the installed packages, in a fixed order, cut into snippets.
const markdown = [];
const walk = (dir, depth) => {
  for (const name of readdirSync(dir).sort()) {
    if (markdown.length >= half) return;
    const file = path.join(dir, name);
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory() && depth < 3) walk(file, depth + 1);
    else if (stat?.isFile() && /\.md$/i.test(name)) {
      const text = readFileSync(file, 'utf8');
      for (let at = 0; at < text.length && markdown.length < half; at += 320) markdown.push(text.slice(at, at + 320));
    }
  }
};
walk(path.join(root, 'node_modules'), 0);
const texts = [...abstracts, ...markdown];

/**
 * Two ways of doing one step (`ways`: name -> function of a text): both must answer every text alike
 * (else the script stops with `what`), then they are timed over all texts, alternating, per round.
 * Answers the rounds and the first way's answers.
 */
function compareWays(ways, what) {
  const answers = Object.values(ways).map((run) => texts.map(run));
  const [first, ...others] = answers.map((a) => JSON.stringify(a));
  if (others.some((answers) => answers !== first)) throw new Error(what);
  const rounds = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [way, run] of Object.entries(ways)) {
      const started = performance.now();
      for (const text of texts) run(text);
      rounds.push({ round, way, us_per_text: Math.round(((performance.now() - started) * 1000 * 10) / texts.length) / 10 });
    }
  }
  return { rounds, answers: answers[0] };
}

const everyScan = DEFAULT_PII_DETECTORS.map((d) => ({ name: d.name, find: (text) => d.find(text) }));
const pii = compareWays(
  { 'quick tests': (t) => findPii(t, DEFAULT_PII_DETECTORS), 'every text scanned': (t) => findPii(t, everyScan) },
  'the quick tests changed what was found',
);
// Markdown as kb-api's output guard runs it (the HTML step ran first, so raw tags are left to it).
const mdOptions = { trustedHosts: [], escapeRawHtml: false };
const neutralization = compareWays(
  { 'quick test': (t) => neutralizeMarkdown(t, mdOptions), 'every text in full': (t) => neutralizeMarkdownInFull(t, mdOptions) },
  'the markdown quick test changed the output',
);

const skippedBy = Object.fromEntries(DEFAULT_PII_DETECTORS.filter((d) => d.mayMatch).map((d) => [d.name, texts.filter((t) => !d.mayMatch(t)).length]));
console.log(
  JSON.stringify(
    {
      texts: { abstracts: abstracts.length, markdown: markdown.length },
      findings: pii.answers.reduce((n, found) => n + found.length, 0),
      texts_skipped_by_quick_test: skippedBy,
      rounds: pii.rounds,
      markdown: { texts_with_markup: texts.filter((t) => MARKUP.test(t)).length, rounds: neutralization.rounds },
    },
    null,
    2,
  ),
);
