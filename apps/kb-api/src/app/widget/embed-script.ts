/**
 * The embeddable widget, served as /widget/embed.js. Plain ES2017 with no dependencies: a host page
 * sets `window.KbWidgetConfig = { apiBase, publicKey }` and loads this script. It renders inside a
 * Shadow DOM (host CSS cannot reach in, ours cannot leak out) and writes every model or document
 * text with textContent, never as HTML. Kept as a string so the server bundle carries it as is.
 */
export const WIDGET_EMBED_SCRIPT = String.raw`(function () {
  'use strict';
  if (window.__kbWidgetLoaded) return;
  var config = window.KbWidgetConfig || {};
  var current = document.currentScript;
  var fallbackBase = current && current.src ? new URL(current.src).origin : location.origin;
  var apiBase = String(config.apiBase || fallbackBase).replace(/\/+$/, '');
  var publicKey = config.publicKey;
  if (typeof publicKey !== 'string' || publicKey === '') {
    console.warn('KbWidget: window.KbWidgetConfig.publicKey is missing');
    return;
  }
  window.__kbWidgetLoaded = true;

  var MESSAGES = {
    origin_not_allowed: 'This website is not allowed to use this assistant.',
    widget_key_invalid: 'This assistant is not configured correctly (unknown key).',
    widget_key_missing: 'This assistant is not configured correctly (no key).',
    widget_key_inactive: 'This assistant is switched off.',
    rate_limited: 'Too many questions at once. Please wait a moment and try again.',
    session_rate_limited: 'Too many messages in this conversation. Please wait a moment.',
    session_blocked: 'This conversation is too long. Start a new one.',
    snapshot_too_large: 'This page is too large to share with the assistant.',
    unreachable: 'The assistant could not be reached from this page.',
    failed: 'Something went wrong. Please try again.'
  };

  var CSS = [
    ':host { all: initial; }',
    '.root { position: fixed; bottom: 20px; right: 20px; z-index: 2147483000; font-family: var(--kb-font); font-size: 14px; line-height: 1.45; color: #111827; }',
    '.root.left { right: auto; left: 20px; }',
    '.launcher { width: 56px; height: 56px; border: none; border-radius: 50%; background: var(--kb-accent); color: #fff; font-size: 24px; cursor: pointer; box-shadow: 0 4px 14px rgba(0,0,0,.25); }',
    '.launcher.rounded { border-radius: 14px; } .launcher.square { border-radius: 4px; }',
    '.launcher:focus-visible, button:focus-visible, textarea:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }',
    '.panel { position: absolute; bottom: 70px; right: 0; width: min(380px, calc(100vw - 40px)); height: min(540px, calc(100vh - 110px)); display: flex; flex-direction: column; background: var(--kb-bg); border: 1px solid #d1d5db; border-radius: 12px; box-shadow: 0 12px 32px rgba(0,0,0,.25); overflow: hidden; }',
    '.root.left .panel { right: auto; left: 0; }',
    '.panel[hidden] { display: none; }',
    'header { display: flex; align-items: center; justify-content: space-between; padding: 10px 14px; background: var(--kb-accent); color: #fff; }',
    'h2 { margin: 0; font-size: 15px; font-weight: 600; }',
    '.note { margin: 0; padding: 6px 14px; font-size: 12px; color: #4b5563; border-bottom: 1px solid #e5e7eb; }',
    '.close { background: transparent; border: none; color: #fff; font-size: 20px; cursor: pointer; line-height: 1; }',
    '.log { flex: 1; overflow-y: auto; padding: 12px 14px; display: flex; flex-direction: column; gap: 10px; }',
    '.msg { padding: 8px 10px; border-radius: 10px; max-width: 90%; white-space: pre-wrap; word-wrap: break-word; }',
    '.msg.user { align-self: flex-end; background: var(--kb-accent); color: #fff; }',
    '.msg.bot { align-self: flex-start; background: #f3f4f6; }',
    '.msg.refusal { align-self: flex-start; background: #fef3c7; border: 1px solid #f59e0b; }',
    '.sources { margin: 6px 0 0; padding-left: 20px; font-size: 12px; white-space: normal; }',
    '.sources .path { color: #4b5563; font-family: ui-monospace, monospace; }',
    '.error { margin: 0 14px 8px; padding: 8px 10px; border-radius: 8px; background: #fee2e2; border: 1px solid #ef4444; color: #7f1d1d; }',
    '.error:empty { display: none; }',
    'form { display: flex; gap: 8px; padding: 10px 14px; border-top: 1px solid #e5e7eb; }',
    'textarea { flex: 1; resize: none; min-height: 38px; max-height: 120px; padding: 8px; border: 1px solid #9ca3af; border-radius: 8px; font: inherit; color: inherit; }',
    '.send { padding: 0 14px; border: none; border-radius: 8px; background: var(--kb-accent); color: #fff; font: inherit; cursor: pointer; }',
    '.send:disabled { opacity: .6; cursor: progress; }',
    '.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0,0,0,0); border: 0; }'
  ].join('\n');

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function WidgetError(code, message) {
    this.code = code;
    this.message = message;
  }

  function call(method, path, body) {
    var headers = { 'X-Widget-Key': publicKey, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(apiBase + path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', mode: 'cors' })
      .catch(function () { throw new WidgetError('unreachable', MESSAGES.unreachable); })
      .then(function (res) {
        return res.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
          if (res.ok) return data;
          var code = data && data.error ? data.error : 'failed';
          var message = MESSAGES[code] || (data && data.message) || MESSAGES.failed;
          if (code === 'rate_limited' || code === 'session_rate_limited') {
            var wait = res.headers.get('Retry-After');
            if (wait) message += ' (' + wait + ' s)';
          }
          throw new WidgetError(code, message);
        });
      });
  }

  var host = el('div', { id: 'kb-widget-host' });
  var shadow = host.attachShadow({ mode: 'open' });
  var style = el('style', null, CSS);
  var root = el('div', { class: 'root' });
  var launcher = el('button', { type: 'button', class: 'launcher', 'aria-label': 'Open the help assistant', 'aria-expanded': 'false', 'aria-controls': 'kb-panel' }, '?');
  var panel = el('section', { id: 'kb-panel', class: 'panel', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'kb-title' });
  panel.hidden = true;
  var header = el('header');
  var title = el('h2', { id: 'kb-title' }, 'Ask our docs');
  var close = el('button', { type: 'button', class: 'close', 'aria-label': 'Close the help assistant' }, '\u00d7');
  var note = el('p', { class: 'note' }, 'Answers are written by AI from the documentation: check the sources.');
  var log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', 'aria-label': 'Conversation' });
  var error = el('div', { class: 'error', role: 'alert' });
  var form = el('form', { 'aria-label': 'Ask a question' });
  var label = el('label', { for: 'kb-question', class: 'sr-only' }, 'Your question');
  var input = el('textarea', { id: 'kb-question', name: 'question', rows: '1', maxlength: '10000', placeholder: 'Ask a question\u2026', required: '' });
  var send = el('button', { type: 'submit', class: 'send' }, 'Send');
  header.appendChild(title);
  header.appendChild(close);
  form.appendChild(label);
  form.appendChild(input);
  form.appendChild(send);
  panel.appendChild(header);
  panel.appendChild(note);
  panel.appendChild(log);
  panel.appendChild(error);
  panel.appendChild(form);
  root.appendChild(launcher);
  root.appendChild(panel);
  shadow.appendChild(style);
  shadow.appendChild(root);

  var setupDone = null;
  var sessionId = null;
  var busy = false;

  function applyTheme(theme) {
    theme = theme || {};
    var safeColor = /^#[0-9a-fA-F]{3,8}$/;
    host.style.setProperty('--kb-accent', safeColor.test(theme.accent || '') ? theme.accent : '#2563eb');
    host.style.setProperty('--kb-bg', safeColor.test(theme.background || '') ? theme.background : '#ffffff');
    host.style.setProperty('--kb-font', typeof theme.fontFamily === 'string' && theme.fontFamily ? theme.fontFamily : 'system-ui, sans-serif');
    if (theme.launcherShape === 'rounded' || theme.launcherShape === 'square') launcher.classList.add(theme.launcherShape);
    if (theme.position === 'bottom-left') root.classList.add('left');
    if (typeof theme.title === 'string' && theme.title) title.textContent = theme.title;
  }
  applyTheme(config.theme);

  function showError(message) { error.textContent = message || ''; }

  // Answer text arrives HTML-escaped by the output guardrails (&lt;, &amp;, &quot;). Decoded in a
  // textarea, whose content is parsed as text only (no element is ever created), then shown with
  // textContent like everything else: the reader sees "Q&A", and markup stays inert text.
  var decoder = document.createElement('textarea');
  function unescapeText(text) {
    if (text === undefined || text === null) return text;
    decoder.innerHTML = String(text);
    return decoder.value;
  }

  function addMessage(kind, text) {
    var node = el('div', { class: 'msg ' + kind }, text);
    log.appendChild(node);
    log.scrollTop = log.scrollHeight;
    return node;
  }

  function addSources(node, citations) {
    if (!citations || !citations.length) return;
    var heading = el('div', { class: 'sr-only' }, 'Sources');
    var list = el('ol', { class: 'sources', 'aria-label': 'Sources' });
    citations.forEach(function (c, i) {
      var item = el('li', { 'data-citation': String(i + 1) });
      item.appendChild(el('span', { class: 'title' }, unescapeText(c.title || 'Untitled')));
      item.appendChild(document.createTextNode(' \u2014 '));
      item.appendChild(el('span', { class: 'path' }, c.source_path || ''));
      list.appendChild(item);
    });
    node.appendChild(heading);
    node.appendChild(list);
  }

  function setup() {
    if (!setupDone) {
      setupDone = call('GET', '/api/widget/setup').then(function (s) {
        applyTheme(s.theme);
        return s;
      }, function (e) {
        setupDone = null;
        throw e;
      });
    }
    return setupDone;
  }

  function snapshot() {
    return { title: document.title.slice(0, 300), url: location.href.slice(0, 2000), lang: document.documentElement.lang || null };
  }

  function render(reply) {
    if (reply.session) sessionId = reply.session.id;
    if (reply.type === 'blocked') {
      addMessage('refusal', reply.reason || 'This question cannot be answered.');
      return Promise.resolve();
    }
    if (reply.type === 'tool_call' && reply.tool_call && reply.tool_call.is_be_tool) {
      return call('POST', '/api/widget/sessions/' + encodeURIComponent(sessionId) + '/exec-tool', { tool: reply.tool_call.tool, args: reply.tool_call.args }).then(render);
    }
    if (reply.type === 'tool_refused') {
      addMessage('refusal', reply.message || 'This action was refused.');
      return Promise.resolve();
    }
    if (reply.type === 'tool_result') {
      var results = (reply.result && reply.result.results) || [];
      var node = addMessage('bot', results.length ? 'Search results:' : 'No documents match this search.');
      addSources(node, results);
      return Promise.resolve();
    }
    if (reply.answer === null || reply.answer === undefined) return Promise.resolve();
    var answer = addMessage(reply.citations && reply.citations.length ? 'bot' : 'refusal', unescapeText(reply.answer));
    addSources(answer, reply.citations);
    return Promise.resolve();
  }

  function ask(question) {
    var body = { snapshot: snapshot(), message: question };
    if (!sessionId) {
      body.page_url = location.href.slice(0, 2000);
      return call('POST', '/api/widget/sessions/start', body);
    }
    return call('POST', '/api/widget/sessions/' + encodeURIComponent(sessionId) + '/step', body).catch(function (e) {
      if (e.code !== 'session_closed' && e.code !== 'session_blocked' && e.code !== 'not_found') throw e;
      sessionId = null;
      body.page_url = location.href.slice(0, 2000);
      return call('POST', '/api/widget/sessions/start', body);
    });
  }

  function open() {
    panel.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    launcher.setAttribute('aria-label', 'Close the help assistant');
    input.focus();
    setup().then(function () { showError(''); }, function (e) { showError(e.message); });
  }

  function hide() {
    panel.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    launcher.setAttribute('aria-label', 'Open the help assistant');
    launcher.focus();
  }

  launcher.addEventListener('click', function () { if (panel.hidden) open(); else hide(); });
  close.addEventListener('click', hide);
  panel.addEventListener('keydown', function (e) { if (e.key === 'Escape') hide(); });
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      if (typeof form.requestSubmit === 'function') form.requestSubmit(); else send.click();
    }
  });

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var question = input.value.trim();
    if (!question || busy) return;
    busy = true;
    send.disabled = true;
    log.setAttribute('aria-busy', 'true');
    showError('');
    addMessage('user', question);
    input.value = '';
    setup()
      .then(function () { return ask(question); })
      .then(render)
      .catch(function (err) { showError(err && err.message ? err.message : MESSAGES.failed); })
      .then(function () {
        busy = false;
        send.disabled = false;
        log.removeAttribute('aria-busy');
        input.focus();
      });
  });

  function mount() { document.body.appendChild(host); }
  if (document.body) mount(); else document.addEventListener('DOMContentLoaded', mount);
})();
`;
