// Before the WASM runs, and when it never does: the page is server-rendered
// HTML that works without it, but the panel cannot answer. If loading the
// module or the WASM fails (a dropped connection on a phone, a file of another
// deploy), the hydration script's promise rejects: say so in the panel,
// announced, and turn its controls off (the page's early script may have
// turned the input on). After hydration (`data-hydrated` on
// <html>) the app's own errors are the app's to show.
addEventListener('unhandledrejection', () => {
  if (document.documentElement.hasAttribute('data-hydrated')) return;
  const body = document.querySelector('[data-testid=agent-panel] .agent-body');
  if (!body || document.querySelector('[data-testid=agent-load-error]')) return;
  const alert = document.createElement('p');
  alert.className = 'agent-error';
  alert.dataset.testid = 'agent-load-error';
  alert.setAttribute('role', 'alert');
  alert.textContent = MESSAGE;
  body.prepend(alert);
  for (const control of document.querySelectorAll('[data-testid=agent-panel] :is(button, input, textarea)')) {
    control.disabled = true;
  }
});
