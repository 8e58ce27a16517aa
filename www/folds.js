// The folds of the panel (`details.more`): closed on a first visit, so the first screen holds
// the model, its main sliders and the preset; each remembers being opened or closed, so a
// returning visitor finds the panel as they left it.

const STORE_KEY = 'kernel-playground.folds';

function stored() {
  try {
    return JSON.parse(localStorage.getItem(STORE_KEY)) || {};
  } catch {
    return {};
  }
}

export function wireFolds() {
  const state = stored();
  for (const fold of document.querySelectorAll('details.more')) {
    if (state[fold.id] === true) fold.open = true;
    fold.addEventListener('toggle', () => {
      if (fold.dataset.auto) {
        delete fold.dataset.auto;
        return;
      }
      const now = stored();
      now[fold.id] = fold.open;
      try {
        localStorage.setItem(STORE_KEY, JSON.stringify(now));
      } catch {
        // A browser that keeps nothing (private mode, storage full): the fold still works.
      }
    });
  }
}
