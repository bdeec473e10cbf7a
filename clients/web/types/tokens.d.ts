/**
 * Each run of CJK characters as its space-separated bigrams ("海洋博物館" → "海洋 洋博 博物 物館"; one character stays
 * itself), other text unchanged: how the pack indexes names (Swift `CJKBigrams.expand`), so a query word becomes
 * the phrase of its bigrams.
 * @param {string} text
 * @returns {string}
 */
export function cjkBigrams(text: string): string;
/**
 * Words as PackReader.matchExpression splits them: runs of letters and digits (marks stay with their letter), folded.
 * @param {string} text
 * @param {number} [maxWords]
 * @returns {string[]}
 */
export function searchWords(text: string, maxWords?: number | undefined): string[];
/**
 * `text` with every letter of SEARCH_FOLDS replaced (Swift `SearchFold.apply`).
 * @param {string} text
 * @returns {string}
 */
export function searchFold(text: string): string;
/**
 * The tokens unicode61 makes of `text`, folded: what the pack's search table holds for it.
 * @param {string} text
 * @returns {string[]}
 */
export function unicode61Tokens(text: string): string[];
/**
 * A word as the FTS5 unicode61 tokenizer folds it (its tokens joined; most words are one token).
 * @param {string} word
 * @returns {string}
 */
export function foldToken(word: string): string;
