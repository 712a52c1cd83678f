// The web game's entry point: loads the tile data, draws every tile once into
// shared <defs>, and routes between the screens (#/, #/new, #/game/ID,
// #/replay/ID, #/rules/CODE, #/learn, #/puzzles, #/lobby, #/signup, #/signin,
// #/recover, #/account, #/player/NAME, #/leaderboard, #/admin).

import { AccountScreen, showAccount } from './account.js';
import { addTokens, api } from './api.js';
import { esc, nextTask, toast } from './dom.js';
import { registerServiceWorker } from './connection.js';
import { GameScreen } from './game.js';
import { HomeScreen } from './home.js';
import { ReplayScreen } from './replay.js';
import { RulesScreen } from './rules.js';
import { TileSet } from './tiles.js';
import { installTheme } from './theme.js';
import { errorText, installLanguage, t } from './i18n.js';
import { installYourTurn } from './yourturn.js';

installLanguage();
installTheme();
const main = document.getElementById('app');
// Touch screens are shown no keyboard hints.
document.body.classList.toggle('touch', window.matchMedia('(pointer: coarse)').matches);
let screen = null;
let tiles = null;
let options = null;
let fileReplay = null; // a record opened from disk: { replay, name }

async function boot() {
  try {
    const [tileData, opts] = await Promise.all([api.tiles(), api.options()]);
    tiles = new TileSet(tileData);
    options = opts;
  } catch (e) {
    main.innerHTML = `<div class="fatal"><h2>${esc(t('boot-unreachable'))}</h2><p>${esc(errorText(e))}</p></div>`;
    return;
  }
  window.addEventListener('hashchange', route);
  route();
  // The top bar's account and "your turn" list in tasks of their own: the screen's own comes first.
  await new Promise((r) => setTimeout(r));
  showAccount();
  await nextTask();
  installYourTurn();
  await nextTask();
  // The tiles' pictures come just after the first screen (its <use>s fill in),
  // a slice at a time, so that the page shows and answers at once.
  await tiles.defsInSlices(document.getElementById('tile-defs'));
  // For the browser tests and the curious: the tile geometry (and the pictures are in).
  window.carcassonne = { tiles };
}

function show(make) {
  if (screen && screen.destroy) screen.destroy();
  main.innerHTML = '';
  // The game's state at a glance (game.js) is the game screen's alone.
  for (const key of ['version', 'status', 'myturn']) delete main.dataset[key];
  screen = make();
}

async function route() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query] = hash.split('?');
  const params = new URLSearchParams(query || '');
  const parts = path.split('/').filter(Boolean);
  document.body.dataset.screen = parts[0] || 'home';

  if (parts[0] === 'game' && parts[1]) {
    const id = parts[1];
    if (params.get('join')) {
      // A seat link: keep the seat, then drop the token from the address bar.
      addTokens(id, [params.get('join')]);
      history.replaceState(null, '', `#/game/${id}`);
      // Signed in: the seat taken is linked to the account (ratings, profile).
      showAccount();
    }
    show(() => new GameScreen(main, tiles, id));
    return;
  }
  // The tutorial and the puzzles load when first opened (not on a first visit).
  if (parts[0] === 'learn') {
    const { LearnScreen } = await import('./learn.js');
    show(() => new LearnScreen(main, tiles, parts[1] || null));
    return;
  }
  if (parts[0] === 'puzzles') {
    const { PuzzlesScreen } = await import('./puzzles.js');
    show(() => new PuzzlesScreen(main, tiles, parts[1] || null));
    return;
  }
  // Profiles and the leaderboard load when first opened.
  if (parts[0] === 'player' && parts[1]) {
    const { ProfileScreen } = await import('./profile.js');
    show(() => new ProfileScreen(main, decodeURIComponent(parts[1])));
    return;
  }
  if (parts[0] === 'watch') {
    const { WatchScreen } = await import('./watch.js');
    show(() => new WatchScreen(main));
    return;
  }
  if (parts[0] === 'leaderboard') {
    const { LeaderboardScreen } = await import('./leaderboard.js');
    show(() => new LeaderboardScreen(main, parts[1] || 'base'));
    return;
  }
  if (parts[0] === 'account') {
    const { SettingsScreen } = await import('./settings.js');
    show(() => new SettingsScreen(main, showAccount));
    return;
  }
  // The operator's page (only operators get anything from it).
  if (parts[0] === 'admin') {
    const { AdminScreen } = await import('./admin.js');
    show(() => new AdminScreen(main));
    return;
  }
  if (parts[0] === 'lobby') {
    const { LobbyScreen } = await import('./lobby.js');
    show(() => new LobbyScreen(main, options));
    return;
  }
  if (parts[0] === 'signup' || parts[0] === 'signin' || parts[0] === 'recover') {
    show(() => new AccountScreen(main, parts[0]));
    return;
  }
  if (parts[0] === 'rules' && parts[1]) {
    show(() => new RulesScreen(main, parts[1], options, tiles));
    return;
  }
  if (parts[0] === 'replay' && parts[1] === 'file') {
    if (!fileReplay) { location.hash = '#/'; return; }
    show(() => new ReplayScreen(main, tiles, fileReplay.replay, { title: fileReplay.name }));
    return;
  }
  if (parts[0] === 'replay' && parts[1]) {
    const id = parts[1];
    try {
      const replay = await api.replayOf(id);
      show(() => new ReplayScreen(main, tiles, replay, { id, title: t('replay-of-game', { id }), review: params.has('review') }));
    } catch (e) {
      toast(errorText(e), 'error');
      location.hash = '#/';
    }
    return;
  }
  show(() => new HomeScreen(main, tiles, options, {
    section: parts[0] === 'games' ? 'games' : parts[0] === 'new' ? 'new' : 'home',
    rulesCode: params.get('rules'),
    onReplayFile: async (text, name) => {
      try {
        fileReplay = { replay: await api.replayRecord(text), name };
        location.hash = '#/replay/file';
      } catch (e) {
        toast(t('replay-file-refused', { reason: errorText(e) }), 'error', 6000);
      }
    },
  }));
}

boot();
registerServiceWorker();
