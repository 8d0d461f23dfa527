// The panel before the WASM, at the end of every page's body: on a phone
// network the WASM takes seconds to arrive, the page's HTML a fraction of one. Until the page is hydrated
// (`data-hydrated` on <html>) this script lets the student send one message
// through `POST /api/v1/chat`, shows the exchange and speaks the reply. The
// request and its reply are left in `window.__earlyTurn`; the hydrated panel
// takes them over (early.rs): it shows the stored conversation in place of
// these lines and applies the reply to the page (the ranking, the advisor, the
// chips), so what a reply does to the page is the app's code alone.
(() => {
  const hydrated = () => document.documentElement.hasAttribute('data-hydrated');
  const start = () => {
    const panel = document.querySelector('[data-testid=agent-panel]');
    const form = panel && panel.querySelector('form.agent-composer');
    const input = form && form.querySelector('[data-testid=agent-input]');
    const send = form && form.querySelector('[data-testid=agent-send]');
    const log = panel && panel.querySelector('[data-testid=agent-early]');
    if (hydrated() || !input || !send || !log) return;
    input.disabled = false;
    send.disabled = false;
    const line = (role, text) => {
      const row = document.createElement('div');
      row.className = `agent-message agent-message-${role}`;
      row.dataset.testid = 'agent-message';
      row.dataset.role = role;
      row.textContent = text;
      log.append(row);
      log.parentElement.scrollTop = log.parentElement.scrollHeight;
    };
    form.addEventListener('submit', (ev) => {
      if (hydrated()) return;
      ev.preventDefault();
      const text = input.value.trim();
      if (!text || window.__earlyTurn) return;
      input.value = '';
      input.disabled = true;
      send.disabled = true;
      line('user', text);
      // What the page shows, as the server rendered it: inside the page's
      // data when it has some (`RenderedPageContext`), else the app's own.
      let pageContext = null;
      try {
        const rendered = document.querySelector('[data-page-context]') || document.getElementById('page-context');
        pageContext = JSON.parse(rendered.dataset.json);
      } catch (_) {}
      const request = {
        session_id: sessionStorage.getItem(SESSION_KEY),
        message: text,
        page_context: pageContext,
      };
      const turn = fetch(CHAT_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      }).then((r) => r.text().then((body) => {
        if (!r.ok) throw new Error(body);
        return body;
      }));
      window.__earlyTurn = { text, reply: turn };
      // Shown even if the app has started meanwhile: it replaces these lines
      // with the stored conversation once it has taken the turn over.
      turn.then((body) => {
        const reply = JSON.parse(body);
        sessionStorage.setItem(SESSION_KEY, reply.session_id);
        line('assistant', reply.voice_response);
        if (localStorage.getItem(MUTED_KEY) !== '1' && window.speechSynthesis) {
          const words = new SpeechSynthesisUtterance(reply.voice_response);
          words.lang = 'zh-CN';
          speechSynthesis.speak(words);
        }
      }, () => line('system', FAILED));
    });
  };
  // At the end of the body: the panel is parsed already, and waiting for
  // DOMContentLoaded would wait for whatever the page's thread does first.
  start();
})();
