/** The login pages' stylesheet: system fonts, visible focus, no external assets. */
export const LOGIN_CSS = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #f4f5f7; --card: #fff; --line: #d0d7de;
  --accent: #0b57d0; --accent-fg: #fff; --error: #b3261e; --error-bg: #fdecea; --ok-bg: #e6f4ea; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --muted: #9aa4af; --bg: #111418; --card: #1b1f24; --line: #3a424b;
  --accent: #8ab4f8; --accent-fg: #0b1b33; --error: #f2b8b5; --error-bg: #3b1a18; --ok-bg: #12301d; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: flex-start; justify-content: center; padding: 6vh 16px;
  background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.card { width: 100%; max-width: 420px; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 28px 28px 20px; }
h1 { font-size: 1.4rem; margin: 0 0 4px; }
h2 { font-size: 1.1rem; margin: 24px 0 8px; }
.lead { color: var(--muted); margin: 0 0 20px; }
.field { margin: 0 0 16px; }
label { display: block; font-weight: 600; margin-bottom: 4px; }
input[type=email], input[type=password], input[type=text] { width: 100%; padding: 10px 12px; font: inherit; color: inherit;
  background: transparent; border: 1px solid var(--line); border-radius: 8px; }
.has-error input { border-color: var(--error); }
.error { color: var(--error); margin: 4px 0 0; font-size: .9rem; }
.hint { color: var(--muted); margin: 0 0 6px; font-size: .9rem; }
.alert { background: var(--error-bg); color: var(--error); border-radius: 8px; padding: 10px 12px; margin: 0 0 16px; }
.notice { background: var(--ok-bg); border-radius: 8px; padding: 10px 12px; margin: 0 0 16px; }
button, .button { display: inline-block; width: 100%; padding: 10px 14px; font: inherit; font-weight: 600; border-radius: 8px;
  border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; text-align: center; text-decoration: none; }
button.secondary, .button.secondary { background: transparent; color: var(--accent); }
button + button, form + form { margin-top: 10px; }
.stack { display: flex; flex-direction: column; gap: 10px; }
a { color: var(--accent); }
.items { list-style: none; padding: 0; margin: 0 0 16px; }
.items li { display: flex; align-items: center; justify-content: space-between; gap: 10px; border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin-bottom: 8px; }
.items form button { width: auto; padding: 6px 12px; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.divider { display: flex; align-items: center; gap: 10px; color: var(--muted); margin: 18px 0; font-size: .9rem; }
.divider::before, .divider::after { content: ""; flex: 1; border-top: 1px solid var(--line); }
.qr { display: flex; justify-content: center; margin: 12px 0; }
.qr svg { width: 200px; height: 200px; background: #fff; padding: 8px; border-radius: 8px; }
code, .codes { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.codes { columns: 2; padding-left: 2.4em; }
.secret { word-break: break-all; }
ul.scopes { padding-left: 20px; }
.meta { color: var(--muted); font-size: .9rem; margin-top: 20px; }
.row { display: flex; gap: 10px; } .row > * { flex: 1; margin: 0; }
[hidden] { display: none !important; }
`;

/**
 * Passkey ceremonies in the page: fetches options from the server, calls navigator.credentials,
 * posts the result back and follows the redirect the server names. base64url <-> bytes is done
 * here because the JSON forms of the WebAuthn API are not in every browser yet.
 */
export const PASSKEY_JS = `(() => {
  const b64uToBytes = (s) => { const b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)); return Uint8Array.from(b, (c) => c.charCodeAt(0)); };
  const bytesToB64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content || document.querySelector('input[name="csrf"]')?.value || '';
  const post = async (url, body) => {
    const r = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf() }, body: JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.message || 'The passkey could not be used.');
    return data;
  };
  const show = (el, message) => { const out = document.getElementById(el.dataset.status); if (out) { out.textContent = message; out.hidden = !message; } };
  const credentialJson = (c) => {
    const r = c.response;
    const response = { clientDataJSON: bytesToB64u(r.clientDataJSON) };
    if (r.attestationObject) { response.attestationObject = bytesToB64u(r.attestationObject); response.transports = r.getTransports ? r.getTransports() : []; }
    if (r.authenticatorData) { response.authenticatorData = bytesToB64u(r.authenticatorData); response.signature = bytesToB64u(r.signature); if (r.userHandle) response.userHandle = bytesToB64u(r.userHandle); }
    return { id: c.id, rawId: bytesToB64u(c.rawId), type: c.type, response, clientExtensionResults: c.getClientExtensionResults(), authenticatorAttachment: c.authenticatorAttachment || undefined };
  };
  async function register(el) {
    const o = await post(el.dataset.options, { return_to: el.dataset.returnTo || '' });
    o.challenge = b64uToBytes(o.challenge); o.user.id = b64uToBytes(o.user.id);
    o.excludeCredentials = (o.excludeCredentials || []).map((c) => ({ ...c, id: b64uToBytes(c.id) }));
    const c = await navigator.credentials.create({ publicKey: o });
    return post(el.dataset.verify, { credential: credentialJson(c), name: document.getElementById('f-passkey_name')?.value || '' });
  }
  async function authenticate(el) {
    const o = await post(el.dataset.options, { return_to: el.dataset.returnTo || '', step_up: el.dataset.stepUp === 'true' });
    o.challenge = b64uToBytes(o.challenge);
    o.allowCredentials = (o.allowCredentials || []).map((c) => ({ ...c, id: b64uToBytes(c.id) }));
    const c = await navigator.credentials.get({ publicKey: o });
    return post(el.dataset.verify, { credential: credentialJson(c), return_to: el.dataset.returnTo || '' });
  }
  for (const el of document.querySelectorAll('[data-passkey]')) {
    if (!window.PublicKeyCredential) { el.disabled = true; show(el, 'This browser does not support passkeys.'); continue; }
    el.addEventListener('click', async (event) => {
      event.preventDefault(); el.disabled = true; show(el, '');
      try {
        const result = el.dataset.passkey === 'register' ? await register(el) : await authenticate(el);
        window.location.assign(result.redirect);
      } catch (e) {
        show(el, e && e.name === 'NotAllowedError' ? 'The passkey prompt was cancelled or timed out.' : (e && e.message) || 'The passkey could not be used.');
        el.disabled = false; el.focus();
      }
    });
  }
})();
`;
