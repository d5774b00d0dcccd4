/**
 * The extraction thread, as plain JavaScript evaluated by `new Worker(…, { eval: true })` so it
 * needs no build step and runs in a plain Node context (PDF.js loads its own worker module with
 * a dynamic import, which a test runner's module sandbox cannot serve). It parses one document and
 * answers once:
 * - `pdf`: `{ title, pages: [{ num, text }] }` from pdf-parse (PDF.js);
 * - `docx`: `{ html }` from mammoth (Word styles mapped to HTML; images left out);
 * - on failure: `{ error }`.
 * The parsing libraries are resolved from the first of `workerData.resolveFrom` that has them.
 */
export const EXTRACTION_THREAD_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');

function load(name) {
  let last;
  for (const base of workerData.resolveFrom) {
    try {
      return createRequire(base)(name);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

async function pdf(data) {
  const { PDFParse } = load('pdf-parse');
  const parser = new PDFParse({ data, verbosity: 0 });
  try {
    const info = await parser.getInfo();
    const text = await parser.getText();
    const title = info.info && typeof info.info.Title === 'string' ? info.info.Title : null;
    return { title, pages: text.pages.map((p) => ({ num: p.num, text: p.text })) };
  } finally {
    await parser.destroy();
  }
}

async function docx(data) {
  const mammoth = load('mammoth');
  const noImages = mammoth.images.imgElement(async () => ({ src: '' }));
  const result = await mammoth.convertToHtml({ buffer: Buffer.from(data.buffer, data.byteOffset, data.byteLength) }, { convertImage: noImages, externalFileAccess: false });
  return { html: result.value };
}

const run = workerData.kind === 'pdf' ? pdf : docx;
run(workerData.data).then(
  (result) => parentPort.postMessage({ result }),
  (e) => parentPort.postMessage({ error: String((e && e.message) || e) }),
);
`;
