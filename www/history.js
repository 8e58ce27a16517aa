// The browser's history and the last scene kept across visits.
//
// Back and Forward move between scenes: the actions that make a new scene (a preset, a loaded
// file, Clear, Regenerate, a model switch, compare on or off) push an entry of the browser's
// history; every other edit (a drag, a click, a slider) only rewrites the address of the entry
// on screen. An entry's scene is its address's hash, opened whole as a followed link is.
//
// The scene on screen is also kept in localStorage, so closing the tab loses nothing: a visit
// without a link offers it again (Restore / Start fresh); a visit with a link opens the link.

import { t } from './i18n.js';

const STORE_KEY = 'kernel-playground.last-scene';
const SAVE_MS = 1000;

// ---- the address and the browser's history -----------------------------------------------

let entryPending = false;
// Embedded in another page (www/embed.js), the lab is a guest there: it adds no entries to the
// browser's history (an iframe's entries would be the host page's Back button), and it neither
// keeps its scene for the next visit nor offers the last one.
let guest = false;
export function beGuest() {
  guest = true;
}
// The address's hash as last written or opened: a popstate and the hashchange that comes with
// it (or a hashchange alone) open a scene once.
let shownHash = location.hash;

// The scene written next is a new entry of the browser's history (when it differs from the
// scene of the entry on screen).
export function startEntry() {
  entryPending = true;
}

// The action that was to make a new entry is over (it made nothing new, or its entry is written).
export function cancelEntry() {
  entryPending = false;
}

export const entryPendingNow = () => entryPending;

// Writes the scene's link (`#…`, or '' for a scene too large for a link) to the address: a new
// entry after startEntry() (once the scene differs from the entry's), else in place of the
// entry on screen.
export function writeAddress(hash) {
  const url = hash === '' ? location.pathname + location.search : hash;
  // The same scene: a new entry still waits for the action's scene (a file read behind the page).
  if (hash === location.hash) {
    shownHash = location.hash;
    return;
  }
  const push = entryPending && !guest;
  entryPending = false;
  // An entry without a scene (too large for a link) says so, so that Back or Forward to it
  // keeps the scene on screen instead of opening the default one.
  const state = hash === '' ? { tooLarge: true } : null;
  if (push) history.pushState(state, '', url);
  else history.replaceState(state, '', url);
  shownHash = location.hash;
}

// Calls open() whenever the address's hash changes under the page: Back, Forward, a link
// followed or typed in the address bar. `tooLarge()` is called instead for an entry whose
// scene was too large for a link.
export function wireTravel(open, tooLarge) {
  const changed = () => {
    if (location.hash === shownHash) return;
    shownHash = location.hash;
    entryPending = false;
    if (location.hash === '' && history.state && history.state.tooLarge) tooLarge();
    else open();
  };
  window.addEventListener('popstate', changed);
  window.addEventListener('hashchange', changed);
}

// ---- the last scene, kept across visits ----------------------------------------------------

let saveTimer = null;
let toSave;           // the link to save next (undefined: nothing waits)
let offer = null;     // the bar offering the last visit's scene, while it is shown

function store(link) {
  try {
    if (link === null) localStorage.removeItem(STORE_KEY);
    else localStorage.setItem(STORE_KEY, link);
  } catch {
    // Storage off or full: the scene is not kept, as without this feature.
  }
}

function flush() {
  clearTimeout(saveTimer);
  saveTimer = null;
  if (toSave === undefined || offer) return;
  store(toSave);
  toSave = undefined;
}

// Keeps `link` (the scene's hash without '#'; null for a scene too large for a link, which is
// not kept, so no older scene is offered in its place) at most once a second, and when the page
// is hidden or closed.
export function keepScene(link) {
  if (guest) return;
  toSave = link;
  if (offer) return; // the last visit's scene stays kept until it is restored or set aside
  if (saveTimer === null) saveTimer = setTimeout(flush, SAVE_MS);
}

addEventListener('pagehide', flush);
document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flush(); });

// The scene kept by the last visit (a hash without '#'), or null.
export function keptScene() {
  if (guest) return null;
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null;
  }
}

// Shows a small bar over the page offering the last visit's scene: "Restore" calls restore(),
// "Start fresh" keeps the scene on screen. The bar does not take the focus; it is first in the
// tab order.
export function offerKept(restore) {
  if (offer) offer.remove();
  const bar = document.createElement('div');
  bar.id = 'continue';
  bar.setAttribute('role', 'region');
  bar.setAttribute('aria-label', t('continue.region'));
  const text = document.createElement('span');
  text.textContent = t('continue.ask');
  const yes = document.createElement('button');
  yes.type = 'button';
  yes.id = 'continue-restore';
  yes.textContent = t('continue.restore');
  const no = document.createElement('button');
  no.type = 'button';
  no.id = 'continue-fresh';
  no.textContent = t('continue.fresh');
  bar.append(text, yes, no);
  yes.addEventListener('click', () => { const focused = bar.contains(document.activeElement); endOffer(); restore(); refocus(focused); });
  no.addEventListener('click', () => { const focused = bar.contains(document.activeElement); endOffer(); refocus(focused); });
  bar.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') { const focused = bar.contains(document.activeElement); endOffer(); refocus(focused); }
  });
  document.body.prepend(bar);
  offer = bar;
}

// The offer goes (set aside: the scene on screen is kept from now on).
export function endOffer() {
  if (!offer) return;
  offer.remove();
  offer = null;
  if (toSave !== undefined && saveTimer === null) saveTimer = setTimeout(flush, SAVE_MS);
}

export const offering = () => offer !== null;

function refocus(focused) {
  if (focused) document.getElementById('plot').focus();
}
