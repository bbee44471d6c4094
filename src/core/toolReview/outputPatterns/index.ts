// The output scan's patterns, one file per language of the people who use MCP Switchboard.
import type { PoisoningPattern } from '../poisoning';
import { CHINESE } from './chinese';
import { ENGLISH } from './english';
import { FRENCH } from './french';
import { GERMAN } from './german';
import { JAPANESE } from './japanese';
import { RUSSIAN } from './russian';
import { SPANISH } from './spanish';

export { REASONS, type PatternId } from './shared';

/** Every language's patterns, by language (English, Chinese, German, French, Spanish, Russian, Japanese). */
export const PATTERNS_BY_LANGUAGE: Readonly<Record<string, readonly PoisoningPattern[]>> = {
  en: ENGLISH, zh: CHINESE, de: GERMAN, fr: FRENCH, es: SPANISH, ru: RUSSIAN, ja: JAPANESE,
};

/** The patterns of all those languages in one list. */
export const LANGUAGE_PATTERNS: readonly PoisoningPattern[] = Object.values(PATTERNS_BY_LANGUAGE).flat();
