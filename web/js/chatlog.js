// A game's chat as its reader sees it (docs/web.md, "Chat and rematch"):
// the spectators' messages a page keeps, and whom the reader muted:
// players by seat, spectators by their number in the game (given out by
// the server: an account's wherever it writes from; else their address's
// and their browser's), never by name, so that muting the spectator "Bob"
// leaves the player "Bob" alone. Muting a spectator who is not signed in
// also hides, until "Show", the spectators who first wrote after that
// mute: one who comes back from a new address in a new browser stays out
// of sight. No DOM here (chat.js draws the chat and keeps the mutes in
// localStorage; tests/browser/chatlog.test.mjs runs these in node).

/** The most spectators' messages a page keeps (the server keeps 500 + 500 of them, `CHAT_CAPS`). */
export const MAX_SPECTATOR_MESSAGES = 1000;

/**
 * The messages of `messages` (seq → message) that go once the page keeps
 * too many spectators' messages: the oldest of theirs (players' never).
 */
export function overflow(messages) {
  const spectators = [...messages.values()].filter((m) => m.seat == null).sort((a, b) => a.seq - b.seq);
  return spectators.slice(0, Math.max(0, spectators.length - MAX_SPECTATOR_MESSAGES)).map((m) => m.seq);
}

/** Whose a message is, for muting: `seat:N`, `spectator:N`, or null (an older server's spectator). */
export function whose(m) {
  if (m.seat != null) return `seat:${m.seat}`;
  if (m.spectator != null) return `spectator:${m.spectator}`;
  return null;
}

/** What a message's writer is: 'player', 'account' (a signed-in spectator) or 'spectator'. */
function kind(m) {
  if (m.seat != null) return 'player';
  return m.account ? 'account' : 'spectator';
}

/**
 * A game's mutes as stored (anything else, such as an older page's list of
 * names: none): `people` muted (`{key, name, kind}`), `after` (spectators
 * numbered past it are new since a mute) and whether those were `shown`.
 */
export function readMutes(stored) {
  const v = stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  const people = Array.isArray(v.people)
    ? v.people.filter((p) => p && typeof p.key === 'string' && typeof p.name === 'string' && typeof p.kind === 'string')
    : [];
  return { people, after: Number.isInteger(v.after) ? v.after : null, shown: v.shown === true };
}

/**
 * `mutes` with the writer of message `m` muted. `messages`: every message
 * read so far (the spectators numbered so far are among them).
 */
export function mute(mutes, m, messages) {
  const key = whose(m);
  if (!key) return mutes;
  const people = mutes.people.some((p) => p.key === key) ? mutes.people : [...mutes.people, { key, name: m.name, kind: kind(m) }];
  if (kind(m) !== 'spectator') return { ...mutes, people };
  let seen = 0;
  for (const x of messages) seen = Math.max(seen, x.spectator ?? 0);
  return { people, after: seen, shown: false };
}

/** `mutes` without `key`; with no spectator left muted, newcomers show again. */
export function unmute(mutes, key) {
  const people = mutes.people.filter((p) => p.key !== key);
  const after = people.some((p) => p.kind === 'spectator') ? mutes.after : null;
  return { ...mutes, people, after };
}

/** `mutes` with the spectators new since the last mute shown. */
export function showNew(mutes) {
  return { ...mutes, shown: true };
}

/**
 * Why message `m` is out of sight: 'muted', 'new' (from a spectator not
 * signed in who first wrote after a mute, until shown), or null.
 */
export function outOfSight(mutes, m) {
  const key = whose(m);
  if (key && mutes.people.some((p) => p.key === key)) return 'muted';
  if (kind(m) === 'spectator' && mutes.after != null && !mutes.shown && (m.spectator ?? 0) > mutes.after) return 'new';
  return null;
}
