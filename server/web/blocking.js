// The people whose chat this person hides: `/block NAME` and `/unblock NAME` typed in the chat
// line, never sent to the server. Kept per signed-in name in this origin's localStorage (beside
// the name's key, which lives in its IndexedDB), as a JSON list read as hostile input: anything
// but a list of names (1 to 32 characters) is dropped, and at most 1000 are kept.

const MAX_BLOCKED = 1000;
const MAX_NAME = 32;

function storageKey(name) { return `kingme-blocked:${name}`; }

function isName(value) {
  return typeof value === "string" && value.trim() === value && value.length >= 1
    && [...value].length <= MAX_NAME && !/[\u0000-\u001f\u007f]/.test(value);
}

/** The names `me` blocked, as a Set. */
export function blockedBy(me) {
  try {
    const list = JSON.parse(localStorage.getItem(storageKey(me)) || "[]");
    return new Set(Array.isArray(list) ? list.filter(isName).slice(0, MAX_BLOCKED) : []);
  } catch {
    return new Set();
  }
}

/**
 * Does a typed chat line that is `/block NAME` or `/unblock NAME` for `me`: returns the words to
 * show, or null for a line to send.
 */
export function blockingCommand(me, line) {
  const found = line.trim().match(/^\/(block|unblock)(?:\s+(.*))?$/);
  if (!found) return null;
  const [, command, rest] = found;
  const name = (rest || "").trim();
  if (!isName(name)) return `/${command} NAME: whose chat to hide or show again`;
  const blocked = blockedBy(me);
  if (command === "block") {
    if (blocked.has(name)) return `${name} is blocked already`;
    if (blocked.size >= MAX_BLOCKED) return `at most ${MAX_BLOCKED} names can be blocked; unblock some first`;
    blocked.add(name);
  } else if (!blocked.delete(name)) {
    return `${name} was not blocked`;
  }
  localStorage.setItem(storageKey(me), JSON.stringify([...blocked]));
  return command === "block"
    ? `blocked ${name}: their chat is hidden from you (/unblock ${name} shows it)`
    : `unblocked ${name}: their chat is shown again`;
}
