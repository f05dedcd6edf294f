/**
 * What one chat request may hold. Routines and alerts send their data as one system message
 * (a routine's step results as indented JSON), so a message may be long; the total keeps one
 * request's prompt, and its cost, bounded whatever the node sends.
 */
export const CHAT_LIMITS = {
  messages: 32,
  messageCharacters: 32_000,
  totalCharacters: 64_000,
} as const;
