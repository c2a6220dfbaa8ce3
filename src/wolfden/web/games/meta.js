// What the home screen and the lobby say about each game before any match: a line to choose
// by, the options in plain words, and the rules in brief. (The full rules: docs/games/*.md.)

export const BLURBS = {
  werewolf: "The party classic: secret roles, nights of Werewolves, a Seer and a Guardian, days of talk and votes.",
  werewords: "Guess the Magic Word with yes/no questions while hidden Werewolves steer you wrong.",
  "werwoelfe-kids": "For children: find the three werewolves hidden in the village before they drive out eight people. Two teams.",
  "robbers-horror": "A trick-taking card game where partnerships are hidden until the cards are played.",
};

export const SPECS = {
  werewolf: {
    hidden: ["names", "villager_only"],
    advanced: ["werewolves", "seers", "guardians", "pack_rounds", "min_night_seconds", "dead_see_all", "round_limit"],
    labels: {
      players: "Players",
      werewolves: "Werewolves (custom)",
      seers: "Seers (custom)",
      guardians: "Guardians (custom)",
      night_seconds: "Longest night (seconds)",
      min_night_seconds: "Shortest night (seconds)",
      pack_rounds: "Werewolf pick rounds",
      discussion_seconds: "Day discussion (seconds)",
      vote_seconds: "Time to vote (seconds)",
      public_ballots: "Show who voted for whom",
      round_limit: "Round limit (0 = none)",
      dead_see_all: "Eliminated players see everything",
    },
  },
};

SPECS.werewords = {
  hidden: ["last_mayor"],
  advanced: [
    "roles", "easier_for_seer_mayor", "fortune_teller_letters", "speedwords_day_seconds", "pointing_seconds",
    "discussion_seconds", "vote_seconds", "night_step_seconds", "word_choice_seconds", "result_seconds",
    "yes_no_tokens", "maybe_tokens", "so_close_tokens", "way_off_tokens", "correct_tokens", "categories", "max_age",
    "words_easy", "words_medium", "words_hard", "words_ridiculous",
  ],
  labels: {
    players: "Players",
    mode: "How you play",
    deluxe: "Deluxe roles",
    difficulty: "Word difficulty",
    word_choices: "Words the Mayor chooses from",
    typed_questions: "Type questions on phones",
    day_seconds: "Day timer (seconds)",
    speedwords: "Speedwords",
    words_easy: "Your own easy words",
    words_medium: "Your own medium words",
    words_hard: "Your own hard words",
    words_ridiculous: "Your own ridiculous words",
  },
};

SPECS["robbers-horror"] = {
  advanced: ["first_dealer", "icons", "show_history"],
  labels: {
    players: "Players",
    deals: "Deals in the match",
    first_dealer: "First dealer (seat from 0)",
    icons: "Icons per rank 1–15",
    show_last_trick: "Show the last trick",
    show_history: "Show every trick of the deal",
  },
};

SPECS["werwoelfe-kids"] = {
  advanced: ["symbol_faces", "dice_per_team", "duel", "peek_seconds", "too_hard"],
  labels: {
    layout: "Village size",
    doors: "Doors",
    too_hard: "Too hard for the werewolves (a duel every time)",
    symbol_faces: "Faces with the symbol (of 6)",
    dice_per_team: "Dice per team",
    duel: "Dice duel",
    peek_seconds: "Seconds a door stays open",
    notebook: "Notebook memory aid",
    handover: "One shared device (hand-over screens)",
    language: "Language",
  },
};

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
