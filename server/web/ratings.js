// Ratings beside names: a person's from the server's leaderboard (asked for after signing in and
// again after each game, so that a rated game's change shows), a bot level's measured rating
// from the catalogue. A person starts at 1500, as the server rates (storage/ratings.rs).

const START = 1500;

/** The moves a rated game needs before its end counts: one by each side (PLIES_TO_RATE in
 * shared/src/domain/outcome.rs). */
const PLIES_TO_RATE = 2;

/** Whether a rated game that ended with `result` after `plies` moves moved its players' ratings,
 * as the server decides (GameResult::counts_for_rating): not aborted, and both sides moved. */
export function countsForRating(result, plies) {
  return result.reason !== "Aborted" && plies >= PLIES_TO_RATE;
}

export class Ratings {
  constructor() {
    this.people = new Map();
    this.changes = new Map();
    this.heard = false;
  }

  /** The leaderboard's entries arrived: a rating that moved since the last list keeps its change. */
  update(entries) {
    const next = new Map();
    for (const entry of entries) {
      if (!entry.bot) next.set(`${entry.kind}:${entry.player}`, entry.rating);
    }
    if (this.heard) {
      for (const [key, rating] of next) {
        const before = this.people.has(key) ? this.people.get(key) : START;
        if (rating !== before) this.changes.set(key, rating - before);
      }
    }
    this.people = next;
    this.heard = true;
  }

  /** What follows a seat holder's name in a game on `board`, as the terminal writes it: a
   * person's " 1512" or " 1512 (+12)", a bot level's " (750)", or "". */
  label(board, holder) {
    if (holder.Bot) {
      const rating = board.botRatings.get(holder.Bot.level);
      return rating === undefined ? "" : ` (${rating})`;
    }
    if (!holder.Human) return "";
    const key = `${board.kind}:${holder.Human.name}`;
    if (!this.people.has(key)) return "";
    const rating = this.people.get(key);
    const change = this.changes.get(key);
    if (!change) return ` ${rating}`;
    return ` ${rating} (${change > 0 ? "+" : "−"}${Math.abs(change)})`;
  }
}
