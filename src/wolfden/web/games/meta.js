// What the home screen and the lobby say about each game before any match: a line to choose
// by and the rules in brief (the full rules: docs/games/*.md). The options' labels and help
// come from the server with the game (specOf).

export const BLURBS = {
  werewolf: "The party classic: secret roles, nights of Werewolves, a Seer and a Guardian, days of talk and votes.",
  werewords: "Guess the Magic Word with yes/no questions while hidden Werewolves steer you wrong.",
  "werwoelfe-kids": "For children: find the three werewolves hidden in the village before they drive out eight people. Two teams.",
  "robbers-horror": "A trick-taking card game where partnerships are hidden until the cards are played.",
};

/** How the options form shows a game's options: labels, hidden and advanced fields, all from
 * the game's Config as GET /api/games describes it (one place: the game's config.py). */
export function specOf(game) {
  const options = (game && game.options) || [];
  return {
    labels: Object.fromEntries(options.filter((o) => o.label).map((o) => [o.name, o.label])),
    hidden: options.filter((o) => o.hidden).map((o) => o.name),
    advanced: options.filter((o) => o.advanced).map((o) => o.name),
  };
}

export const RULES = {
  werewolf: [
    "Everyone gets a secret card. Werewolves know each other; everyone else is the Town.",
    "Each night the Werewolves choose someone to eliminate, the Seer learns whether one player is a Werewolf, and the Guardian protects one player (never the same one two nights running).",
    "Each day the village talks, then votes in secret. Most votes is eliminated; a tie gets one revote between the tied players.",
    "The Town wins when no Werewolf is left. The Werewolves win when they are as many as everyone else.",
  ],
  werewords: [
    "The Mayor knows the Magic Word and answers yes/no questions with tokens.",
    "Werewolves know the word too and try to stop the village from guessing it.",
    "If the word is guessed, the Werewolves can still win by finding the Seer; if not, the village can still win by finding a Werewolf.",
  ],
  "werwoelfe-kids": [
    "Three werewolves hide in the houses of the village; the werewolf team knows where.",
    "The village team opens doors to find them; a found werewolf is caught in a dice duel.",
    "The werewolves win when eight people are missing; the village wins when all three werewolves are caught.",
  ],
  "robbers-horror": [
    "Play one card to each trick; the highest card wins it. You need not follow suit.",
    "Special cards (the Werewolf, the Seer, the Knife, the Traitor) change who wins and who is on whose side.",
    "Each deal's winning team scores a point; after as many deals as players, the highest total wins.",
  ],
};

export const FAIR_PLAY = {
  werewolf:
    "Fair play: every eliminated player's card is revealed to everyone. Play on what happens in the game; nobody should be pressed about real life. Whoever is out early can watch with open eyes or take a break.",
};
